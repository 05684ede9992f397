/* The generator: expands the descriptions of generators/ into case files
   conformance/<op slug>/generated/<group>.json, with expected outputs from
   the literal oracle and expected errors from the description (which the
   oracle must confirm). The same descriptions give the same bytes on any
   machine: integers only, members in file order, one thread. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cases/case_writer.h"
#include "cases/json.h"
#include "cases/payload.h"
#include "common/clauses.h"
#include "common/clock.h"
#include "common/text.h"
#include "gen/gen.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

/* Description files are small; cases per group and outputs are bounded. */
#define MAX_DESCRIPTION_BYTES ((size_t)4 << 20)
#define MAX_GROUP_CASES 20000
#define MAX_GROUPS 256
/* Outputs of generated valid cases stay below this (they are kept small),
   unless a group raises it: a tier group up to MC_GEN_TIER_MAX_OUTPUT_BYTES. */
#define GEN_MAX_OUTPUT_BYTES ((size_t)1 << 20)
/* What a default group (no tier) may raise both bounds to: enough for a
   margin above 2^20 output elements in 1-, 2- and 4-byte types (the
   thresholds-2e20 groups), which the default run can afford in CPU. */
#define GEN_DEFAULT_MAX_BYTES ((size_t)8 << 20)
#define ORIGIN_NOTE                                                                                \
  "expected output computed by the movconf oracle (src/oracle), cross-checked by "                 \
  "reference/reference_model.py"

/* What one description file says, besides its groups. */
typedef struct gen_file {
  mc_op op;
  const char *path;
  int64_t max_values, max_inline_bytes;
} gen_file;

/* A progress line of this many characters is on the terminal
   (show_progress): what comes next on stderr erases it first (with spaces:
   stderr lets no escape sequence through, mc_safe_standard_streams). */
static int progress_shown;

static void erase_progress(void) {
  if (progress_shown > 0)
    fprintf(stderr, "\r%*s\r", progress_shown, "");
  progress_shown = 0;
}

static int problem(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static int problem(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  erase_progress();
  fputs("movconf gen: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 1;
}

/* ---- reading descriptions ---- */

static bool keys_allowed(const cJSON *obj, const char *const *allowed, const char *where) {
  for (const cJSON *m = obj->child; m; m = m->next) {
    bool known = false;
    for (int i = 0; allowed[i]; i++)
      known = known || !strcmp(m->string, allowed[i]);
    if (!known) {
      problem("%s: unknown key '%s'", where, m->string);
      return false;
    }
    for (const cJSON *e = obj->child; e != m; e = e->next)
      if (!strcmp(e->string, m->string)) {
        problem("%s: key '%s' appears twice", where, m->string);
        return false;
      }
  }
  return true;
}

static bool integer_member(const cJSON *obj, const char *key, int64_t lo, int64_t hi, int64_t *out,
                           const char *where) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsNumber(v) || v->valuedouble < (double)lo || v->valuedouble > (double)hi ||
      v->valuedouble != (double)(int64_t)v->valuedouble) {
    problem("%s: '%s' must be an integer in %lld..%lld", where, key, (long long)lo, (long long)hi);
    return false;
  }
  *out = (int64_t)v->valuedouble;
  return true;
}

static const char *string_member(const cJSON *obj, const char *key, const char *where) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsString(v) || !v->valuestring[0]) {
    problem("%s: '%s' must be a non-empty string", where, key);
    return NULL;
  }
  return v->valuestring;
}

/* The description at path, or NULL with *failure 2 when it cannot be read
   (I/O), 1 when it is wrong. */
static cJSON *load_description(const char *path, mc_op op, gen_file *gf, int *failure) {
  size_t len = 0;
  int error = 0;
  char *text = mc_read_file_bounded(path, MAX_DESCRIPTION_BYTES, &len, &error);
  *failure = text ? 1 : 2;
  if (!text) {
    problem("%s: %s", path, strerror(error));
    return NULL;
  }
  if (len > MAX_DESCRIPTION_BYTES) {
    free(text);
    problem("%s: larger than %zu bytes", path, MAX_DESCRIPTION_BYTES);
    return NULL;
  }
  cJSON *root = cJSON_ParseWithLength(text, len);
  free(text);
  if (!cJSON_IsObject(root)) {
    problem("%s: not a JSON object (invalid JSON?)", path);
    cJSON_Delete(root);
    return NULL;
  }
  static const char *const top_keys[] = {
      "format", "op", "description", "expected_inline_bytes", "expected_max_values",
      "groups", NULL};
  const char *format = string_member(root, "format", path);
  const char *name = string_member(root, "op", path);
  bool ok =
      keys_allowed(root, top_keys, path) && format && name &&
      string_member(root, "description", path) &&
      integer_member(root, "expected_inline_bytes", 1, 1 << 20, &gf->max_inline_bytes, path) &&
      integer_member(root, "expected_max_values", 1, 4096, &gf->max_values, path);
  if (ok && strcmp(format, "movconf-gen/1") != 0)
    ok = !problem("%s: format must be \"movconf-gen/1\"", path);
  if (ok && strcmp(name, mc_op_name(op)) != 0)
    ok = !problem("%s: op must be \"%s\"", path, mc_op_name(op));
  const cJSON *groups = cJSON_GetObjectItemCaseSensitive(root, "groups");
  if (ok && (!cJSON_IsArray(groups) || cJSON_GetArraySize(groups) < 1 ||
             cJSON_GetArraySize(groups) > MAX_GROUPS))
    ok = !problem("%s: 'groups' must be an array of 1 to %d groups", path, MAX_GROUPS);
  if (!ok) {
    cJSON_Delete(root);
    return NULL;
  }
  gf->op = op;
  gf->path = path;
  return root;
}

