/* fuzz_to_case: turns a fuzz finding's input into a readable regression
   case (fuzz/README.md, "Findings").

     fuzz_to_case --target T --engine E --input FILE --out DIR [--date YYYY-MM-DD]

   The input is decoded with the targets' producer; the case holds its
   request (shapes, attributes, values or fills) and the movconf oracle's
   result, and is appended to DIR/<op slug>.json (created when missing) with
   the id <prefix>/regression/<T>-<12 hex digits of the input's sha256>.
   A round-trip finding becomes the inverse operation applied to the
   oracle's forward output, expecting the original data (or, for a block
   size of 1, the operation itself expecting its data). The raw input is
   kept as DIR/inputs/<T>/<12 hex digits>, which CTest replays through the
   target (fuzz/replay-<T>); a parser finding is only kept that way, since
   it is a file and not a request.

   Exit status: 0 written (or already there), 1 the input cannot become a
   case, 2 usage or I/O errors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cases/bytes/fuzz_bytes.h"
#include "cases/case_writer.h"
#include "cases/cases.h"
#include "fuzz_common.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"
#include "roundtrip.h"

static const char usage[] =
    "usage: fuzz_to_case --target diff|roundtrip|plugin_diff|parser --engine NAME --input FILE\n"
    "                    --out DIR [--date YYYY-MM-DD]\n"
    "Turns a fuzz finding's input into a regression case appended to DIR/<op>.json, and keeps\n"
    "the input as DIR/inputs/<target>/<sha256 prefix> for the CTest replay.\n";

typedef struct options {
  const char *target, *engine, *input, *out, *date;
} options;

static bool parse_options(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  for (int i = 1; i < argc; i++) {
    const char **slot = !strcmp(argv[i], "--target")   ? &o->target
                        : !strcmp(argv[i], "--engine") ? &o->engine
                        : !strcmp(argv[i], "--input")  ? &o->input
                        : !strcmp(argv[i], "--out")    ? &o->out
                        : !strcmp(argv[i], "--date")   ? &o->date
                                                       : NULL;
    if (!slot || i + 1 >= argc)
      return false;
    *slot = argv[++i];
  }
  if (!o->target || !o->engine || !o->input || !o->out)
    return false;
  static const char *const targets[] = {"diff", "roundtrip", "plugin_diff", "parser"};
  bool known = false;
  for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
    known = known || !strcmp(o->target, targets[i]);
  /* The engine goes into ids' neighbourhood and file text: keep it plain. */
  bool plain = o->engine[0] != '\0';
  for (const char *p = o->engine; *p; p++)
    plain = plain && ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' ||
                      *p == '_' || *p == '+' || *p == '.');
  return known && plain;
}

/* ---- the case ---- */

static void today(const options *o, char out[16]) {
  if (o->date) {
    snprintf(out, 16, "%.10s", o->date);
    return;
  }
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(out, 16, "%Y-%m-%d", &tm);
}

static void lower(const char *s, char *out, size_t n) {
  size_t i = 0;
  for (; s[i] && i + 1 < n; i++)
    out[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
  out[i] = '\0';
}

/* Clause ids the case cites: the oracle's for an error, else the output
   clause and bit-exact copying (and packing for the packed types). */
static int pick_clauses(const mc_case_out *c, const mc_error *err, const char **out, char *own,
                        size_t ownlen) {
  const char *prefix = mc_op_clause_prefix(c->req->op);
  int n = 0;
  if (c->expect_error && err->clause &&
      (!strncmp(err->clause, "MC-", 3) ||
       (!strncmp(err->clause, prefix, strlen(prefix)) && err->clause[strlen(prefix)] == '-'))) {
    out[n++] = err->clause;
    return n;
  }
  snprintf(own, ownlen, "%s-O1", prefix);
  out[n++] = own;
  if (!c->expect_error) {
    out[n++] = "MC-S1";
    mc_type t = c->req->inputs[0]->type;
    if (t == MC_U1 || t == MC_U4 || t == MC_I4)
      out[n++] = "MC-S3";
  }
  return n;
}

typedef struct finding {
  const options *opt;
  char sha[65], short_sha[13], date[16];
  mc_fuzz_input in;
} finding;

/* The fuzzed request had its own output cap; the case runs with the
   runner's default. Says so when that changes the oracle's answer. */
static void cap_note(const finding *f, char *out, size_t n) {
  out[0] = '\0';
  mc_tensor small, full;
  mc_error err;
  mc_status s = mc_oracle_run(&f->in.req, f->in.max_output_bytes, &small, &err);
  mc_tensor_free(&small);
  if (s == MC_OK)
    return;
  mc_status t = mc_oracle_run(&f->in.req, MC_DEFAULT_MAX_OUTPUT_BYTES, &full, &err);
  mc_tensor_free(&full);
  if (s != t)
    snprintf(out, n,
             "; under the fuzzed output cap of %zu bytes the oracle reports %s, under the "
             "runner's default cap (the case's) %s",
             f->in.max_output_bytes, mc_status_name(s), mc_status_name(t));
}

static void make_origin(const finding *f, const char *what, char *out, size_t n) {
  char note[256];
  cap_note(f, note, sizeof note);
  snprintf(out, n,
           "fuzz finding: engine %s, target %s, %s; input sha256 %s (kept as inputs/%s/%s), "
           "%d thread%s%s; %s",
           f->opt->engine, f->opt->target, f->date, f->sha, f->opt->target, f->short_sha,
           f->in.threads, f->in.threads == 1 ? "" : "s", note, what);
}

static void print_problem(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "fuzz_to_case: %s\n", msg);
}

