/* `movconf fuzz`: differential fuzzing of any implementation. Requests come
   from the fuzz targets' structure-aware producer (src/cases/bytes/fuzz_bytes.h) fed
   with seeded random bytes, and one in MC_FUZZ_LARGE_ONE_IN from the large
   builder (fuzz_large.c); each runs on the implementation, isolated as
   `movconf run` isolates it, and is judged against the oracle. A failure is
   shrunk (fuzz_shrink.c), tested for type dependence, and written once per
   distinct finding as a readable case file. */
#include <float.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/bytes/fuzz_bytes.h"
#include "cases/case_writer.h"
#include "common/clauses.h"
#include "common/clock.h"
#include "common/text.h"
#include "fuzz/fuzz_request.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

#define MAX_INPUT_BYTES 400

/* The producer's bytes: op first, data type second (fuzz/README.md, "Byte
   layout"); a chosen op (or -1) and a --type choice are written there. */
static bool produce(mc_rng *g, const mc_fuzz_options *o, int op, mc_owned_request *out) {
  uint8_t bytes[MAX_INPUT_BYTES];
  size_t n = 8 + (size_t)mc_rng_below(g, MAX_INPUT_BYTES - 8);
  for (size_t i = 0; i < n; i++)
    bytes[i] = (uint8_t)mc_rng_next(g);
  if (op >= 0)
    bytes[0] = (uint8_t)op;
  if (o->type != MC_TYPE_INVALID)
    bytes[1] = (uint8_t)o->type;
  mc_fuzz_input in;
  if (!mc_fuzz_decode(bytes, n, &in))
    return false;
  bool ok = mc_owned_request_copy(&in.req, in.max_output_bytes, out);
  if (ok && in.data_fill == MC_FUZZ_FILL_COUNTER) {
    out->data_fill = MC_PAYLOAD_FILL_COUNTER;
    memcpy(&out->fill_start, &in.data_fill_param, sizeof out->fill_start);
  }
  mc_fuzz_input_free(&in);
  return ok;
}

uint32_t mc_fuzz_ops_unsupported(const mc_fuzz_stats *s) {
  uint32_t ops = 0;
  for (int op = 0; op < MC_OP_COUNT; op++)
    if (s->runs_by_op[op] >= MC_FUZZ_CLAIM_RUNS && s->unsupported_by_op[op] == s->runs_by_op[op])
      ops |= 1u << op;
  return ops | s->unclaimed_ops;
}

/* Whether impl supports any of MC_FUZZ_ASK_REQUESTS requests of op drawn
   from g. */
static bool claims_op(mc_impl *impl, mc_rng *g, const mc_fuzz_options *o, int op) {
  for (int k = 0; k < MC_FUZZ_ASK_REQUESTS; k++) {
    mc_owned_request r;
    if (!produce(g, o, op, &r))
      continue;
    bool yes = impl->supports(impl, &r.req);
    mc_owned_request_free(&r);
    if (yes)
      return true;
  }
  return false;
}

/* Without --op: asks the implementation, when it can be asked, which
   operations it claims, with requests of each drawn from their own seed
   (the campaign's draws stay as they were). */
static void ask_claims(const mc_fuzz_options *o, mc_impl *impl, mc_fuzz_stats *s) {
  if (o->op >= 0 || !impl->supports)
    return;
  mc_rng g = {o->seed * 0x9E3779B97F4A7C15u ^ 0x5375707075727473u, 0};
  for (int op = 0; op < MC_OP_COUNT; op++)
    if (!claims_op(impl, &g, o, op))
      s->unclaimed_ops |= 1u << op;
}

void mc_fuzz_ops_fuzzed_text(const mc_fuzz_options *o, const mc_fuzz_stats *s, char *buf,
                             size_t size) {
  const uint32_t lacking = o->op >= 0 ? 0 : mc_fuzz_ops_unsupported(s);
  if (o->op >= 0 || !lacking || lacking == (1u << MC_OP_COUNT) - 1) {
    snprintf(buf, size, "%s", o->op >= 0 ? mc_op_name((mc_op)o->op) : "every operation");
    return;
  }
  size_t at = 0;
  for (int op = 0; op < MC_OP_COUNT && at < size; op++)
    if (!(lacking & (1u << op)))
      at += (size_t)snprintf(buf + at, size - at, "%s ", mc_op_name((mc_op)op));
  if (at < size)
    snprintf(buf + at, size - at, "(the others unsupported)");
}

/* The operation of the next request: --op's; else, once the implementation
   has shown it lacks some, one of the others (the lacking ones one time in
   MC_FUZZ_PROBE_ONE_IN); -1: any, as the drawn bytes say. */