/* ---- one group ---- */

/* A tier group's file goes to OUT-<tier>/<op slug>/ rather than
   OUT/<op slug>/generated/, outside the default run. */
const char *const mc_gen_tiers[] = {"large", NULL};
_Static_assert(sizeof mc_gen_tiers / sizeof *mc_gen_tiers <= MC_GEN_MAX_TIERS + 1,
               "mc_gen_counts.in_tier has a count for every tier");

/* A group as read: its axes of parameters. */
typedef struct gen_group {
  const char *name, *about, *clause, *error_name;
  const char *tier;                         /* NULL: the default conformance folder */
  size_t max_input_bytes, max_output_bytes; /* bounds of its data inputs and outputs */
  bool valid;
  uint64_t seed;
  mc_status error;
  const cJSON *clauses, *set, *each, *vary, *cycle;
  int n_cases, n_vary; /* n_vary: combinations of vary */
} gen_group;

static bool group_name_ok(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')) || strlen(s) > 48)
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' ||
          *s == '.'))
      return false;
  return true;
}

/* A clause the case may cite: it exists and is the op's or common. */
static bool clause_ok(mc_op op, const char *id) {
  const char *prefix = mc_op_clause_prefix(op);
  size_t n = strlen(prefix);
  return mc_clause_find(id) &&
         (!strncmp(id, "MC-", 3) || (!strncmp(id, prefix, n) && id[n] == '-'));
}

static bool read_axes(const cJSON *obj, const char *key, const char *where, int64_t *cases) {
  const cJSON *axes = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!axes)
    return true;
  if (!cJSON_IsObject(axes))
    return !problem("%s: '%s' must be an object of parameter: [values]", where, key);
  for (const cJSON *a = axes->child; a; a = a->next) {
    int n = cJSON_GetArraySize(a);
    if (!cJSON_IsArray(a) || n < 1)
      return !problem("%s: %s.%s must be a non-empty array of values", where, key, a->string);
    if (cases && (*cases *= n) > MAX_GROUP_CASES)
      return !problem("%s: more than %d cases", where, MAX_GROUP_CASES);
  }
  return true;
}

/* tier, max_input_bytes and max_output_bytes. A group may raise the
   bounds only up to what its tier allows: a default group (no tier) up to
   GEN_DEFAULT_MAX_BYTES, so the default conformance folder stays small; a
   tier group up to what the loader and the runner accept by default. */
static bool read_bounds(const cJSON *g, gen_group *out, const char *where) {
  out->max_input_bytes = MC_GEN_MAX_INPUT_BYTES;
  out->max_output_bytes = GEN_MAX_OUTPUT_BYTES;
  size_t in_limit = GEN_DEFAULT_MAX_BYTES, out_limit = GEN_DEFAULT_MAX_BYTES;
  if (cJSON_GetObjectItemCaseSensitive(g, "tier")) {
    out->tier = string_member(g, "tier", where);
    if (!out->tier)
      return false;
    bool known = false;
    for (int i = 0; mc_gen_tiers[i]; i++)
      known = known || !strcmp(out->tier, mc_gen_tiers[i]);
    if (!known)
      return !problem("%s: tier '%s' is not one of: large", where, out->tier);
    in_limit = MC_GEN_TIER_MAX_INPUT_BYTES;
    out_limit = MC_GEN_TIER_MAX_OUTPUT_BYTES;
  }
  int64_t in = (int64_t)out->max_input_bytes, outb = (int64_t)out->max_output_bytes;
  if ((cJSON_GetObjectItemCaseSensitive(g, "max_input_bytes") &&
       !integer_member(g, "max_input_bytes", 1, (int64_t)in_limit, &in, where)) ||
      (cJSON_GetObjectItemCaseSensitive(g, "max_output_bytes") &&
       !integer_member(g, "max_output_bytes", 1, (int64_t)out_limit, &outb, where)))
    return false;
  out->max_input_bytes = (size_t)in;
  out->max_output_bytes = (size_t)outb;
  return true;
}

