/* The case-file loader: "movconf-cases/1" (spec/case-format.md) from JSON
   text to mc_case_file: the file, its cases and their attributes (tensors
   are read by tensor_read.c). Nothing a file says makes the loader allocate
   beyond the limits of cases.h and cases_internal.h. */
#include "cases/cases.h"
#include "cases/cases_internal.h"
#include "movconf/tensor.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FORMAT_NAME "movconf-cases/1"
/* Longest integer-list attribute a file may give (the op judges lengths). */
#define MAX_ATTR_VALUES 64

/* ---- attributes ---- */

static bool read_int_list(mc_reader *rd, const cJSON *j, const char *path, mc_int_list *list) {
  if (!cJSON_IsArray(j))
    return mc_read_fail(rd, path, "expected an array of integers, got %s", mc_json_kind(j));
  int n = cJSON_GetArraySize(j);
  if (n > MAX_ATTR_VALUES)
    return mc_read_fail(rd, path, "%d values; at most %d are allowed", n, MAX_ATTR_VALUES);
  list->count = n;
  int i = 0;
  for (const cJSON *e = j->child; e; e = e->next, i++) {
    mc_path_buf epath;
    int64_t v;
    mc_path_index(epath, path, i);
    if (!mc_read_int64(rd, e, epath, &v))
      return false;
    if (i < MC_MAX_ATTR_LEN)
      list->v[i] = v;
  }
  return true;
}

static bool read_owned_string(mc_reader *rd, const cJSON *j, const char *path, const char **out) {
  const char *s;
  if (!mc_read_string(rd, j, path, &s))
    return false;
  char *copy = mc_copy_string(s);
  if (!copy)
    return mc_read_fail(rd, path, "out of memory");
  *out = copy;
  return true;
}

/* One attribute, read as its kind in the attribute table says. */
static bool parse_attribute(mc_reader *rd, const cJSON *a, const char *path, mc_attr id,
                            mc_attrs *attrs) {
  switch (mc_attr_kind_of(id)) {
  case MC_ATTR_KIND_INT: {
    int64_t v;
    if (!mc_read_int64(rd, a, path, &v))
      return false;
    mc_attrs_set_int(attrs, id, v);
    return true;
  }
  case MC_ATTR_KIND_STRING: {
    const char *s = NULL;
    if (!read_owned_string(rd, a, path, &s))
      return false;
    mc_attrs_set_string(attrs, id, s);
    return true;
  }
  case MC_ATTR_KIND_INT_LIST:
    return read_int_list(rd, a, path, mc_attrs_list_slot(attrs, id));
  }
  return false;
}

static bool parse_attributes(mc_reader *rd, const cJSON *j, mc_attrs *attrs) {
  const char *allowed[MC_ATTR_COUNT];
  int n_allowed = mc_op_attr_count(rd->op);
  for (int i = 0; i < n_allowed; i++)
    allowed[i] = mc_attr_name(mc_op_attr(rd->op, i));
  if (!mc_read_object(rd, j, "attributes") ||
      !mc_read_keys(rd, j, "attributes", allowed, n_allowed, "attribute"))
    return false;
  for (const cJSON *a = j->child; a; a = a->next) {
    mc_path_buf apath;
    mc_path_key(apath, "attributes", a->string);
    if (!parse_attribute(rd, a, apath, (mc_attr)mc_op_attr_from_name(rd->op, a->string), attrs))
      return false;
  }
  return true;
}

/* ---- cases ---- */

static bool id_syntax_ok(const char *id) {
  if (!((id[0] >= 'a' && id[0] <= 'z') || (id[0] >= '0' && id[0] <= '9')))
    return false;
  for (const char *p = id; *p; p++) {
    char c = *p;
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr("/_.+-", c);
    if (!ok)
      return false;
  }
  return true;
}

static bool parse_id(mc_reader *rd, const cJSON *j, mc_case *c) {
  const char *id;
  if (!mc_read_string(rd, j, "id", &id))
    return false;
  if (!id_syntax_ok(id))
    return mc_read_fail(rd, "id", "\"%.80s\" does not match ^[a-z0-9][a-z0-9/_.+-]*$", id);
  c->id = mc_copy_string(id);
  if (!c->id)
    return mc_read_fail(rd, "id", "out of memory");
  rd->case_id = c->id;
  return true;
}

