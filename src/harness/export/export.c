/* movconf export: the selected cases, one folder each, as ONNX node tests
   or NumPy files (export.h, docs/export.md). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/export/export_internal.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

#define MC_EXPORT_SKIP_KEY(NAME, key, why) key,
#define MC_EXPORT_SKIP_WHY(NAME, key, why) why,
static const char *const skip_keys[] = {MC_EXPORT_SKIP_LIST(MC_EXPORT_SKIP_KEY)};
static const char *const skip_whys[] = {MC_EXPORT_SKIP_LIST(MC_EXPORT_SKIP_WHY)};

const char *mc_export_skip_key(mc_export_skip s) {
  return skip_keys[s];
}

const char *mc_export_skip_why(mc_export_skip s) {
  return skip_whys[s];
}

bool mc_export_format_from_name(const char *name, mc_export_format *out) {
  if (strcmp(name, "onnx") == 0)
    *out = MC_EXPORT_ONNX;
  else if (strcmp(name, "npy") == 0)
    *out = MC_EXPORT_NPY;
  else
    return false;
  return true;
}

/* The case's folder: OUT/[test_]ID with every byte but a-z, A-Z, 0-9 as
   '_' (the ONNX node-test runners look for folders named test_*). */
static void case_folder(const char *out_dir, mc_export_format f, const char *id, char *buf,
                        size_t n) {
  int len = snprintf(buf, n, "%.*s/%s", (int)mc_path_trimmed_len(out_dir), out_dir,
                     f == MC_EXPORT_ONNX ? "test_" : "");
  for (const char *p = id; *p && (size_t)len + 1 < n; p++) {
    char ch = *p;
    bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    buf[len++] = keep ? ch : '_';
  }
  buf[len] = '\0';
}

/* The expected output's bytes: the case's own, or for a digest the
   oracle's output when its SHA-256 is the case's (out owns them then). */
static bool expected_bytes(const mc_case *c, mc_tensor *out, bool *owned) {
  *owned = false;
  if (c->expected.kind != MC_PAYLOAD_SHA256) {
    *out = c->expected.tensor;
    return true;
  }
  mc_request req = mc_request_of_case(c);
  if (mc_oracle_run(&req, MC_CASE_MAX_TENSOR_BYTES, out, NULL) != MC_OK)
    return false;
  uint8_t digest[32];
  mc_sha256(out->data, out->nbytes, digest);
  *owned = true;
  return memcmp(digest, c->expected.sha256, sizeof digest) == 0;
}

/* Exports one case; the skip reason, -1 when exported, -2 on a write error. */
static int export_case(mc_export_format f, const mc_case *c, const char *out_dir) {
  int skip = f == MC_EXPORT_ONNX ? mc_export_onnx_skip(c) : mc_export_npy_skip(c);
  if (skip >= 0)
    return skip;
  mc_tensor expected = {0};
  bool owned = false;
  if (!c->expect_error && !expected_bytes(c, &expected, &owned)) {
    if (owned)
      mc_tensor_free(&expected);
    return MC_EXPORT_SKIP_NO_EXPECTED_BYTES;
  }
  char dir[4096];
  case_folder(out_dir, f, c->id, dir, sizeof dir);
  int status = -1;
  if (mkdir(dir, 0777) != 0) {
    status = errno == EEXIST ? MC_EXPORT_SKIP_FOLDER_TAKEN : -2;
    if (status == -2)
      fprintf(stderr, "movconf export: cannot make %s: %s\n", dir, strerror(errno));
  } else if (f == MC_EXPORT_ONNX) {
    status = mc_export_onnx_write(c, &expected, dir) ? -1 : -2;
  } else {
    status = mc_export_npy_write(c, c->expect_error ? NULL : &expected, dir) ? -1 : -2;
  }
  if (owned)
    mc_tensor_free(&expected);
  return status;
}

/* out_dir made, or found empty: an export never mixes with older files. */
static bool prepare_out_dir(const char *out_dir) {
  if (!mc_make_dirs(out_dir)) {
    fprintf(stderr, "movconf export: cannot make %s: %s\n", out_dir, strerror(errno));
    return false;
  }
  DIR *d = opendir(out_dir);
  if (!d) {
    fprintf(stderr, "movconf export: cannot read %s: %s\n", out_dir, strerror(errno));
    return false;
  }
  bool empty = true;
  for (struct dirent *e; empty && (e = readdir(d));)
    empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
  closedir(d);
  if (!empty)
    fprintf(stderr,
            "movconf export: --out %s is not empty (an export goes to a new or empty "
            "folder)\n",
            out_dir);
  return empty;
}

static bool export_file(mc_export_format f, mc_selection_file *sf, const mc_case_filter *filter,
                        const char *out_dir, mc_export_counts *counts) {
  bool ok = true;
  for (int i = 0; ok && i < sf->file.n_cases; i++) {
    mc_case *c = &sf->file.cases[i];
    if (!mc_case_selected(c, filter))
      continue;
    if (!mc_case_materialize(c)) {
      fprintf(stderr, "movconf export: %s: out of memory\n", c->id);
      return false;
    }
    int status = export_case(f, c, out_dir);
    ok = status != -2;
    if (status == -1)
      counts->exported[c->op]++;
    else if (status >= 0)
      counts->skipped[c->op][status]++;
  }
  mc_case_file_release_fills(&sf->file);
  return ok;
}

bool mc_export_selection(mc_export_format format, mc_selection *sel, const mc_case_filter *filter,
                         const char *out_dir, mc_export_counts *counts) {
  *counts = (mc_export_counts){0};
  if (!prepare_out_dir(out_dir))
    return false;
  for (int i = 0; i < sel->count; i++) {
    if (sel->files[i].error) {
      fprintf(stderr, "movconf export: %s\n", sel->files[i].error);
      counts->unloaded_files++;
      continue;
    }
    if (!export_file(format, &sel->files[i], filter, out_dir, counts))
      return false;
  }
  return true;
}

void mc_export_counts_print(FILE *out, const mc_export_counts *counts) {
  long total_exported = 0, total_skipped = 0;
  fprintf(out, "%-24s %9s %9s\n", "operation", "exported", "skipped");
  for (int op = 0; op < MC_OP_COUNT; op++) {
    long skipped = 0;
    for (int s = 0; s < MC_EXPORT_SKIP_COUNT; s++)
      skipped += counts->skipped[op][s];
    if (counts->exported[op] + skipped == 0)
      continue;
    fprintf(out, "%-24s %9ld %9ld\n", mc_op_name(op), counts->exported[op], skipped);
    total_exported += counts->exported[op];
    total_skipped += skipped;
  }
  fprintf(out, "%-24s %9ld %9ld\n", "total", total_exported, total_skipped);
  if (total_skipped)
    fprintf(out, "\nskipped, by operation and reason:\n");
  for (int op = 0; op < MC_OP_COUNT; op++)
    for (int s = 0; s < MC_EXPORT_SKIP_COUNT; s++)
      if (counts->skipped[op][s])
        fprintf(out, "  %-22s %-32s %6ld  %s\n", mc_op_name(op), skip_keys[s],
                counts->skipped[op][s], skip_whys[s]);
}