static bool read_group(const gen_file *gf, const cJSON *g, int index, gen_group *out) {
  char where[4700];
  snprintf(where, sizeof where, "%s: groups[%d]", gf->path, index);
  static const char *const keys[] = {
      "group", "kind", "about", "seed", "clauses",         "clause",           "error", "set",
      "each",  "vary", "cycle", "tier", "max_input_bytes", "max_output_bytes", NULL};
  memset(out, 0, sizeof *out);
  if (!cJSON_IsObject(g) || !keys_allowed(g, keys, where))
    return cJSON_IsObject(g) ? false : !problem("%s: a group must be an object", where);
  const char *kind = string_member(g, "kind", where);
  out->name = string_member(g, "group", where);
  out->about = string_member(g, "about", where);
  int64_t seed;
  if (!out->name || !kind || !out->about ||
      !integer_member(g, "seed", 0, INT64_C(1) << 53, &seed, where))
    return false;
  out->seed = (uint64_t)seed;
  snprintf(where, sizeof where, "%s: group %s", gf->path, out->name);
  if (!group_name_ok(out->name))
    return !problem("%s: the name must match [a-z0-9][a-z0-9._-]* (at most 48 characters)", where);
  out->valid = !strcmp(kind, "valid");
  if (!out->valid && strcmp(kind, "invalid") != 0)
    return !problem("%s: kind must be valid or invalid", where);
  if (!read_bounds(g, out, where))
    return false;
  out->clauses = cJSON_GetObjectItemCaseSensitive(g, "clauses");
  if (out->clauses && !cJSON_IsArray(out->clauses))
    return !problem("%s: 'clauses' must be an array of clause ids", where);
  for (const cJSON *c = out->clauses ? out->clauses->child : NULL; c; c = c->next)
    if (!cJSON_IsString(c) || !clause_ok(gf->op, c->valuestring))
      return !problem("%s: clauses: not a clause of %s or MC (src/common/clauses.c)", where,
                      mc_op_name(gf->op));
  bool has_clause = cJSON_GetObjectItemCaseSensitive(g, "clause") != NULL;
  bool has_error = cJSON_GetObjectItemCaseSensitive(g, "error") != NULL;
  if (out->valid && (has_clause || has_error))
    return !problem("%s: a valid group names no 'clause' or 'error'", where);
  if (!out->valid) {
    out->clause = string_member(g, "clause", where);
    out->error_name = string_member(g, "error", where);
    if (!out->clause || !out->error_name)
      return false;
    if (!clause_ok(gf->op, out->clause))
      return !problem("%s: clause '%s' is not a clause of %s or MC", where, out->clause,
                      mc_op_name(gf->op));
    int e = mc_status_from_name(out->error_name);
    if (e <= 0)
      return !problem("%s: '%s' is not an error name (spec/common.md)", where, out->error_name);
    out->error = (mc_status)e;
  }
  out->set = cJSON_GetObjectItemCaseSensitive(g, "set");
  out->vary = cJSON_GetObjectItemCaseSensitive(g, "vary");
  out->cycle = cJSON_GetObjectItemCaseSensitive(g, "cycle");
  if (out->set && !cJSON_IsObject(out->set))
    return !problem("%s: 'set' must be an object of parameter: value", where);
  int64_t cases = 1;
  if (!read_axes(g, "vary", where, &cases) || !read_axes(g, "cycle", where, NULL))
    return false;
  out->n_vary = (int)cases;
  out->each = cJSON_GetObjectItemCaseSensitive(g, "each");
  if (out->each) {
    if (!cJSON_IsArray(out->each) || cJSON_GetArraySize(out->each) < 1)
      return !problem("%s: 'each' must be a non-empty array of objects of parameters", where);
    for (const cJSON *e = out->each->child; e; e = e->next)
      if (!cJSON_IsObject(e))
        return !problem("%s: every entry of 'each' must be an object of parameters", where);
    if ((cases *= cJSON_GetArraySize(out->each)) > MAX_GROUP_CASES)
      return !problem("%s: more than %d cases", where, MAX_GROUP_CASES);
  }
  out->n_cases = (int)cases;
  return true;
}

/* The parameters of case index: one entry of each (the slowest axis), the
   combination of vary (the last parameter varying fastest), entry index of
   every cycle, and set. A parameter given in several of these takes the
   first (so an entry of each can override a cycle or set). */