static bool parse_origin(mc_reader *rd, const cJSON *j, mc_case *c) {
  const char *origin;
  if (!mc_read_string(rd, j, "origin", &origin))
    return false;
  if (origin[0] == '\0')
    return mc_read_fail(rd, "origin",
                        "must say where the expected value comes from (empty string)");
  c->origin = mc_copy_string(origin);
  return c->origin ? true : mc_read_fail(rd, "origin", "out of memory");
}

static bool parse_clauses(mc_reader *rd, const cJSON *j, mc_case *c) {
  if (!cJSON_IsArray(j))
    return mc_read_fail(rd, "clauses", "expected an array of clause ids, got %s", mc_json_kind(j));
  int n = cJSON_GetArraySize(j);
  if (n == 0)
    return mc_read_fail(rd, "clauses", "must name at least one clause");
  c->clauses = calloc((size_t)n, sizeof *c->clauses);
  if (!c->clauses)
    return mc_read_fail(rd, "clauses", "out of memory");
  for (const cJSON *e = j->child; e; e = e->next) {
    mc_path_buf epath;
    const char *s;
    mc_path_index(epath, "clauses", c->n_clauses);
    if (!mc_read_string(rd, e, epath, &s))
      return false;
    if (s[0] == '\0')
      return mc_read_fail(rd, epath, "empty clause id");
    c->clauses[c->n_clauses] = mc_copy_string(s);
    if (!c->clauses[c->n_clauses])
      return mc_read_fail(rd, epath, "out of memory");
    c->n_clauses++;
  }
  return true;
}

/* The inputs the case gives: every required one, then the optional ones
   (Slice-8's axes) as a prefix of the input order, since inputs[] is
   positional and a gap would shift the ones after it. */
static bool parse_inputs(mc_reader *rd, const cJSON *j, mc_case *c) {
  const char *names[MC_MAX_INPUTS];
  int most = mc_op_input_count(rd->op), least = mc_op_required_input_count(rd->op);
  for (int i = 0; i < most; i++)
    names[i] = mc_op_input_name(rd->op, i);
  if (!mc_read_object(rd, j, "inputs") || !mc_read_keys(rd, j, "inputs", names, most, "input"))
    return false;
  int n = 0;
  while (n < most && mc_member(j, names[n]))
    n++;
  if (n < least)
    return mc_read_fail(rd, "inputs", "missing input '%s'", names[n]);
  for (int i = n + 1; i < most; i++)
    if (mc_member(j, names[i]))
      return mc_read_fail(rd, "inputs",
                          "input '%s' given without '%s' (optional inputs are given in order)",
                          names[i], names[n]);
  c->n_inputs = n;
  for (int i = 0; i < n; i++) {
    mc_path_buf tpath;
    mc_path_key(tpath, "inputs", names[i]);
    if (!mc_read_tensor(rd, mc_member(j, names[i]), tpath, false, &c->inputs[i]))
      return false;
  }
  return true;
}

static bool parse_expect(mc_reader *rd, const cJSON *j, mc_case *c) {
  static const char *const keys[] = {"output", "error"};
  if (!mc_read_object(rd, j, "expect") || !mc_read_keys(rd, j, "expect", keys, 2, "key"))
    return false;
  const cJSON *output = mc_member(j, "output"), *error = mc_member(j, "error");
  if ((output != NULL) == (error != NULL))
    return mc_read_fail(rd, "expect", "give exactly one of 'output' and 'error'");
  if (output)
    return mc_read_tensor(rd, output, "expect.output", true, &c->expected);
  const char *name;
  if (!mc_read_string(rd, error, "expect.error", &name))
    return false;
  int status = mc_status_from_name(name);
  if (status < 0 || status == MC_OK)
    return mc_read_fail(rd, "expect.error", "\"%.60s\" is not an error status name", name);
  c->expect_error = true;
  c->expected_error = (mc_status)status;
  return true;
}

/* The case's own output cap: a byte count (0: every non-empty output is
   too large). */
