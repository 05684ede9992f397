/* The case files of a run, loaded once (harness.h, mc_selection). */
#include <stdlib.h>

#include "common/text.h"
#include "harness/harness.h"

void mc_selection_load(char *const *paths, int n, mc_selection *s) {
  s->files = mc_realloc_or_abort(NULL, (size_t)(n > 0 ? n : 1) * sizeof *s->files);
  s->count = n;
  for (int i = 0; i < n; i++) {
    mc_selection_file *f = &s->files[i];
    char err[1024];
    *f = (mc_selection_file){.path = paths[i]};
    /* Large fills are made by whoever runs the case, when it runs. */
    if (!mc_case_file_load_deferred(paths[i], &f->file, err, sizeof err))
      f->error = mc_strdupf("%s", err);
  }
}

void mc_selection_free(mc_selection *s) {
  for (int i = 0; i < s->count; i++) {
    mc_case_file_free(&s->files[i].file);
    free(s->files[i].error);
  }
  free(s->files);
  *s = (mc_selection){0};
}