static bool case_params(mc_op op, const gen_group *g, int index, mc_gen_params *p,
                        const char *where) {
  const cJSON *sources[4] = {g->each ? cJSON_GetArrayItem(g->each, index / g->n_vary) : NULL,
                             g->vary, g->cycle, g->set};
  const char *const *names = mc_gen_param_names(op);
  p->n = 0;
  /* vary digits: walk the axes from the last one. */
  int n_vary = g->vary ? cJSON_GetArraySize(g->vary) : 0, rest = index % g->n_vary;
  const cJSON *digit_value[MC_GEN_MAX_PARAMS] = {0};
  for (int a = n_vary - 1; a >= 0 && a < MC_GEN_MAX_PARAMS; a--) {
    const cJSON *axis = cJSON_GetArrayItem(g->vary, a);
    int n = cJSON_GetArraySize(axis);
    digit_value[a] = cJSON_GetArrayItem(axis, rest % n);
    rest /= n;
  }
  for (int s = 0; s < 4; s++) {
    int a = 0, first_of_source = p->n;
    for (const cJSON *m = sources[s] ? sources[s]->child : NULL; m; m = m->next, a++) {
      bool known = false, given = false;
      for (int i = 0; names[i]; i++)
        known = known || !strcmp(names[i], m->string);
      if (!known)
        return !problem("%s: '%s' is not a parameter of %s (generators/README.md)", where,
                        m->string, mc_op_name(op));
      for (int i = 0; i < p->n; i++) {
        given = given || !strcmp(p->name[i], m->string);
        if (i >= first_of_source && !strcmp(p->name[i], m->string))
          return !problem("%s: parameter '%s' is given twice", where, m->string);
      }
      if (given)
        continue;
      if (p->n == MC_GEN_MAX_PARAMS)
        return !problem("%s: more than %d parameters", where, MC_GEN_MAX_PARAMS);
      p->name[p->n] = m->string;
      p->value[p->n++] = s == 0 || s == 3 ? m
                         : s == 1         ? digit_value[a]
                                          : cJSON_GetArrayItem(m, index % cJSON_GetArraySize(m));
    }
  }
  return true;
}

/* "name=value, ..." of the parameters that vary between the group's cases
   (all but those of set). */
static void describe_params(const gen_group *g, const mc_gen_params *p, char *buf, size_t n) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < p->n && used < n; i++) {
    if (g->set && cJSON_GetObjectItemCaseSensitive(g->set, p->name[i]) == p->value[i])
      continue;
    char value[256];
    mc_gen_format_value(p->value[i], value, sizeof value);
    used += (size_t)snprintf(buf + used, n - used, "%s%s=%s", used ? ", " : "", p->name[i], value);
  }
}

static void add_clause(mc_case_out *c, const char *id) {
  for (int i = 0; i < c->n_clauses; i++)
    if (!strcmp(c->clauses[i], id))
      return;
  if (c->n_clauses < MC_CASE_OUT_MAX_CLAUSES)
    c->clauses[c->n_clauses++] = id;
}

/* Clauses a case cites: an invalid group's clause first; a valid case its
   output clause, bit-exact copying and (packed data) packing; then the
   group's own list. */
static void cite_clauses(const gen_group *g, const mc_request *req, char *own, size_t n,
                         mc_case_out *c) {
  c->n_clauses = 0;
  if (!g->valid) {
    add_clause(c, g->clause);
  } else {
    snprintf(own, n, "%s-O1", mc_op_clause_prefix(req->op));
    add_clause(c, own);
    add_clause(c, "MC-S1");
    mc_type t = req->inputs[0]->type;
    if (t == MC_U1 || t == MC_U4 || t == MC_I4)
      add_clause(c, "MC-S3");
  }
  for (const cJSON *e = g->clauses ? g->clauses->child : NULL; e; e = e->next)
    add_clause(c, e->valuestring);
}

/* The oracle's answer under gen's own output bound; an expected
   output_too_large is confirmed under the runner's default cap. */
static mc_status oracle(const gen_group *g, const mc_request *req, mc_tensor *out, mc_error *err) {
  mc_status s = mc_oracle_run(req, g->max_output_bytes, out, err);
  if (s == MC_E_OUTPUT_TOO_LARGE && !g->valid && g->error == MC_E_OUTPUT_TOO_LARGE)
    s = mc_oracle_run(req, MC_DEFAULT_MAX_OUTPUT_BYTES, out, err);
  return s;
}

/* The oracle must agree with the description. */
static bool confirm(const gen_group *g, mc_status s, const mc_error *err, const char *where) {
  if (g->valid && s != MC_OK)
    return !problem("%s: a valid group's case is rejected by the oracle: %s (%s): %s%s", where,
                    mc_status_name(s), err->clause ? err->clause : "no clause", err->message,
                    s == MC_E_OUTPUT_TOO_LARGE ? " (above the group's max_output_bytes)" : "");
  if (g->valid)
    return true;
  if (s == MC_OK)
    return !problem("%s: expected %s (%s), but the oracle accepts the input", where, g->error_name,
                    g->clause);
  if (s != g->error || (err->clause && strcmp(err->clause, g->clause) != 0))
    return !problem("%s: expected %s (%s), but the oracle reports %s (%s): %s", where,
                    g->error_name, g->clause, mc_status_name(s),
                    err->clause ? err->clause : "no clause", err->message);
  return true;
}