static int pick_op(mc_rng *g, const mc_fuzz_options *o, const mc_fuzz_stats *s) {
  if (o->op >= 0)
    return o->op;
  const uint32_t lacking = mc_fuzz_ops_unsupported(s), all = (1u << MC_OP_COUNT) - 1;
  if (!lacking || lacking == all || mc_rng_below(g, MC_FUZZ_PROBE_ONE_IN) == 0)
    return -1;
  uint64_t k = mc_rng_below(g, (uint64_t)__builtin_popcount(all & ~lacking));
  for (int op = 0; op < MC_OP_COUNT; op++)
    if (!(lacking & (1u << op)) && k-- == 0)
      return op;
  return -1;
}

/* Whether a large request fits the campaign: always, unless they are slow
   (MC_FUZZ_SLOW_LARGE_SECONDS) and have had their third of the time. */
static bool large_affordable(const mc_fuzz_stats *s) {
  if (s->large_runs == 0 || s->large_seconds / (double)s->large_runs <= MC_FUZZ_SLOW_LARGE_SECONDS)
    return true;
  return s->large_seconds <= s->run_seconds / 3;
}

/* The bytes a large request may move now (after the first): what the
   implementation moves in its share of the --timeout and of the time
   left, at the seconds per byte its large runs took (issue 39: large
   requests in proportion to their cost, none that cannot be answered in
   time). */
static double large_bytes_affordable(const mc_fuzz_options *o, const mc_impl *impl,
                                     const mc_fuzz_stats *s) {
  double budget = impl->options.timeout_seconds > 0
                      ? impl->options.timeout_seconds * MC_FUZZ_LARGE_SHARE_OF_TIMEOUT
                      : 0;
  if (o->stop_at > 0) {
    const double left = (o->stop_at - mc_now_seconds()) / MC_FUZZ_LARGE_SHARE_OF_LEFT;
    budget = budget > 0 && budget < left ? budget : left;
  }
  const double per_byte = s->large_bytes > 0 ? s->large_seconds / s->large_bytes : 0;
  double bytes = budget > 0 && per_byte > 0 ? budget / per_byte : DBL_MAX; /* no limit known */
  /* A cost that jumps with the size (a slower path above some size)
     shows only in a timeout; a second one (elements, not bytes, may set
     the path) ends the large requests: the campaign goes on. */
  if (s->large_timeout_bytes > 0 && bytes > s->large_timeout_bytes / 2)
    bytes = s->large_timeout_bytes / 2;
  return s->large_timeouts >= MC_FUZZ_LARGE_TIMEOUTS ? 0 : bytes;
}

static bool next_request(mc_rng *g, const mc_fuzz_options *o, const mc_impl *impl,
                         const mc_fuzz_stats *s, mc_owned_request *r, bool *large) {
  *large =
      o->large_one_in > 0 && mc_rng_below(g, (uint64_t)o->large_one_in) == 0 && large_affordable(s);
  const int op = pick_op(g, o, s);
  /* The first large request is of 2^12 elements, whatever it moves;
     after it, one that does not fit even at 2^12 is a small one. */
  const double max_bytes = *large && s->large_runs ? large_bytes_affordable(o, impl, s) : 0;
  *large = *large && (!s->large_runs || max_bytes >= mc_fuzz_large_bytes((int64_t)1 << 12, 8));
  if (!*large)
    return produce(g, o, op, r);
  const mc_op large_op = op >= 0 ? (mc_op)op : (mc_op)mc_rng_below(g, MC_OP_COUNT);
  bool too_costly;
  if (mc_fuzz_large_request(g, large_op, o->type, max_bytes, r, &too_costly) || !too_costly)
    return !too_costly;
  *large = false;
  return produce(g, o, op, r);
}

/* The bytes r moves: its data in, the output out. */
static double bytes_moved(const mc_owned_request *r, const mc_fuzz_outcome *v) {
  const mc_tensor *d = &r->tensors[0];
  const double out = v->output_elements > 0 ? (double)v->output_elements : 0;
  return ((double)mc_tensor_elements(d) + out) * mc_type_bits(d->type) / 8;
}

/* The cause key of r's failure (outcome) with the type's part: the type,
   or any-type when the failure does not depend on it. */
static void finding_key(const mc_owned_request *r, const mc_fuzz_outcome *o, bool any_type,
                        char *key, size_t size) {
  char cause[128];
  mc_fuzz_cause_key(r, o, cause, sizeof cause);
  snprintf(key, size, "%s-%s", cause, any_type ? "any-type" : mc_type_name(r->tensors[0].type));
}

