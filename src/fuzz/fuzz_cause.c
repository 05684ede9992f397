/* What a failure of `movconf fuzz` shows about its cause, as a key: two
   failures with different keys are two findings (issue 21). The shrinker
   keeps a failure's cause (mc_fuzz_cause_kept, as Hypothesis does), so
   that one bug cannot slide into another while it is minimised. */
#include <stdio.h>
#include <string.h>

#include "cases/bytes/fuzz_bytes.h"
#include "common/text.h"
#include "fuzz/fuzz_ops.h"
#include "movconf/tensor.h"

/* The output sizes where real kernels change path (thread splits,
   blocking, 32-bit index arithmetic): a failure's class is the largest
   threshold its output reaches. */
static const int size_thresholds[] = {0, 12, 16, 20}; /* log2 of elements */
static const char *const size_names[] = {"small", "4ki+", "64ki+", "1mi+"};

static int size_class(int64_t elements) {
  int c = 0;
  for (int i = 1; i < 4; i++)
    if (elements >= (int64_t)1 << size_thresholds[i])
      c = i;
  return c;
}

/* The operation's own rule (its descriptor's side_neutral); an operation
   without one has no side input that can be neutral. */
static bool side_input_neutral(const mc_owned_request *r, int input) {
  const mc_fuzz_op_desc *op = mc_fuzz_op_of(r->req.op);
  return op && op->side_neutral && op->side_neutral(r, input);
}

const char *mc_fuzz_neutral_string(mc_op op, mc_attr id) {
  return mc_bytes_neutral_spelling(op, id);
}

bool mc_fuzz_attribute_neutral(mc_op op, const mc_attrs *a, mc_attr id) {
  if (!mc_attrs_present(a, id))
    return true;
  switch (mc_attr_kind_of(id)) {
  case MC_ATTR_KIND_INT:
    return mc_attrs_int(a, id) == 1;
  case MC_ATTR_KIND_STRING: {
    const char *neutral = mc_fuzz_neutral_string(op, id);
    return neutral && strcmp(mc_attrs_string(a, id), neutral) == 0;
  }
  case MC_ATTR_KIND_INT_LIST: {
    const mc_int_list *l = mc_attrs_list(a, id);
    for (int i = 0; i < l->count && i < MC_MAX_ATTR_LEN; i++)
      if (l->v[i] != 1)
        return false;
    return true;
  }
  }
  return true;
}

/* What a wrong output looks like: elements that still hold the output
   buffer's fill (the implementation never wrote them) or that came from
   elsewhere. Unknown for elements narrower than a byte, whose few values
   the fill's bits share with the data. */
static mc_fuzz_mismatch mismatch_of(const mc_owned_request *r, const mc_fuzz_outcome *o) {
  if (o->verdict != MC_VERDICT_WRONG_OUTPUT || mc_type_bits(r->tensors[0].type) < 8)
    return MC_FUZZ_MISMATCH_UNKNOWN;
  return o->unwritten ? MC_FUZZ_MISMATCH_UNWRITTEN : MC_FUZZ_MISMATCH_MISPLACED;
}

int mc_fuzz_side_types(const mc_owned_request *r) {
  int types = MC_FUZZ_SIDES_I64;
  for (int i = 1; i < r->req.n_inputs; i++) {
    const int t = (int)r->tensors[i].type;
    if (i > 1 && t != (int)r->tensors[1].type)
      return MC_FUZZ_SIDES_MIXED;
    types = t == MC_I64 ? MC_FUZZ_SIDES_I64 : t;
  }
  return types;
}

/* Whether side types now are no more than was, in the order i64, i32 (for
   any one type: a failure of narrow side inputs), one other type, mixed:
   a step may go down that order, to another single type only by i32. */
static bool side_types_kept(int was, int now) {
  if (now == MC_FUZZ_SIDES_I64 || now == was || was == MC_FUZZ_SIDES_MIXED)
    return true;
  return now == MC_I32 && was != MC_FUZZ_SIDES_I64;
}

void mc_fuzz_cause_of(const mc_owned_request *r, const mc_fuzz_outcome *o, mc_fuzz_cause *c) {
  memset(c, 0, sizeof *c);
  mc_finding_key(r->req.op, o->verdict, o->expected, c->exact, sizeof c->exact);
  c->mismatch = mismatch_of(r, o);
  const mc_tensor *data = &r->tensors[0];
  c->rank = data->rank;
  c->side_types = mc_fuzz_side_types(r);
  c->size_class =
      size_class(o->output_elements >= 0 ? o->output_elements : mc_tensor_elements(data));
  for (int i = 1; i < r->req.n_inputs; i++)
    if (!side_input_neutral(r, i))
      c->not_neutral |= 1u << i;
  const mc_fuzz_op_desc *op = mc_fuzz_op_of(r->req.op);
  for (int i = 0; i < mc_op_attr_count(r->req.op); i++) {
    const mc_attr id = mc_op_attr(r->req.op, i);
    if (!(op && op->attribute_neutral ? op->attribute_neutral(r, id)
                                      : mc_fuzz_attribute_neutral(r->req.op, &r->req.attrs, id)))
      c->not_neutral |= 1u << (MC_MAX_INPUTS + i);
  }
}

bool mc_fuzz_cause_kept(const mc_fuzz_cause *was, const mc_fuzz_cause *now) {
  bool same_mismatch = was->mismatch == MC_FUZZ_MISMATCH_UNKNOWN || now->mismatch == was->mismatch;
  return strcmp(was->exact, now->exact) == 0 && same_mismatch && now->rank <= was->rank &&
         now->size_class <= was->size_class && side_types_kept(was->side_types, now->side_types) &&
         (now->not_neutral & ~was->not_neutral) == 0;
}

void mc_fuzz_cause_key(const mc_owned_request *r, const mc_fuzz_outcome *o, char *key,
                       size_t size) {
  mc_fuzz_cause c;
  mc_fuzz_cause_of(r, o, &c);
  mc_text t = {0};
  static const char *const mismatches[] = {"", "-unwritten", "-misplaced"};
  mc_text_printf(&t, "%s%s-rank%d-%s", c.exact, mismatches[c.mismatch], c.rank,
                 size_names[c.size_class]);
  if (c.side_types == MC_FUZZ_SIDES_MIXED)
    mc_text_printf(&t, "-sides-mixed");
  else if (c.side_types != MC_FUZZ_SIDES_I64)
    mc_text_printf(&t, "-sides-%s", mc_type_name((mc_type)c.side_types));
  for (int i = 1; i < r->req.n_inputs; i++)
    if (c.not_neutral & (1u << i))
      mc_text_printf(&t, "-%s", mc_op_input_name(r->req.op, i));
  for (int i = 0; i < mc_op_attr_count(r->req.op); i++)
    if (c.not_neutral & (1u << (MC_MAX_INPUTS + i)))
      mc_text_printf(&t, "-%s", mc_attr_name(mc_op_attr(r->req.op, i)));
  snprintf(key, size, "%s", t.oom ? "unknown" : t.p);
  mc_text_free(&t);
}