static bool write_case(const gen_file *gf, const gen_group *g, int index, mc_text *text) {
  char where[4700], prefix[8] = {0};
  snprintf(where, sizeof where, "%s: group %s, case %d", gf->path, g->name, index);
  mc_gen_params p;
  mc_gen_case built;
  char why[512];
  if (!case_params(gf->op, g, index, &p, where))
    return false;
  p.max_input_bytes = g->max_input_bytes;
  uint64_t case_seed = mc_splitmix64(g->seed, (uint64_t)index);
  if (!mc_gen_build(gf->op, &p, case_seed, &built, why, sizeof why))
    return !problem("%s: %s", where, why);
  mc_tensor out;
  mc_error err;
  mc_status s = oracle(g, &built.req, &out, &err);
  bool ok = confirm(g, s, &err, where);
  if (ok) {
    const char *op_prefix = mc_op_clause_prefix(gf->op);
    for (size_t i = 0; op_prefix[i] && i + 1 < sizeof prefix; i++)
      prefix[i] = (char)(op_prefix[i] >= 'A' && op_prefix[i] <= 'Z' ? op_prefix[i] - 'A' + 'a'
                                                                    : op_prefix[i]);
    char id[160], params[1024], origin[2048], own[16];
    snprintf(id, sizeof id, "%s/gen/%s/%04d-%s", prefix, g->name, index,
             mc_type_name(built.tensors[0].type));
    describe_params(g, &p, params, sizeof params);
    if (g->valid)
      snprintf(origin, sizeof origin,
               "generated by movconf gen: generators/%s.json, group %s, case %d (%s); %s",
               mc_op_slug(gf->op), g->name, index, params, ORIGIN_NOTE);
    else
      snprintf(origin, sizeof origin,
               "generated by movconf gen: generators/%s.json, group %s, case %d (%s); expected "
               "error %s (%s) as the group states, confirmed by the movconf oracle (src/oracle), "
               "cross-checked by reference/reference_model.py",
               mc_op_slug(gf->op), g->name, index, params, g->error_name, g->clause);
    mc_case_out c = {.id = id,
                     .origin = origin,
                     .req = &built.req,
                     .data_fill = built.fill,
                     .data_fill_param = built.fill_param,
                     .expect_error = !g->valid,
                     .error = g->error,
                     .output = &out,
                     .max_values = gf->max_values,
                     .max_inline_bytes = (size_t)gf->max_inline_bytes};
    cite_clauses(g, &built.req, own, sizeof own, &c);
    mc_write_case(text, &c);
  }
  mc_tensor_free(&out);
  mc_gen_case_free(&built);
  return ok;
}

static void print_check_problem(void *ctx, const char *msg) {
  problem("%s: %s", (const char *)ctx, msg);
}

/* ---- a group's file, streamed ---- */

static const char case_separator[] = ",\n", file_tail[] = "\n  ]\n}\n";
#define MIB (1024.0 * 1024.0)

/* Where a group's file goes as its cases are made, so that however large
   the group, one case at most is in memory: a temporary file beside the
   group's file, renamed over it once the group is complete, or (check) the
   file there, compared as the text goes. */
typedef struct gen_out {
  const char *path;
  mc_output written; /* writing: the temporary file (mc_output) */
  FILE *f;           /* writing: written.f; check: the file, NULL when missing */
  bool check, differs, io_failed;
  size_t bytes; /* of text so far */
} gen_out;

/* 0, or 2 (reported) when the temporary file cannot be made. */
static int out_open(gen_out *out, const char *path, bool check) {
  *out = (gen_out){.path = path, .check = check};
  if (check) {
    out->f = fopen(path, "rbe");
    return 0;
  }
  /* Its temporary file is not *.json: a sweep never takes it for a group's file. */
  if (mc_output_open(&out->written, path)) {
    out->f = out->written.f;
    return 0;
  }
  problem("cannot write %s: %s", path, strerror(errno));
  return 2;
}

/* Appends n bytes (the caller keeps the file under the loader's limit);
   false on an I/O error, reported. */
static bool out_put(gen_out *out, const char *data, size_t n) {
  out->bytes += n;
  if (!out->check) {
    if (fwrite(data, 1, n, out->f) == n)
      return true;
    out->io_failed = true;
    return !problem("cannot write %s: %s", out->path, strerror(errno));
  }
  char old[1 << 14];
  while (n > 0 && !out->differs) {
    size_t take = n < sizeof old ? n : sizeof old;
    out->differs = !out->f || fread(old, 1, take, out->f) != take || memcmp(old, data, take) != 0;
    data += take;
    n -= take;
  }
  return true;
}

/* Ends the file: when complete, the temporary file replaces the group's
   (or, check, a difference is reported), else it is removed. Returns 0, 1
   (check: differs or missing) or 2 (I/O, reported). */
