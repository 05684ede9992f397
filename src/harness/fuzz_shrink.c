/* Shrinking a failing request to a small readable one that fails the same
   way (like Hypothesis or QuickCheck): greedy, one simplification at a time
   - index-filled data, a simpler element type, fewer axes, smaller
   dimensions, blocks, crops, pads and attributes toward 1 or 0 - keeping a
   step only when the implementation still gets the same verdict on a case
   the oracle judges the same way (same expected error, or an output). */
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "harness/fuzz_request.h"
#include "movconf/tensor.h"

/* What a failure must keep to count as the same one. */
typedef struct signature {
  mc_verdict verdict;
  mc_status expected; /* the oracle's status: MC_OK or the error it expects */
} signature;

static signature signature_of(mc_impl *impl, const mc_owned_request *r, char **detail) {
  signature s;
  s.verdict = mc_fuzz_judge(impl, r, detail, &s.expected);
  return s;
}

/* A copy of r to change, keeping how its data was made. */
static bool clone(const mc_owned_request *r, mc_owned_request *out) {
  if (!mc_owned_request_copy(&r->req, r->max_output_bytes, out))
    return false;
  out->data_fill = r->data_fill;
  out->fill_start = r->fill_start;
  return true;
}

/* New index-filled data of this type and shape (the fill's start kept). */
static bool refill(mc_owned_request *r, mc_type type, int rank, const int64_t *shape) {
  int64_t start = r->data_fill == MC_PAYLOAD_FILL_COUNTER ? r->fill_start : 0;
  return mc_owned_request_set_data(r, type, rank, shape, start);
}

/* ---- the moves: each changes r in its variant k, or says it does not apply ---- */

static bool data_from_zero(mc_owned_request *r, int k) {
  const mc_tensor *d = &r->tensors[0];
  if (k > 0 || (r->data_fill == MC_PAYLOAD_FILL_COUNTER && r->fill_start == 0))
    return false;
  mc_tensor shape_of = *d;
  return mc_owned_request_set_data(r, d->type, shape_of.rank, shape_of.shape, 0);
}

static bool simpler_type(mc_owned_request *r, int k) {
  static const mc_type order[] = {MC_U8, MC_I8, MC_U16, MC_F16, MC_U32, MC_F32};
  const mc_tensor *d = &r->tensors[0];
  if (k >= (int)(sizeof order / sizeof *order) || d->type == order[k])
    return false;
  for (int i = 0; i < k; i++)
    if (d->type == order[i])
      return false; /* already simpler */
  mc_tensor shape_of = *d;
  return refill(r, order[k], shape_of.rank, shape_of.shape);
}

/* Removes element k of a 1-D side input. */
static bool drop_side_element(mc_tensor *t, int k) {
  int64_t n = mc_tensor_elements(t);
  if (t->rank != 1 || k >= n)
    return false;
  mc_tensor smaller;
  int64_t shape[1] = {n - 1};
  if (mc_tensor_alloc(&smaller, t->type, 1, shape, (size_t)-1) != MC_OK)
    return false;
  for (int64_t i = 0, j = 0; i < n; i++)
    if (i != k)
      mc_copy_element(smaller.data, j++, t->data, i, t->type);
  mc_tensor_free(t);
  *t = smaller;
  return true;
}

static bool drop_axis(mc_owned_request *r, int k) {
  const mc_tensor *d = &r->tensors[0];
  int min_rank = r->req.op == MC_OP_EXTRACT_IMAGE_PATCHES                                   ? 4
                 : (r->req.op == MC_OP_SPACE_TO_DEPTH || r->req.op == MC_OP_DEPTH_TO_SPACE) ? 3
                                                                                            : 2;
  if (d->rank <= min_rank || k >= d->rank)
    return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank = 0;
  for (int a = 0; a < d->rank; a++)
    if (a != k)
      shape[rank++] = d->shape[a];
  for (int i = 1; i < r->req.n_inputs; i++)
    if (!drop_side_element(&r->tensors[i], k))
      return false;
  mc_type type = d->type;
  return refill(r, type, rank, shape);
}