static const char regressions_description[] =
    "Regressions found by fuzzing (fuzz/README.md): each case is a fuzz finding's input turned "
    "into a case by fuzz_to_case; its origin names the engine, the target and the date. "
    "Expected results come from the movconf oracle, or for a round-trip finding are the "
    "original data.";

/* The case writer's name for how the producer made the data. */
static mc_payload_kind payload_of(mc_fuzz_fill fill) {
  return fill == MC_FUZZ_FILL_COUNTER ? MC_PAYLOAD_FILL_COUNTER
         : fill == MC_FUZZ_FILL_PRNG  ? MC_PAYLOAD_FILL_PRNG
                                      : MC_PAYLOAD_HEX;
}

/* Appends the case to dir/<slug>.json, checking that the result loads and
   passes check-cases. Returns 0 written or already there, else 2. */
static int append_case(const char *dir, const mc_case_out *c) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.json", dir, mc_op_slug(c->req->op));
  mc_text body = {0};
  mc_write_case(&body, c);
  if (body.oom) {
    fprintf(stderr, "fuzz_to_case: out of memory\n");
    mc_text_free(&body);
    return 2;
  }
  mc_text text = {0};
  uint8_t *old = NULL;
  size_t old_len = 0;
  char err[1024];
  if (mc_fuzz_read_file(path, &old, &old_len)) {
    mc_case_file file;
    if (!mc_case_file_parse((const char *)old, old_len, path, &file, err, sizeof err)) {
      fprintf(stderr, "fuzz_to_case: %s does not load, not touching it: %s\n", path, err);
      free(old);
      mc_text_free(&body);
      return 2;
    }
    bool there = false;
    for (int i = 0; i < file.n_cases; i++)
      there = there || !strcmp(file.cases[i].id, c->id);
    mc_case_file_free(&file);
    if (there) {
      printf("case %s is already in %s\n", c->id, path);
      free(old);
      mc_text_free(&body);
      return 0;
    }
    /* Insert before the ']' that closes "cases", the file's last member. */
    size_t end = old_len;
    while (end > 0 && old[end - 1] != ']')
      end--;
    if (end == 0) { /* cannot be: it loaded, so it has a cases array */
      free(old);
      mc_text_free(&body);
      return 2;
    }
    size_t keep = end - 1;
    while (keep > 0 && (old[keep - 1] == ' ' || old[keep - 1] == '\n' || old[keep - 1] == '\r' ||
                        old[keep - 1] == '\t'))
      keep--;
    mc_text_printf(&text, "%.*s,\n%s\n  %.*s", (int)keep, (const char *)old, body.p,
                   (int)(old_len - (end - 1)), (const char *)old + end - 1);
  } else {
    mc_write_file_head(&text, c->req->op, regressions_description);
    mc_text_printf(&text, "%s\n  ]\n}\n", body.p);
  }
  free(old);
  mc_text_free(&body);
  if (text.oom) {
    fprintf(stderr, "fuzz_to_case: out of memory\n");
    mc_text_free(&text);
    return 2;
  }
  /* The result must load, hold the new case and pass check-cases. */
  mc_case_file file;
  if (!mc_case_file_parse(text.p, text.len, path, &file, err, sizeof err)) {
    fprintf(stderr, "fuzz_to_case: the case written would not load: %s\n", err);
    mc_text_free(&text);
    return 2;
  }
  bool found = false;
  for (int i = 0; i < file.n_cases; i++)
    found = found || !strcmp(file.cases[i].id, c->id);
  int problems = mc_case_file_check(&file, print_problem, NULL);
  mc_case_file_free(&file);
  if (!found || problems) {
    fprintf(stderr, "fuzz_to_case: %s would %s; not written\n", path,
            found ? "fail check-cases" : "not hold the new case (is \"cases\" its last member?)");
    mc_text_free(&text);
    return 2;
  }
  bool ok = mc_write_file_atomic(path, text.p, text.len);
  mc_text_free(&text);
  if (!ok) {
    fprintf(stderr, "fuzz_to_case: cannot write %s: %s\n", path, strerror(errno));
    return 2;
  }
  printf("wrote case %s to %s\n", c->id, path);
  return 0;
}

/* Names the case after the finding, gives it its origin and clauses, and
   appends it to the operation's regression file. */
static int write_case(const finding *f, mc_case_out *c, const char *what, const mc_error *err) {
  char id[128], prefix[8], origin[1024], own[16];
  lower(mc_op_clause_prefix(c->req->op), prefix, sizeof prefix);
  snprintf(id, sizeof id, "%s/regression/%s-%s", prefix, f->opt->target, f->short_sha);
  make_origin(f, what, origin, sizeof origin);
  c->id = id;
  c->origin = origin;
  c->n_clauses = pick_clauses(c, err, c->clauses, own, sizeof own);
  return append_case(f->opt->out, c);
}