static int out_close(gen_out *out, bool complete) {
  int rc = 0;
  if (out->check) {
    if (complete && (out->differs || !out->f || fgetc(out->f) != EOF)) {
      printf("%s: %s\n", out->path, out->f ? "differs from what movconf gen writes" : "missing");
      rc = 1;
    }
    if (out->f)
      fclose(out->f);
    return rc;
  }
  if (!complete) {
    mc_output_discard(&out->written);
  } else if (!mc_output_commit(&out->written)) {
    problem("cannot write %s: %s", out->path, strerror(errno));
    rc = 2;
  }
  return rc;
}

/* One case's text behind the file's head, so that it can be parsed alone
   before it joins the file. It may not grow beyond room, what the file has
   left under the loader's limit: no estimate, so no mistake in one, can
   make memory grow. */
typedef struct case_buf {
  mc_text text; /* the file's head, then the case */
  size_t head;  /* the bytes of the file's head in text */
  size_t room;  /* the case's bytes at most */
  bool full;
} case_buf;

static bool buf_append(case_buf *b, const char *data, size_t n) {
  mc_text_put(&b->text, data, n);
  return !b->text.oom;
}

/* The sink of a case's text (mc_text streaming). */
static bool case_take(void *ctx, const char *data, size_t n) {
  case_buf *b = ctx;
  if (n > b->room - (b->text.len - b->head))
    return !(b->full = true);
  return buf_append(b, data, n);
}

/* The file's head, at the start of b. */
static bool file_head(const gen_file *gf, const gen_group *g, case_buf *b) {
  char description[1024];
  snprintf(description, sizeof description,
           "Generated by movconf gen from generators/%s.json, group %s (%s): %s Do not edit: "
           "change the description and run movconf gen (README.md).",
           mc_op_slug(gf->op), g->name ? g->name : "", g->valid ? "valid inputs" : "invalid inputs",
           g->about ? g->about : "");
  mc_text head = {0};
  mc_write_file_head(&head, gf->op, description);
  bool ok = !head.oom && buf_append(b, head.p, head.len);
  mc_text_free(&head);
  b->head = b->text.len;
  if (!ok)
    problem("out of memory");
  return ok;
}

/* Case index into b, behind the head; false with a message when it cannot
   be made. b->full: it did not fit in b->room. */
static bool make_case(const gen_file *gf, const gen_group *g, int index, case_buf *b) {
  b->text.len = b->head;
  mc_text t = {.sink = case_take, .sink_ctx = b};
  bool made = write_case(gf, g, index, &t);
  bool whole = mc_text_flush(&t) && !t.oom;
  mc_text_free(&t);
  if (made && !whole && !b->full)
    return !problem("out of memory");
  return made;
}

/* The bytes the loader allocates for a case's tensors (not for an expected
   output given as a sha256), which it caps per file. */
static size_t case_tensor_bytes(const mc_case *c) {
  size_t bytes = c->expected.tensor.data ? c->expected.tensor.nbytes : 0;
  for (int i = 0; i < c->n_inputs; i++)
    bytes += c->inputs[i].tensor.nbytes;
  return bytes;
}

/* The case in b must load and pass check-cases as a file of its own: the
   whole file then does too (its ids differ by their index, its size and
   its tensors' bytes are kept under the limits); *tensor_bytes: what the
   case's tensors take. */
static bool case_loads(const gen_file *gf, const gen_group *g, int index, case_buf *b,
                       size_t *tensor_bytes) {
  size_t len = b->text.len;
  if (!buf_append(b, file_tail, strlen(file_tail)))
    return !problem("out of memory");
  mc_case_file f;
  char err[1024];
  bool ok = mc_case_file_parse(b->text.p, b->text.len, g->name, &f, err, sizeof err);
  b->text.len = len;
  if (!ok)
    return !problem("%s: group %s, case %d: the generated case does not load: %s", gf->path,
                    g->name, index, err);
  int problems = mc_case_file_check(&f, print_check_problem, (void *)gf->path);
  *tensor_bytes = f.n_cases == 1 ? case_tensor_bytes(&f.cases[0]) : 0;
  mc_case_file_free(&f);
  return problems == 0;
}

/* The refusal of a group whose file would pass the loader's limit, at
   case index after bytes of text: the whole file's size estimated at that
   rate, and what to do. */
static bool too_large(const gen_file *gf, const gen_group *g, int index, size_t bytes) {
  double estimate = (double)bytes / (index + 1) * g->n_cases;
  return !problem("%s: group %s: refused: its case file would be larger than the case loader's "
                  "limit of %.0f MiB (MC_CASE_MAX_FILE_BYTES): cases 0 to %d of its %d already "
                  "take over %.1f MiB, so the whole file would take about %.0f MiB or more; "
                  "stopped there, no file written. Split the group into groups of fewer cases, "
                  "make its tensors smaller, or lower the file's expected_inline_bytes so that "
                  "large expected outputs are written as their sha256",
                  gf->path, g->name, (double)MC_CASE_MAX_FILE_BYTES / MIB, index, g->n_cases,
                  (double)bytes / MIB, estimate / MIB);
}