/* r with index-filled data of type, judged: whether it fails with the same
   cause key as want; *detail and *outcome are that run's. */
static bool same_cause_as(mc_impl *impl, mc_owned_request *r, mc_type type, const char *want,
                          char **detail, mc_fuzz_outcome *outcome) {
  mc_tensor shape_of = r->tensors[0];
  if (!mc_owned_request_set_data(r, type, shape_of.rank, shape_of.shape, 0))
    return false;
  mc_fuzz_judge(impl, r, detail, outcome);
  char got[128];
  mc_fuzz_cause_key(r, outcome, got, sizeof got);
  return !outcome->out_of_time && strcmp(got, want) == 0;
}

/* Whether the failure survives a change of element type (to u8 and to
   f32) with its cause: then it does not depend on the type. */
static bool type_independent(mc_impl *impl, const mc_owned_request *r, const mc_fuzz_outcome *o) {
  static const mc_type probes[] = {MC_U8, MC_F32};
  char want[128];
  mc_fuzz_cause_key(r, o, want, sizeof want);
  for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
    mc_owned_request other;
    if (!mc_owned_request_copy(&r->req, r->max_output_bytes, &other))
      return false;
    char *detail = NULL;
    mc_fuzz_outcome got;
    bool same = same_cause_as(impl, &other, probes[i], want, &detail, &got);
    free(detail);
    mc_owned_request_free(&other);
    if (!same)
      return false;
  }
  return true;
}

static const mc_fuzz_finding *known_finding(const mc_fuzz_stats *s, const char *key) {
  for (int i = 0; i < s->n_findings; i++)
    if (strcmp(s->findings[i].key, key) == 0)
      return &s->findings[i];
  return NULL;
}

/* The clauses a finding exercises: the one the oracle's error cites, or
   the operation's computation steps and bit-exactness for an output. */
static void cite_clauses(const mc_fuzz_case *fc, mc_case_out *c) {
  if (fc->c.expect_error) {
    if (fc->oracle_clause)
      c->clauses[c->n_clauses++] = fc->oracle_clause;
    return;
  }
  char steps[16];
  snprintf(steps, sizeof steps, "%s-S", mc_op_clause_prefix(fc->c.op));
  c->clauses[c->n_clauses++] = "MC-S1";
  for (const mc_clause *k = mc_clause_table(); k->id && c->n_clauses < MC_CASE_OUT_MAX_CLAUSES; k++)
    if (strncmp(k->id, steps, strlen(steps)) == 0)
      c->clauses[c->n_clauses++] = k->id;
}

/* Where a finding goes: OUT/KEY.json, or for a worker of several a hidden
   file beside it that the parent renames once it has chosen among the
   workers' findings of one key (fuzz_jobs.c). */
static char *finding_path(const mc_fuzz_options *o, const char *key) {
  if (o->stop_flag)
    return mc_strdupf("%s/.%s.worker%d.json", o->out_dir, key, o->worker);
  return mc_strdupf("%s/%s.json", o->out_dir, key);
}

const char *mc_fuzz_shrink_cut_option(const mc_fuzz_finding *f) {
  switch (f->shrink_cut) {
  case MC_FUZZ_CUT_BY_SHRINK_TIME:
    return "--shrink-time";
  case MC_FUZZ_CUT_BY_TIME:
    return "--time";
  case MC_FUZZ_CUT_BY_TIMEOUT:
    return "--timeout";
  default:
    return NULL;
  }
}

/* A finding's case id: its key and a digest of its origin (implementation,
   seed, worker, run), so that the findings of two campaigns can be run
   together (issue 39: ids are unique across the files of a run). */
static void finding_id(mc_op op, const char *key, const char *origin, char *id, size_t size) {
  uint8_t digest[32];
  mc_sha256(origin, strlen(origin), digest);
  snprintf(id, size, "%s/findings/%s/%02x%02x%02x%02x", mc_op_clause_prefix(op), key, digest[0],
           digest[1], digest[2], digest[3]);
  for (char *p = id; *p; p++)
    *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
}

