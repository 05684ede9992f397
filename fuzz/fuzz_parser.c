/* Parser target: arbitrary bytes through the case-file loader and the
   consistency checks of `movconf check-cases`. Nothing may crash, leak or
   allocate beyond the loader's limits (spec/case-format.md, section 8);
   a rejected file must come with a message. */
#include <stdlib.h>
#include <string.h>

#include "cases/cases.h"
#include "fuzz_common.h"

static void ignore(void *ctx, const char *msg) {
  (void)ctx;
  (void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mc_case_file f;
  char err[1024];
  err[0] = '\0';
  if (!mc_case_file_parse((const char *)data, size, "fuzz-input", &f, err, sizeof err)) {
    if (err[0] == '\0' || memchr(err, '\0', sizeof err) == NULL)
      mc_fuzz_mismatch("parser", "rejection without a message");
    return 0;
  }
  mc_case_file_check(&f, ignore, NULL);
  for (int i = 0; i < f.n_cases; i++) {
    mc_request r = mc_request_of_case(&f.cases[i]);
    if (r.op != f.op || !mc_op_input_count_ok(f.op, r.n_inputs))
      mc_fuzz_mismatch("parser", "case request does not match its file");
  }
  mc_case_file_free(&f);
  return 0;
}
