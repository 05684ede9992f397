/* One exported file written whole: what both formats' writers call, kept
   apart from the loop over the cases (export.c) that calls the writers. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/export/export_internal.h"

bool mc_export_file(const char *dir, const char *name, const void *data, size_t n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (mc_make_dirs(dir) && mc_write_file_atomic(path, data, n))
    return true;
  fprintf(stderr, "movconf export: cannot write %s: %s\n", path, strerror(errno));
  return false;
}