/* The case file of a finding: the shrunk request, the oracle's expectation. */
static bool write_finding(const mc_fuzz_options *o, const mc_owned_request *r, mc_fuzz_finding *f) {
  mc_fuzz_case fc;
  mc_fuzz_case_make(r, &fc);
  /* A cap other than movconf run's default goes in the case, so that the
     file replays as `movconf run --impl SPEC FILE` alone (issue 39). */
  const bool own_cap = r->max_output_bytes != MC_DEFAULT_MAX_OUTPUT_BYTES;
  char id[200], origin[800], cut[120] = "";
  if (mc_fuzz_shrink_cut_option(f))
    snprintf(cut, sizeof cut, ", cut short by %s (it may shrink further)",
             mc_fuzz_shrink_cut_option(f));
  snprintf(origin, sizeof origin,
           "movconf fuzz --impl '%s' --seed %" PRIu64 " (worker %d, run %" PRIu64
           "), shrunk in %d steps%s; expected %s computed by the movconf oracle (src/oracle)%s",
           o->impl_spec, o->seed, o->worker, f->run, f->shrink_steps, cut,
           fc.c.expect_error ? "error" : "output",
           own_cap ? " under the case's max_output_bytes" : "");
  finding_id(r->req.op, f->key, origin, id, sizeof id);
  mc_case_out c = {.id = id,
                   .origin = origin,
                   .req = &r->req,
                   .data_fill = r->data_fill,
                   .expect_error = fc.c.expect_error,
                   .error = fc.oracle_status,
                   .output = fc.c.expect_error ? NULL : &fc.c.expected.tensor,
                   .has_cap = own_cap,
                   .max_output_bytes = r->max_output_bytes,
                   /* A larger output is its digest: the runner still names the first
                      differing element, through the oracle's output. */
                   .max_inline_bytes = 4096};
  memcpy(&c.data_fill_param, &r->fill_start, sizeof c.data_fill_param);
  cite_clauses(&fc, &c);
  mc_text t = {0};
  mc_write_file_head(
      &t, r->req.op,
      "A finding of movconf fuzz, shrunk: re-run it with movconf run --impl SPEC FILE");
  mc_write_case(&t, &c);
  mc_text_printf(&t, "\n  ]\n}\n");
  f->file = finding_path(o, f->key);
  f->id = mc_strdupf("%s", id);
  bool ok = !t.oom && mc_make_dirs(o->out_dir) && mc_write_file_atomic(f->file, t.p, t.len);
  if (!ok) {
    free(f->file);
    f->file = NULL;
  }
  mc_text_free(&t);
  mc_fuzz_case_free(&fc);
  return ok;
}

/* For a failure that does not depend on the type: the narrowest of u8, u16
   and u32 whose index fill does not wrap, so that every data element is
   distinct and the runner can say which input element an output came from
   (taken when the failure keeps its cause; *detail and *o follow). */
static void make_index_readable(mc_impl *impl, mc_owned_request *r, char **detail,
                                mc_fuzz_outcome *o) {
  static const mc_type widths[] = {MC_U8, MC_U16, MC_U32};
  const mc_tensor *d = &r->tensors[0];
  int64_t n = mc_tensor_elements(d);
  char want[128];
  mc_fuzz_cause_key(r, o, want, sizeof want);
  for (size_t i = 0; i < sizeof widths / sizeof *widths; i++) {
    if (n > ((int64_t)1 << mc_type_bits(widths[i])))
      continue;
    if (d->type == widths[i] && r->data_fill == MC_PAYLOAD_FILL_COUNTER && r->fill_start == 0)
      return;
    mc_owned_request wider;
    if (!mc_owned_request_copy(&r->req, r->max_output_bytes, &wider))
      return;
    char *why = NULL;
    mc_fuzz_outcome got;
    if (same_cause_as(impl, &wider, widths[i], want, &why, &got)) {
      mc_owned_request_free(r);
      *r = wider;
      mc_owned_request_link(r);
      free(*detail);
      *detail = why;
      *o = got;
    } else {
      mc_owned_request_free(&wider);
      free(why);
    }
    return;
  }
}

/* The raw keys (cause and type, before shrinking) of the failures already
   shrunk: another failure with one of them is the same bug again, not
   worth the shrinking time. */
typedef struct tried_keys {
  char (*keys)[160];
  int n;
  /* The causes of s's findings (by index), and the findings whose shrink
     was cut short, held back until the campaign's end (pending_finding). */
  mc_fuzz_cause *causes;
  struct pending_finding *pending;
  int n_pending;
} tried_keys;

/* A finding whose shrink its time limit cut short: written at the end
   unless a finding whose shrink finished has its cause or a lesser one
   (its case then reproduces what this one shows, issue 39). */
typedef struct pending_finding {
  mc_owned_request r;
  char key[160];
  mc_fuzz_outcome v;
  mc_fuzz_cause cause;
  bool any_type;
  uint64_t run;
  int steps, cut_by;
  char *detail;
  mc_type type; /* of its data */
  bool written; /* at the end, as a finding of its own (settle_pending) */
} pending_finding;

