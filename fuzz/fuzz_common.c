/* Shared pieces of the fuzz targets: see fuzz_common.h. */
#include "fuzz_common.h"

#include "harness/harness.h"
#include "movconf/tensor.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mc_fuzz_setup(void) {
  static bool done;
  if (!done) {
    setenv("MOVCONF_PARALLEL_MIN_BYTES", "0", 1);
    done = true;
  }
}

void mc_fuzz_mismatch(const char *target, const char *fmt, ...) {
  char signature[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(signature, sizeof signature, fmt, ap);
  va_end(ap);
  fprintf(stderr, "MOVCONF-MISMATCH %s %s\n", target, signature);
  fflush(stderr);
  abort();
}

void mc_fuzz_finding(const char *target, mc_op op, mc_verdict v, mc_status expected,
                     const char *where) {
  char key[128];
  mc_finding_key(op, v, expected, key, sizeof key);
  mc_fuzz_mismatch(target, "%s%s%s", key, where ? " " : "", where ? where : "");
}

void mc_fuzz_judge(const char *target, mc_op op, mc_status expected, const mc_tensor *want,
                   mc_status got, const mc_tensor *out, const char *where) {
  mc_verdict v = mc_verdict_of_answers(expected, want, got, out);
  if (v == MC_VERDICT_PASS)
    return;
  if (expected == MC_OK && got == MC_OK)
    mc_fuzz_compare(want, out); /* the detail line of what differs first */
  else
    mc_fuzz_detail("status %s, expected %s", mc_status_name(got), mc_status_name(expected));
  mc_fuzz_finding(target, op, v, expected, where);
}

void mc_fuzz_detail(const char *fmt, ...) {
  static int verbose = -1;
  if (verbose < 0) {
    const char *v = getenv("MOVCONF_FUZZ_VERBOSE");
    verbose = v && *v && strcmp(v, "0") != 0;
  }
  if (!verbose)
    return;
  va_list ap;
  va_start(ap, fmt);
  fputs("movconf-fuzz: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

const char *mc_fuzz_compare(const mc_tensor *want, const mc_tensor *got) {
  mc_comparison c = mc_compare_tensors(want, got);
  if (!c.same_type) {
    mc_fuzz_detail("type %s, expected %s", mc_type_name(got->type), mc_type_name(want->type));
    return "type";
  }
  if (!c.same_shape || want->nbytes != got->nbytes) {
    mc_fuzz_detail("rank %d (first dimension %lld), expected rank %d (first dimension %lld)",
                   got->rank, got->rank > 0 ? (long long)got->shape[0] : 0LL, want->rank,
                   want->rank > 0 ? (long long)want->shape[0] : 0LL);
    return "shape";
  }
  if (!c.same_bytes) {
    size_t i = 0; /* the replay log names the first differing byte (README "Findings") */
    while (want->data[i] == got->data[i])
      i++;
    mc_fuzz_detail("byte %zu of %zu is 0x%02x, expected 0x%02x", i, want->nbytes, got->data[i],
                   want->data[i]);
    return "bytes";
  }
  return NULL;
}

bool mc_fuzz_read_file(const char *path, uint8_t **data, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  size_t cap = 4096, len = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (len < cap)
      break;
    uint8_t *bigger = realloc(buf, cap * 2);
    if (!bigger) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = bigger;
    cap *= 2;
  }
  bool ok = buf && !ferror(f);
  fclose(f);
  if (!ok) {
    free(buf);
    return false;
  }
  *data = buf;
  *size = len;
  return true;
}