/* Dimension k/3 of the data to 1, to half, or one less (k%3 says which). */
static bool smaller_dim(mc_owned_request *r, int k) {
  const mc_tensor *d = &r->tensors[0];
  int axis = k / 3;
  if (axis >= d->rank)
    return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  memcpy(shape, d->shape, sizeof shape);
  int64_t was = shape[axis];
  int64_t want[3] = {1, was / 2, was - 1};
  if (want[k % 3] >= was || want[k % 3] < 0 || (k % 3 == 2 && was <= 2))
    return false;
  shape[axis] = want[k % 3];
  mc_type type = d->type;
  int rank = d->rank;
  return refill(r, type, rank, shape);
}

/* Element k/2 of the side inputs counted one after another (block_shape,
   then crops or pads) toward 1 (blocks) or 0 (crops, pads) for even k, or
   halved for odd k. */
static bool smaller_side_value(mc_owned_request *r, int k) {
  int variant = k % 2, flat = k / 2;
  for (int i = 1; i < r->req.n_inputs; i++) {
    mc_tensor *t = &r->tensors[i];
    int64_t n = mc_tensor_elements(t);
    if (flat >= n) {
      flat -= (int)n;
      continue;
    }
    int64_t v;
    if (!mc_side_value(t, flat, &v))
      return false;
    int64_t floor_value = i == 1 ? 1 : 0;
    int64_t want = variant == 0 ? floor_value : v / 2;
    if (v <= floor_value || want >= v || want < floor_value)
      return false;
    mc_store_bits(t->data, t->type, flat, (uint64_t)want);
    return true;
  }
  return false;
}

/* Attribute value k/2 (block_size, then the list elements, in the
   attribute table's order) toward 1 for even k, or halved for odd k. */
static bool smaller_attribute(mc_owned_request *r, int k) {
  int variant = k % 2, flat = k / 2;
  mc_attrs *a = &r->req.attrs;
  for (int i = 0; i < mc_op_attr_count(r->req.op); i++) {
    mc_attr id = mc_op_attr(r->req.op, i);
    int64_t *slot = NULL;
    if (mc_attr_kind_of(id) == MC_ATTR_KIND_INT && mc_attrs_present(a, id) && flat-- == 0)
      slot = &a->block_size;
    if (mc_attr_kind_of(id) == MC_ATTR_KIND_INT_LIST) {
      mc_int_list *l = mc_attrs_list_slot(a, id);
      int n = l->count < 0 ? 0 : l->count > MC_MAX_ATTR_LEN ? MC_MAX_ATTR_LEN : l->count;
      if (flat < n)
        slot = &l->v[flat];
      flat -= n;
    }
    if (!slot)
      continue;
    int64_t want = variant == 0 ? 1 : *slot / 2;
    if (*slot <= 1 || want >= *slot || want < 1)
      return false;
    *slot = want;
    return true;
  }
  return false;
}

typedef bool (*move_fn)(mc_owned_request *r, int k);

static const struct {
  move_fn apply;
  int variants;
} moves[] = {
    {data_from_zero, 1},
    {simpler_type, 6},
    {drop_axis, MC_TENSOR_MAX_RANK},
    {smaller_dim, 3 * MC_TENSOR_MAX_RANK},
    {smaller_side_value, 2 * 4 * MC_TENSOR_MAX_RANK},
    {smaller_attribute, 2 * (1 + 3 * MC_MAX_ATTR_LEN)},
};

int mc_fuzz_shrink(mc_impl *impl, mc_owned_request *r, double seconds, char **detail) {
  char *first = NULL;
  signature want = signature_of(impl, r, &first);
  *detail = first;
  double deadline = mc_now_seconds() + seconds;
  int steps = 0;
  bool progress = true;
  while (progress && mc_now_seconds() < deadline) {
    progress = false;
    for (size_t m = 0; m < sizeof moves / sizeof *moves; m++) {
      for (int k = 0; k < moves[m].variants && mc_now_seconds() < deadline; k++) {
        mc_owned_request cand;
        if (!clone(r, &cand))
          return steps;
        char *why = NULL;
        bool same = false;
        if (moves[m].apply(&cand, k)) {
          signature got = signature_of(impl, &cand, &why);
          same = got.verdict == want.verdict && got.expected == want.expected;
        }
        if (same) {
          mc_owned_request_free(r);
          *r = cand;
          mc_owned_request_link(r);
          free(*detail);
          *detail = why;
          steps++;
          progress = true;
        } else {
          mc_owned_request_free(&cand);
          free(why);
        }
      }
    }
  }
  return steps;
}