static bool tried_before(tried_keys *t, const char *key) {
  for (int i = 0; i < t->n; i++)
    if (strcmp(t->keys[i], key) == 0)
      return true;
  t->keys = mc_realloc_or_abort(t->keys, (size_t)(t->n + 1) * sizeof *t->keys);
  snprintf(t->keys[t->n++], sizeof *t->keys, "%s", key);
  return false;
}

static void add_finding(mc_fuzz_stats *s, const mc_fuzz_options *o, const mc_owned_request *r,
                        const char *key, const mc_fuzz_outcome *v, bool any_type, uint64_t run,
                        int steps, int shrink_cut, char *detail) {
  s->findings = mc_realloc_or_abort(s->findings, (size_t)(s->n_findings + 1) * sizeof *s->findings);
  mc_fuzz_finding *f = &s->findings[s->n_findings++];
  *f = (mc_fuzz_finding){.op = r->req.op,
                         .verdict = v->verdict,
                         .type = r->tensors[0].type,
                         .any_type = any_type,
                         .rank = r->tensors[0].rank,
                         .run = run,
                         .shrink_steps = steps,
                         .shrink_cut = shrink_cut,
                         .detail = mc_safe_text(detail),
                         .max_output_bytes = r->max_output_bytes,
                         .found_at = mc_now_seconds()};
  free(detail);
  if (!s->first_finding_at)
    s->first_finding_at = f->found_at;
  snprintf(f->key, sizeof f->key, "%s", key);
  if (!write_finding(o, r, f))
    fprintf(stderr, "movconf fuzz: cannot write the finding %s under %s\n", key, o->out_dir);
}

static void hold_back(tried_keys *t, mc_owned_request *r, const char *key, const mc_fuzz_outcome *v,
                      bool any_type, uint64_t run, int steps, int cut_by, char *detail);

/* A failure that is no finding (what; detail: the implementation's words,
   made safe) is counted, and the first few are said: none is dropped
   unseen. */
static void note_no_finding(const mc_fuzz_options *o, mc_fuzz_stats *s, uint64_t run,
                            const char *what, const char *detail) {
  if (s->not_failing_again++ >= MC_FUZZ_NOT_AGAIN_SAID)
    return;
  char *safe = mc_safe_text(detail ? detail : "");
  fprintf(stderr, "movconf fuzz: run %" PRIu64 " (worker %d) %s: %s%s\n", run, o->worker, what,
          safe,
          s->not_failing_again == MC_FUZZ_NOT_AGAIN_SAID ? " (more such failures are counted only)"
                                                         : "");
  free(safe);
}

static void shrink_and_keep(mc_impl *impl, const mc_fuzz_options *o, mc_owned_request *r,
                            const mc_fuzz_outcome *seen, char *detail, uint64_t run,
                            mc_fuzz_stats *s, tried_keys *tried);

/* A failing request (seen: its outcome, detail: that run's): shrunk while
   it keeps its cause, keyed, and written unless a finding of the same key
   exists. */
static void record_failure(mc_impl *impl, const mc_fuzz_options *o, mc_owned_request *r,
                           const mc_fuzz_outcome *seen, char *detail, uint64_t run,
                           mc_fuzz_stats *s, tried_keys *tried) {
  char key[160];
  finding_key(r, seen, false, key, sizeof key);
  if (tried_before(tried, key)) {
    free(detail);
    return;
  }
  shrink_and_keep(impl, o, r, seen, detail, run, s, tried);
}