static bool parse_cap(mc_reader *rd, const cJSON *j, mc_case *c) {
  int64_t cap;
  if (!mc_read_int64(rd, j, "max_output_bytes", &cap))
    return false;
  if (cap < 0)
    return mc_read_fail(rd, "max_output_bytes", "%" PRId64 " is not a byte count", cap);
  c->has_cap = true;
  c->max_output_bytes = (size_t)cap;
  return true;
}

static bool parse_case(mc_reader *rd, const cJSON *j, mc_case *c) {
  static const char *const keys[] = {"id",         "origin",           "clauses", "inputs",
                                     "attributes", "max_output_bytes", "expect"};
  const cJSON *id, *origin, *clauses, *inputs, *expect;
  c->op = rd->op;
  c->attrs = mc_attrs_none();
  /* The id first, so that every later message can name the case. */
  if (!mc_read_object(rd, j, "") || !mc_read_require(rd, j, "", "id", &id) ||
      !parse_id(rd, id, c) || !mc_read_keys(rd, j, "", keys, 7, "key"))
    return false;
  if (!mc_read_require(rd, j, "", "origin", &origin) ||
      !mc_read_require(rd, j, "", "clauses", &clauses) ||
      !mc_read_require(rd, j, "", "inputs", &inputs) ||
      !mc_read_require(rd, j, "", "expect", &expect))
    return false;
  if (!parse_origin(rd, origin, c) || !parse_clauses(rd, clauses, c) ||
      !parse_inputs(rd, inputs, c))
    return false;
  const cJSON *attributes = mc_member(j, "attributes");
  if (attributes && !parse_attributes(rd, attributes, &c->attrs))
    return false;
  const cJSON *cap = mc_member(j, "max_output_bytes");
  if (cap && !parse_cap(rd, cap, c))
    return false;
  return parse_expect(rd, expect, c);
}

/* ---- the file ---- */

static bool parse_header(mc_reader *rd, const cJSON *root) {
  static const char *const keys[] = {"format", "op", "description", "cases"};
  const cJSON *format, *op, *description;
  const char *s;
  if (!mc_read_object(rd, root, "") || !mc_read_keys(rd, root, "", keys, 4, "key") ||
      !mc_read_require(rd, root, "", "format", &format) ||
      !mc_read_string(rd, format, "format", &s))
    return false;
  if (strcmp(s, FORMAT_NAME) != 0)
    return mc_read_fail(rd, "format", "\"%.40s\" is not \"" FORMAT_NAME "\"", s);
  if (!mc_read_require(rd, root, "", "op", &op) || !mc_read_string(rd, op, "op", &s))
    return false;
  rd->op = MC_OP_INVALID;
  for (int i = 0; i < MC_OP_COUNT; i++)
    if (strcmp(s, mc_op_name((mc_op)i)) == 0)
      rd->op = (mc_op)i;
  if (rd->op == MC_OP_INVALID)
    return mc_read_fail(rd, "op",
                        "unknown operation \"%.40s\" (expected BatchToSpace-2, SpaceToBatch-2, "
                        "SpaceToDepth-1, DepthToSpace-1 or ExtractImagePatches-3)",
                        s);
  description = mc_member(root, "description");
  return !description || mc_read_string(rd, description, "description", &s);
}

static bool parse_root(mc_reader *rd, const cJSON *root, mc_case_file *out) {
  const cJSON *cases;
  if (!parse_header(rd, root) || !mc_read_require(rd, root, "", "cases", &cases))
    return false;
  out->op = rd->op;
  if (!cJSON_IsArray(cases))
    return mc_read_fail(rd, "cases", "expected an array of cases, got %s", mc_json_kind(cases));
  int n = cJSON_GetArraySize(cases);
  if (n == 0)
    return mc_read_fail(rd, "cases", "the file has no cases");
  if (n > MC_CASE_MAX_CASES)
    return mc_read_fail(rd, "cases", "%d cases; at most %d per file", n, MC_CASE_MAX_CASES);
  out->cases = calloc((size_t)n, sizeof *out->cases);
  if (!out->cases)
    return mc_read_fail(rd, "cases", "out of memory");
  out->n_cases = n;
  int i = 0;
  for (const cJSON *cj = cases->child; cj; cj = cj->next, i++) {
    rd->case_index = i;
    rd->case_id = NULL;
    if (!parse_case(rd, cj, &out->cases[i]))
      return false;
  }
  return true;
}