/* The refusal of a group whose tensors would pass the loader's limit for
   one file, at case index after bytes of tensors. */
static bool tensors_too_large(const gen_file *gf, const gen_group *g, int index, size_t bytes) {
  return !problem("%s: group %s: refused: the tensors of its case file would take more than the "
                  "case loader's limit of %.0f MiB for one file (MC_CASE_MAX_FILE_TENSOR_BYTES): "
                  "cases 0 to %d of its %d already take %.1f MiB; stopped there, no file "
                  "written. Split the group into groups of fewer cases or make its tensors "
                  "smaller",
                  gf->path, g->name, (double)MC_CASE_MAX_FILE_TENSOR_BYTES / MIB, index, g->n_cases,
                  (double)bytes / MIB);
}

/* A long group's progress on a terminal: from a second on, ten times a
   second, on one line that problem() and the group's summary erase. */
typedef struct progress {
  bool on;
  double start, last;
  const char *op, *group;
} progress;

static void show_progress(progress *p, int made, int n, size_t bytes) {
  double now = p->on ? mc_now_seconds() : 0;
  if (!p->on || now - p->start < 1.0 || now - p->last < 0.1)
    return;
  int shown = fprintf(stderr, "\r[gen] %s/%s: %d of %d cases, %.1f MiB", p->op, p->group, made, n,
                      (double)bytes / MIB);
  p->last = now;
  progress_shown = shown > 1 ? shown - 1 : 0;
}

/* Streams the group's case file to out, case by case. False (with a
   message) when a case cannot be made, would not load and pass
   check-cases, or the file would pass the loader's limit. */
static bool group_file(const gen_file *gf, const gen_group *g, gen_out *out, progress *pr) {
  case_buf b = {0};
  size_t tensors = 0, case_tensors = 0;
  bool ok = file_head(gf, g, &b) && out_put(out, b.text.p, b.head);
  for (int i = 0; ok && i < g->n_cases; i++) {
    size_t separator = i ? strlen(case_separator) : 0,
           reserved = out->bytes + separator + strlen(file_tail);
    b.room = reserved < MC_CASE_MAX_FILE_BYTES ? MC_CASE_MAX_FILE_BYTES - reserved : 0;
    ok = make_case(gf, g, i, &b);
    if (ok && b.full)
      ok = too_large(gf, g, i, out->bytes + b.text.len - b.head);
    ok = ok && case_loads(gf, g, i, &b, &case_tensors);
    if (ok && case_tensors > MC_CASE_MAX_FILE_TENSOR_BYTES - tensors)
      ok = tensors_too_large(gf, g, i, tensors + case_tensors);
    tensors += case_tensors;
    ok = ok && out_put(out, case_separator, separator) &&
         out_put(out, b.text.p + b.head, b.text.len - b.head);
    show_progress(pr, i + 1, g->n_cases, out->bytes);
  }
  ok = ok && out_put(out, file_tail, strlen(file_tail));
  mc_text_free(&b.text);
  return ok;
}

/* ---- files ---- */

static bool was_written(char **written, int n_written, const char *path) {
  for (int i = 0; i < n_written; i++)
    if (written[i] && !strcmp(written[i], path))
      return true;
  return false;
}

/* Files of dir (*.json) that no group wrote (written: their paths, NULL
   for a group that wrote none): removed, or (check) reported. */
static int sweep(const char *dir, char **written, int n_written, bool check) {
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  char **stale = NULL;
  int n_stale = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0)
      continue;
    char *path = mc_strdupf("%s/%s", dir, e->d_name);
    if (!path || was_written(written, n_written, path)) {
      free(path);
      continue;
    }
    char **grown = realloc(stale, (size_t)(n_stale + 1) * sizeof *stale);
    if (!grown) {
      free(path);
      break;
    }
    stale = grown;
    stale[n_stale++] = path;
  }
  closedir(d);
  int rc = 0;
  for (int i = 0; i < n_stale; i++) {
    if (check) {
      printf("%s: extra (no group of the description produces it)\n", stale[i]);
      rc = 1;
    } else if (remove(stale[i]) == 0) {
      fprintf(stderr, "gen: removed stale %s\n", stale[i]);
    }
    free(stale[i]);
  }
  free(stale);
  return rc;
}

/* True when an earlier group of the file has the name. */
static bool name_taken(const cJSON *groups, int index, const char *name) {
  for (int k = 0; k < index; k++) {
    const cJSON *other = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(groups, k), "group");
    if (cJSON_IsString(other) && !strcmp(other->valuestring, name))
      return true;
  }
  return false;
}

/* MOVCONF_GEN_SKIP_TIERS=1 leaves the tier groups out: neither built nor
   compared nor swept. Instrumented builds set it for CTest, where building
   the large tier's tensors would cost many minutes; the uninstrumented
   builds check the tier. */