/* The case of a differential finding: the request and the oracle's answer. */
static int oracle_case(finding *f, const mc_request *req, mc_fuzz_fill fill, uint64_t param,
                       const char *what) {
  mc_tensor out;
  mc_error err;
  mc_status s = mc_oracle_run(req, MC_DEFAULT_MAX_OUTPUT_BYTES, &out, &err);
  mc_case_out c = {.req = req,
                   .data_fill = payload_of(fill),
                   .data_fill_param = param,
                   .expect_error = s != MC_OK,
                   .error = s,
                   .output = &out};
  int rc = write_case(f, &c, what, &err);
  mc_tensor_free(&out);
  return rc;
}

/* The case of a round-trip finding: expected is the original data. */
static int roundtrip_case(finding *f) {
  const mc_request *req = &f->in.req;
  mc_tensor forward;
  mc_error err;
  if (mc_oracle_run(req, MC_DEFAULT_MAX_OUTPUT_BYTES, &forward, &err) != MC_OK)
    return oracle_case(f, req, f->in.data_fill, f->in.data_fill_param,
                       "expected result from the movconf oracle (it rejects the input)");
  char what[256];
  mc_request inv;
  const mc_request *shown = req;
  mc_fuzz_fill fill = f->in.data_fill;
  if (mc_roundtrip_is_identity(req)) {
    snprintf(what, sizeof what,
             "expected result: the data itself (block size 1 is the identity; the movconf "
             "oracle agrees)");
  } else if (mc_roundtrip_inverse(req, &forward, &inv)) {
    snprintf(what, sizeof what,
             "round trip: the input is the movconf oracle's %s output for the fuzzed data, the "
             "expected result is that original data",
             mc_op_name(req->op));
    shown = &inv;
    fill = MC_FUZZ_FILL_BYTES;
  } else {
    mc_tensor_free(&forward);
    return oracle_case(f, req, f->in.data_fill, f->in.data_fill_param,
                       "expected result from the movconf oracle (no round trip applies)");
  }
  mc_case_out c = {.req = shown,
                   .data_fill = payload_of(fill),
                   .data_fill_param = f->in.data_fill_param,
                   .output = &f->in.tensors[0]};
  int rc = write_case(f, &c, what, &err);
  mc_tensor_free(&forward);
  return rc;
}

/* Keeps the raw input as dir/inputs/<target>/<short sha>. */
static bool keep_input(const finding *f, const uint8_t *data, size_t size, char *path,
                       size_t pathlen) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/inputs/%s", f->opt->out, f->opt->target);
  snprintf(path, pathlen, "%s/%s", dir, f->short_sha);
  if (!mc_make_dirs(dir) || !mc_write_file_atomic(path, data, size)) {
    fprintf(stderr, "fuzz_to_case: cannot write %s: %s\n", path, strerror(errno));
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  options opt;
  if (!parse_options(argc, argv, &opt)) {
    fputs(usage, stderr);
    return 2;
  }
  finding f;
  memset(&f, 0, sizeof f);
  f.opt = &opt;
  today(&opt, f.date);
  uint8_t *data;
  size_t size;
  if (!mc_fuzz_read_file(opt.input, &data, &size)) {
    fprintf(stderr, "fuzz_to_case: cannot read %s: %s\n", opt.input, strerror(errno));
    return 2;
  }
  uint8_t digest[32];
  mc_sha256(data, size, digest);
  for (int i = 0; i < 32; i++)
    snprintf(f.sha + 2 * i, 3, "%02x", digest[i]);
  memcpy(f.short_sha, f.sha, 12);
  char kept[4200];
  if (!mc_make_dirs(opt.out) || !keep_input(&f, data, size, kept, sizeof kept)) {
    free(data);
    return 2;
  }
  if (!strcmp(opt.target, "parser")) {
    printf("kept the input as %s: a parser finding is a file, not a case; "
           "fuzz/replay-parser replays it\n",
           kept);
    free(data);
    return 0;
  }
  bool decoded = mc_fuzz_decode(data, size, &f.in);
  free(data);
  if (!decoded) {
    fprintf(stderr, "fuzz_to_case: %s decodes to no request the targets run\n", opt.input);
    return 1;
  }
  int rc;
  if (!mc_type_get(f.in.tensors[0].type)) {
    fprintf(stderr,
            "fuzz_to_case: the data type code %d has no name in the case format; the input is "
            "kept as %s for fuzz/replay-%s\n",
            (int)f.in.tensors[0].type, kept, opt.target);
    rc = 1;
  } else if (!strcmp(opt.target, "roundtrip")) {
    rc = roundtrip_case(&f);
  } else {
    rc = oracle_case(&f, &f.in.req, f.in.data_fill, f.in.data_fill_param,
                     "expected result from the movconf oracle");
  }
  mc_fuzz_input_free(&f.in);
  return rc;
}