/* "line L, column C" of a byte offset, for cJSON's error position. */
static void locate(const char *text, size_t len, size_t at, size_t *line, size_t *column) {
  *line = 1;
  *column = 1;
  for (size_t i = 0; i < at && i < len; i++) {
    if (text[i] == '\n') {
      (*line)++;
      *column = 1;
    } else {
      (*column)++;
    }
  }
}

/* The previous non-space byte before at, or 0. */
static char previous_token(const char *text, size_t at) {
  while (at > 0 && strchr(" \t\r\n", text[at - 1]))
    at--;
  return at > 0 ? text[at - 1] : 0;
}

/* The innermost container open at offset at ('{', '[' or 0), how many are
   open, and whether the last string before at is an object's member name. */
typedef struct nesting {
  char innermost;
  int open;
  bool after_key;
} nesting;

static nesting nesting_at(const char *text, size_t at) {
  char stack[64];
  int depth = 0;
  nesting n = {0, 0, false};
  char last = 0; /* last structural byte before the current string */
  for (size_t i = 0; i < at; i++) {
    char c = text[i];
    if (c == '"') {
      bool key =
          depth > 0 && depth <= 64 && stack[depth - 1] == '{' && (last == '{' || last == ',');
      for (i++; i < at && text[i] != '"'; i++)
        i += text[i] == '\\';
      n.after_key = key;
      last = '"';
      continue;
    }
    if (c == '{' || c == '[') {
      if (depth < 64)
        stack[depth] = c;
      depth++;
    } else if ((c == '}' || c == ']') && depth > 0) {
      depth--;
    }
    if (!strchr(" \t\r\n", c)) {
      last = c;
      if (c != '"')
        n.after_key = false;
    }
  }
  n.open = depth;
  n.innermost = depth > 0 && depth <= 64 ? stack[depth - 1] : 0;
  return n;
}

/* Why the structure is wrong at offset at (cJSON says only where): the
   common mistakes of hand-edited files by name. */
static void syntax_reason(const char *text, size_t len, size_t at, char *buf, size_t n) {
  while (at < len && strchr(" \t\r\n", text[at]))
    at++;
  char here = at < len ? text[at] : 0, before = previous_token(text, at);
  bool after_value = before == '"' || before == '}' || before == ']' || before == 'e' ||
                     before == 'l' || (before >= '0' && before <= '9');
  nesting at_error = nesting_at(text, at), at_end = nesting_at(text, len);
  if ((here == '}' && at_error.innermost == '[') || (here == ']' && at_error.innermost == '{'))
    snprintf(buf, n, "'%c' closes a '%c'", here, at_error.innermost);
  else if ((here == '}' || here == ']') && before == ',')
    snprintf(buf, n, "trailing comma before '%c'", here);
  else if (before == '"' && at_error.after_key && here != ':')
    snprintf(buf, n, "expected ':' after the member name, found '%c'", here);
  else if (after_value && (here == '"' || here == '{' || here == '[' || here == '-' ||
                           (here >= '0' && here <= '9')))
    snprintf(buf, n, "missing comma before '%c'", here);
  else if (here == 0 || at_end.open > 0)
    snprintf(buf, n, "the text ends with %d '[' or '{' not closed", at_end.open);
  else
    snprintf(buf, n, "unexpected character '%c'", here);
}

static cJSON *parse_json(mc_reader *rd) {
  char why[256];
  if (!mc_json_check_text(rd->text, rd->len, why, sizeof why)) {
    mc_read_fail(rd, "", "invalid JSON: %s", why);
    return NULL;
  }
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(rd->text, rd->len, &end, false);
  size_t at = end ? (size_t)(end - rd->text) : 0;
  size_t line, column;
  if (!root) {
    locate(rd->text, rd->len, at, &line, &column);
    char reason[128];
    syntax_reason(rd->text, rd->len, at, reason, sizeof reason);
    mc_read_fail(rd, "", "invalid JSON near line %zu, column %zu: %s", line, column, reason);
    return NULL;
  }
  while (at < rd->len && strchr(" \t\r\n", rd->text[at]) && rd->text[at] != '\0')
    at++;
  if (at < rd->len) {
    cJSON_Delete(root);
    locate(rd->text, rd->len, at, &line, &column);
    mc_read_fail(rd, "",
                 "invalid JSON: text after the end of the top-level value at line %zu, "
                 "column %zu",
                 line, column);
    return NULL;
  }
  mc_json_tag_numbers(root, rd->text, rd->len);
  return root;
}