static bool skip_tiers(void) {
  const char *v = getenv("MOVCONF_GEN_SKIP_TIERS");
  return v && strcmp(v, "1") == 0;
}

char *mc_gen_folder(const char *out, const char *tier) {
  size_t len = mc_path_trimmed_len(out);
  return tier ? mc_strdupf("%.*s-%s", (int)len, out, tier) : mc_strdupf("%.*s", (int)len, out);
}

/* The folder of op's files of tier (NULL: the default conformance
   folder's generated/): OUT/<slug>/generated or OUT-<tier>/<slug>, so that
   a tier stays out of the default run and is selected by its folder. */
static char *group_dir(const mc_gen_options *o, mc_op op, const char *tier) {
  char *folder = mc_gen_folder(o->out, tier);
  char *dir = mc_strdupf(tier ? "%s/%s" : "%s/%s/generated", folder, mc_op_slug(op));
  free(folder);
  return dir;
}

/* The group's cases counted, by kind and by tier. */
static void count_group(const gen_group *g, mc_gen_counts *counts) {
  counts->groups++;
  *(g->valid ? &counts->valid : &counts->invalid) += g->n_cases;
  for (int t = 0; g->tier && mc_gen_tiers[t]; t++)
    if (!strcmp(g->tier, mc_gen_tiers[t]))
      counts->in_tier[t] += g->n_cases;
}

/* Group index of the file to <its folder>/<group>.json (or compared with
   it). Sets *file_path (owned) when the group made a file; returns 0, 1 (a
   description error, a group too large, or a difference) or 2 (I/O). */
static int expand_group(const mc_gen_options *o, const gen_file *gf, const cJSON *groups, int index,
                        mc_gen_counts *counts, char **file_path) {
  gen_group g;
  if (!read_group(gf, cJSON_GetArrayItem(groups, index), index, &g))
    return 1;
  if (name_taken(groups, index, g.name))
    return problem("%s: group %s appears twice", gf->path, g.name);
  if (g.tier && skip_tiers())
    return 0;
  char *dir = group_dir(o, gf->op, g.tier);
  if (!o->check && !mc_make_dirs(dir)) {
    problem("cannot create %s: %s", dir, strerror(errno));
    free(dir);
    return 2;
  }
  char *path = mc_strdupf("%s/%s.json", dir, g.name);
  free(dir);
  gen_out out;
  int rc = out_open(&out, path, o->check);
  if (rc) {
    free(path);
    return rc;
  }
  progress pr = {
      .on = o->progress, .start = mc_now_seconds(), .op = mc_op_slug(gf->op), .group = g.name};
  bool made = group_file(gf, &g, &out, &pr);
  erase_progress();
  rc = out_close(&out, made);
  if (!made) {
    free(path);
    return out.io_failed ? 2 : 1;
  }
  *file_path = path;
  fprintf(stderr, "gen: %s/%s: %d %s cases\n", mc_op_slug(gf->op), g.name, g.n_cases,
          g.valid ? "valid" : "invalid");
  count_group(&g, counts);
  return rc;
}

/* Sweeps the default folder and every tier's folder of op. */
static int sweep_all(const mc_gen_options *o, mc_op op, char **written, int n_written) {
  int rc = 0;
  for (int t = -1; t < 0 || (mc_gen_tiers[t] && !skip_tiers()); t++) {
    char *dir = group_dir(o, op, t < 0 ? NULL : mc_gen_tiers[t]);
    int s = sweep(dir, written, n_written, o->check);
    rc = s > rc ? s : rc;
    free(dir);
  }
  return rc;
}

int mc_gen_op(const mc_gen_options *o, mc_op op, mc_gen_counts *counts) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.json", o->generators, mc_op_slug(op));
  gen_file gf;
  int failure;
  cJSON *root = load_description(path, op, &gf, &failure);
  if (!root)
    return failure;
  const cJSON *groups = cJSON_GetObjectItemCaseSensitive(root, "groups");
  int n = cJSON_GetArraySize(groups), rc = 0;
  char **written = calloc((size_t)n, sizeof *written);
  if (!written) {
    cJSON_Delete(root);
    return problem("out of memory") + 1;
  }
  for (int i = 0; i < n && rc < 2; i++) {
    int r = expand_group(o, &gf, groups, i, counts, &written[i]);
    rc = r > rc ? r : rc;
  }
  if (skip_tiers())
    fprintf(stderr, "gen: %s: tier groups skipped (MOVCONF_GEN_SKIP_TIERS=1)\n", mc_op_slug(op));
  if (rc == 0) {
    int s = sweep_all(o, op, written, n);
    rc = s > rc ? s : rc;
  }
  for (int i = 0; i < n; i++)
    free(written[i]);
  free(written);
  cJSON_Delete(root);
  return rc;
}