static void shrink_and_keep(mc_impl *impl, const mc_fuzz_options *o, mc_owned_request *r,
                            const mc_fuzz_outcome *seen, char *detail, uint64_t run,
                            mc_fuzz_stats *s, tried_keys *tried) {
  char key[160];
  /* At most half the campaign's time left, so that a cause found later
     gets its shrink too, a quarter for a timeout, whose every step may
     take a --timeout (issue 39). */
  const double now = mc_now_seconds();
  const double share = seen->verdict == MC_VERDICT_TIMEOUT ? 4 : 2;
  double deadline = now + o->shrink_seconds;
  int cut_by = MC_FUZZ_CUT_BY_SHRINK_TIME;
  if (o->stop_at > 0 && now + (o->stop_at - now) / share < deadline) {
    deadline = now + (o->stop_at - now) / share;
    cut_by = MC_FUZZ_CUT_BY_TIME;
  }
  const double calls = MC_FUZZ_TIMEOUT_SHRINK_CALLS * impl->options.timeout_seconds;
  if (seen->verdict == MC_VERDICT_TIMEOUT && calls > 0 && now + calls < deadline) {
    deadline = now + calls;
    cut_by = MC_FUZZ_CUT_BY_TIMEOUT;
  }
  char *shrunk_detail = NULL;
  mc_fuzz_outcome v;
  bool cut_short;
  int steps = mc_fuzz_shrink(impl, r, deadline, &shrunk_detail, &v, &cut_short);
  if (v.out_of_time) { /* not even judged again: what the campaign saw stands */
    free(shrunk_detail);
    v = *seen;
    steps = 0;
  } else if (!mc_verdict_is_failure(v.verdict)) {
    char what[96];
    snprintf(what, sizeof what, "failed (%s) but not when judged again: no finding",
             mc_verdict_name(seen->verdict));
    note_no_finding(o, s, run, what, detail);
    free(detail);
    free(shrunk_detail);
    return;
  } else {
    free(detail);
    detail = shrunk_detail;
  }
  /* A shrink cut short has had its time: its type is not probed (two more
     runs of what may be a large request). */
  bool any_type = !cut_short && type_independent(impl, r, &v);
  if (any_type)
    make_index_readable(impl, r, &detail, &v);
  finding_key(r, &v, any_type, key, sizeof key);
  if (known_finding(s, key)) {
    free(detail);
    return;
  }
  if (cut_short) {
    hold_back(tried, r, key, &v, any_type, run, steps, cut_by, detail);
    return;
  }
  tried->causes =
      mc_realloc_or_abort(tried->causes, (size_t)(s->n_findings + 1) * sizeof *tried->causes);
  mc_fuzz_cause_of(r, &v, &tried->causes[s->n_findings]);
  add_finding(s, o, r, key, &v, any_type, run, steps, MC_FUZZ_SHRINK_DONE, detail);
}

/* Holds a finding cut short back (taking r's request and detail). */
static void hold_back(tried_keys *t, mc_owned_request *r, const char *key, const mc_fuzz_outcome *v,
                      bool any_type, uint64_t run, int steps, int cut_by, char *detail) {
  t->pending = mc_realloc_or_abort(t->pending, (size_t)(t->n_pending + 1) * sizeof *t->pending);
  pending_finding *p = &t->pending[t->n_pending++];
  *p = (pending_finding){.r = *r,
                         .v = *v,
                         .any_type = any_type,
                         .run = run,
                         .steps = steps,
                         .cut_by = cut_by,
                         .detail = detail};
  mc_owned_request_link(&p->r);
  mc_fuzz_cause_of(&p->r, v, &p->cause);
  p->type = p->r.tensors[0].type;
  snprintf(p->key, sizeof p->key, "%s", key);
  memset(r, 0, sizeof *r); /* moved */
}

/* Whether finding i of s (its shrink finished) stands for p: the same
   cause or a lesser one, and a type part that covers p's. */
static bool stands_for(const mc_fuzz_stats *s, const tried_keys *t, int i,
                       const pending_finding *p) {
  const mc_fuzz_finding *f = &s->findings[i];
  bool type_covered = f->any_type || (!p->any_type && f->type == p->r.tensors[0].type);
  return f->shrink_cut == MC_FUZZ_SHRINK_DONE && type_covered &&
         mc_fuzz_cause_kept(&p->cause, &t->causes[i]);
}

/* Whether q, a finding cut short and written, stands for p: the same
   cause or a lesser one, and a type part that covers p's. */
static bool pending_stands_for(const pending_finding *q, const pending_finding *p) {
  bool type_covered = q->any_type || (!p->any_type && q->type == p->type);
  return q->written && type_covered && mc_fuzz_cause_kept(&p->cause, &q->cause);
}

/* Lesser causes first: lower rank, size class, fewer inputs not neutral. */
static int by_lesser_cause(const void *a, const void *b) {
  const mc_fuzz_cause *x = &((const pending_finding *)a)->cause;
  const mc_fuzz_cause *y = &((const pending_finding *)b)->cause;
  if (x->rank != y->rank)
    return x->rank - y->rank;
  if (x->size_class != y->size_class)
    return x->size_class - y->size_class;
  return __builtin_popcount(x->not_neutral) - __builtin_popcount(y->not_neutral);
}

/* At the campaign's end: each finding cut short is merged into a finished
   one that stands for it, or into one cut short written before it (lesser
   causes first: when no shrink finished, one bug is still one finding
   per cause, not one per rank, issue 39), else written (once per key). */