static void set_error(char *err, size_t errlen, const char *name, const char *what) {
  if (err && errlen)
    snprintf(err, errlen, "%s: %s", name, what);
}

static bool parse_text(const char *text, size_t len, const char *name, mc_case_file *out, char *err,
                       size_t errlen, bool defer_fills) {
  if (!name)
    name = "<input>";
  if (!out) {
    set_error(err, errlen, name, "no output file structure given");
    return false;
  }
  memset(out, 0, sizeof *out);
  out->op = MC_OP_INVALID;
  mc_reader rd = {text, len, name, err, errlen, MC_OP_INVALID, -1, NULL, 0, defer_fills};
  if (!text || len == 0)
    return mc_read_fail(&rd, "", "empty file");
  if (len > MC_CASE_MAX_FILE_BYTES)
    return mc_read_fail(&rd, "", "the file is larger than the limit of %zu bytes",
                        MC_CASE_MAX_FILE_BYTES);
  out->path = mc_copy_string(name);
  if (!out->path)
    return mc_read_fail(&rd, "", "out of memory");
  cJSON *root = parse_json(&rd);
  bool ok = root && parse_root(&rd, root, out);
  cJSON_Delete(root);
  if (!ok)
    mc_case_file_free(out);
  return ok;
}

bool mc_case_file_parse(const char *text, size_t len, const char *name, mc_case_file *out,
                        char *err, size_t errlen) {
  return parse_text(text, len, name, out, err, errlen, false);
}

static bool load(const char *path, mc_case_file *out, char *err, size_t errlen, bool defer_fills) {
  if (out)
    memset(out, 0, sizeof *out);
  if (!path || !out) {
    set_error(err, errlen, path ? path : "<null>", "no path or output given");
    return false;
  }
  size_t len = 0;
  int error = 0;
  char *text = mc_read_file_bounded(path, MC_CASE_MAX_FILE_BYTES, &len, &error);
  if (!text) {
    set_error(err, errlen, path, strerror(error));
    return false;
  }
  bool ok = parse_text(text, len, path, out, err, errlen, defer_fills);
  free(text);
  return ok;
}

bool mc_case_file_load(const char *path, mc_case_file *out, char *err, size_t errlen) {
  return load(path, out, err, errlen, false);
}

bool mc_case_file_load_deferred(const char *path, mc_case_file *out, char *err, size_t errlen) {
  return load(path, out, err, errlen, true);
}

static void free_case(mc_case *c) {
  free(c->id);
  free(c->origin);
  for (int i = 0; i < c->n_clauses; i++)
    free(c->clauses[i]);
  free(c->clauses);
  for (int i = 0; i < MC_MAX_INPUTS; i++)
    if (c->inputs[i].tensor.data)
      mc_tensor_free(&c->inputs[i].tensor);
  if (c->expected.tensor.data)
    mc_tensor_free(&c->expected.tensor);
  /* The attribute strings were allocated by the loader. */
  for (int i = 0; i < mc_op_attr_count(c->op); i++)
    if (mc_attr_kind_of(mc_op_attr(c->op, i)) == MC_ATTR_KIND_STRING)
      free((void *)(uintptr_t)mc_attrs_string(&c->attrs, mc_op_attr(c->op, i)));
  memset(c, 0, sizeof *c);
}

void mc_case_file_free(mc_case_file *f) {
  if (!f)
    return;
  for (int i = 0; i < f->n_cases; i++)
    free_case(&f->cases[i]);
  free(f->cases);
  free(f->path);
  memset(f, 0, sizeof *f);
  f->op = MC_OP_INVALID;
}

mc_request mc_request_of_case(const mc_case *c) {
  mc_request r;
  memset(&r, 0, sizeof r);
  r.op = c->op;
  r.n_inputs = c->n_inputs;
  for (int i = 0; i < c->n_inputs && i < MC_MAX_INPUTS; i++)
    r.inputs[i] = &c->inputs[i].tensor;
  r.attrs = c->attrs;
  return r;
}