static void settle_pending(const mc_fuzz_options *o, mc_fuzz_stats *s, tried_keys *t) {
  const int finished = s->n_findings;
  if (t->n_pending > 1)
    qsort(t->pending, (size_t)t->n_pending, sizeof *t->pending, by_lesser_cause);
  for (int k = 0; k < t->n_pending; k++) {
    pending_finding *p = &t->pending[k];
    mc_owned_request_link(&p->r); /* the array may have moved since */
    bool merged = known_finding(s, p->key) != NULL;
    for (int i = 0; i < finished && !merged; i++)
      merged = stands_for(s, t, i, p);
    for (int j = 0; j < k && !merged; j++)
      merged = pending_stands_for(&t->pending[j], p);
    p->written = !merged;
    if (merged) {
      s->merged_cut_short++;
      free(p->detail);
    } else {
      add_finding(s, o, &p->r, p->key, &p->v, p->any_type, p->run, p->steps, p->cut_by, p->detail);
    }
    mc_owned_request_free(&p->r);
  }
  free(t->pending);
  free(t->causes);
}

/* The requests the campaign judged last, kept while the process that ran
   them serves on: a late fault of one of their calls that arrives later (a
   thread's write to an output after its call returned, which a loaded
   machine may run several calls late) is charged to its request. */
typedef struct held_request {
  mc_owned_request r;
  mc_fuzz_outcome v;
  uint64_t run, first_call, last_call;
} held_request;

typedef struct held_requests {
  held_request h[MC_FUZZ_HELD_REQUESTS]; /* oldest first */
  int n;
  size_t bytes; /* of their tensors */
} held_requests;

static size_t request_bytes(const mc_owned_request *r) {
  size_t n = 0;
  for (int i = 0; i < r->req.n_inputs; i++)
    n += r->tensors[i].nbytes;
  return n;
}

static void drop_oldest(held_requests *k) {
  k->bytes -= request_bytes(&k->h[0].r);
  mc_owned_request_free(&k->h[0].r);
  memmove(&k->h[0], &k->h[1], (size_t)(k->n - 1) * sizeof k->h[0]);
  k->n--;
  for (int i = 0; i < k->n; i++)
    mc_owned_request_link(&k->h[i].r);
}

static void release_held(held_requests *k) {
  while (k->n > 0)
    drop_oldest(k);
}

/* Keeps r (moved) as the request judged last, calls first..last; the
   oldest go when the count or the bytes would pass their bounds. */
static void hold(held_requests *k, mc_owned_request *r, const mc_fuzz_outcome *v, uint64_t run,
                 uint64_t first, uint64_t last) {
  const size_t bytes = request_bytes(r);
  while (k->n > 0 && (k->n == MC_FUZZ_HELD_REQUESTS || k->bytes + bytes > MC_FUZZ_HELD_BYTES))
    drop_oldest(k);
  k->h[k->n] = (held_request){.r = *r, .v = *v, .run = run, .first_call = first, .last_call = last};
  mc_owned_request_link(&k->h[k->n++].r);
  k->bytes += bytes;
  memset(r, 0, sizeof *r); /* moved */
}

/* The held request that made call `call`, or NULL. */
static held_request *held_for_call(held_requests *k, uint64_t call) {
  for (int i = 0; i < k->n; i++)
    if (call >= k->h[i].first_call && call <= k->h[i].last_call)
      return &k->h[i];
  return NULL;
}

/* Once a late fault was seen: each call from then on has a process of its
   own, ended (and waited for) after it, as `show` and a culprit's re-run
   do, so that a late fault is its own request's (spec/runner.md, "Faults
   that surface later"). Said once. */
static void process_per_call(mc_impl *impl, const mc_fuzz_options *o, mc_fuzz_stats *s) {
  if (s->process_per_call || !impl->restart)
    return;
  s->process_per_call = true;
  impl->options.fresh_process_per_case = true;
  fprintf(stderr,
          "movconf fuzz: worker %d: the implementation faulted after a call returned (a late "
          "write): from now on each call has a process of its own (slower), so that such a "
          "fault is charged to the request that made it\n",
          o->worker);
}

/* A late fault of call `blamed` (detail: its message) arrived after its
   call: when the call was a held request's, that request failed (a
   crash), shrunk and written as any failure; else (a call of a shrink, or
   one too far back) no request can be told, and it is counted and said. */
static void charge_late(mc_impl *impl, const mc_fuzz_options *o, uint64_t blamed,
                        const char *detail, held_requests *k, mc_fuzz_stats *s, tried_keys *t) {
  process_per_call(impl, o, s);
  impl->restart(impl); /* what the process still ran is not the held requests' */
  held_request *h = held_for_call(k, blamed);
  if (!h) {
    note_no_finding(o, s, s->runs ? s->runs - 1 : 0,
                    "received a late fault of an earlier call whose request is no longer known",
                    detail);
    release_held(k);
    return;
  }
  mc_fuzz_outcome seen = h->v;
  seen.verdict = MC_VERDICT_CRASH;
  seen.late = true;
  seen.blamed_call = 0;
  s->failures++;
  s->failures_by_op[h->r.req.op]++;
  record_failure(impl, o, &h->r, &seen, mc_strdupf("%s", detail), h->run, s, t);
  release_held(k); /* their process is gone */
}

/* At the campaign's end: a late fault of the last calls, charged too. */
static void settle_last(mc_impl *impl, const mc_fuzz_options *o, held_requests *k, mc_fuzz_stats *s,
                        tried_keys *t) {
  mc_impl_result late;
  memset(&late, 0, sizeof late);
  if (impl->settle && impl->restart && impl->settle(impl, &late) && late.blame_call)
    charge_late(impl, o, late.blame_call, late.message, k, s, t);
  release_held(k);
}

/* pending: the findings held back (cut short), which count too. */
static bool campaign_over(const mc_fuzz_options *o, const mc_fuzz_stats *s, int pending) {
  if (o->runs > 0 && s->runs >= o->runs)
    return true;
  if (o->max_findings > 0 && s->n_findings + pending >= o->max_findings)
    return true;
  if (o->stop_flag && *o->stop_flag)
    return true;
  return mc_stop_passed(o->stop_at);
}

void mc_fuzz_campaign(const mc_fuzz_options *o, mc_impl *impl, mc_fuzz_stats *s,
                      void (*progress)(void *ctx, const mc_fuzz_stats *s), void *ctx) {
  mc_rng g = {o->seed * 0x9E3779B97F4A7C15u + (uint64_t)o->worker, 0};
  tried_keys tried = {0};
  held_requests held = {0};
  ask_claims(o, impl, s);
  while (!campaign_over(o, s, tried.n_pending)) {
    mc_owned_request r;
    bool large;
    if (!next_request(&g, o, impl, s, &r, &large)) {
      s->discarded++;
      continue;
    }
    uint64_t run = s->runs++;
    s->runs_by_op[r.req.op]++;
    s->large_runs += large;
    char *detail = NULL;
    mc_fuzz_outcome v;
    const double started = mc_now_seconds();
    const uint64_t first_call = impl->calls + 1;
    mc_fuzz_judge(impl, &r, &detail, &v);
    const uint64_t last_call = impl->calls;
    const double took = mc_now_seconds() - started;
    if (v.late)
      process_per_call(impl, o, s);
    if (v.blamed_call && impl->restart)
      charge_late(impl, o, v.blamed_call, v.blamed_detail, &held, s, &tried);
    const double bytes = large ? bytes_moved(&r, &v) : 0;
    s->run_seconds += took;
    s->large_seconds += large ? took : 0;
    s->large_bytes += bytes;
    if (large && v.verdict == MC_VERDICT_TIMEOUT) {
      s->large_timeouts++;
      if (!s->large_timeout_bytes || bytes < s->large_timeout_bytes)
        s->large_timeout_bytes = bytes;
    }
    if (v.out_of_time) {
      s->runs--; /* cut short by --time: not a run */
      s->runs_by_op[r.req.op]--;
      s->large_runs -= large;
    } else if (v.verdict == MC_VERDICT_UNSUPPORTED) {
      s->unsupported++;
      s->unsupported_by_op[r.req.op]++;
    } else if (mc_verdict_is_failure(v.verdict)) {
      s->failures++;
      s->failures_by_op[r.req.op]++;
      /* No restart after the shrink (one per failure halved the runs of a
         campaign against a buggy plugin): a late fault of a shrink's call
         names that call, which no held request made, so it is counted and
         said (charge_late), never charged to the next request. */
      record_failure(impl, o, &r, &v, detail, run, s, &tried);
      detail = NULL;
    }
    free(detail);
    if (!v.out_of_time && last_call == impl->calls)
      hold(&held, &r, &v, run, first_call, last_call);
    mc_owned_request_free(&r);
    if (progress)
      progress(ctx, s);
  }
  settle_last(impl, o, &held, s, &tried);
  settle_pending(o, s, &tried);
  free(tried.keys);
}

void mc_fuzz_stats_free(mc_fuzz_stats *s) {
  for (int i = 0; i < s->n_findings; i++) {
    free(s->findings[i].file);
    free(s->findings[i].id);
    free(s->findings[i].detail);
  }
  free(s->findings);
  memset(s, 0, sizeof *s);
}
