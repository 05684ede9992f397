/* movconf fuzz: StridedSlice-1's large requests and shrinking moves. An
   entry of begin, end and stride is one index expression (spec SS-S1): bit
   i of each mask goes with entry i, so that an entry dropped takes its
   bits along and the later bits follow it. */
#include "fuzz/fuzz_ops.h"
#include "movconf/tensor.h"

enum { BEGIN = 1, END, STRIDE };
/* Entries the shrinking moves look at: a side input holds at most 64. */
enum { MAX_ENTRIES = 64 };
enum { N_MASKS = 5 };
static const mc_attr mask_ids[N_MASKS] = {MC_ATTR_BEGIN_MASK, MC_ATTR_END_MASK,
                                          MC_ATTR_NEW_AXIS_MASK, MC_ATTR_SHRINK_AXIS_MASK,
                                          MC_ATTR_ELLIPSIS_MASK};

/* Output [n, c, h, w] (w at the kernels' widths) from data with a margin
   of one element each side of w: n whole by masks, c by its bounds, h
   reversed by masks (a negative stride's masked end reads element 0), w
   from 1 forwards or from w backwards, drawn. */
static bool large(mc_rng *g, mc_owned_request *r, mc_type type, int64_t target) {
  int64_t out[4] = {mc_fuzz_pick(g, MC_FUZZ_OUTER), mc_fuzz_pick(g, MC_FUZZ_CHANNELS), 0,
                    mc_fuzz_pick(g, MC_FUZZ_INNER)};
  out[2] = mc_fuzz_rows_for(target, out[0], out[1], out[3]);
  const bool backwards = mc_rng_below(g, 2) == 0;
  const int64_t shape[4] = {out[0], out[1], out[2], out[3] + 2};
  const int64_t begin[4] = {0, 0, 0, backwards ? out[3] : 1};
  const int64_t end[4] = {0, out[1], 0, backwards ? 0 : out[3] + 1};
  const int64_t stride[4] = {1, 1, -1, backwards ? -1 : 1};
  const mc_int_list masks = {.count = 3, .v = {1, 0, 1}};
  mc_attrs_set_list(&r->req.attrs, MC_ATTR_BEGIN_MASK, &masks);
  mc_attrs_set_list(&r->req.attrs, MC_ATTR_END_MASK, &masks);
  r->req.n_inputs = 4;
  return mc_fuzz_side_input(r, BEGIN, begin) && mc_fuzz_side_input(r, END, end) &&
         mc_fuzz_side_input(r, STRIDE, stride) && mc_fuzz_large_data(g, r, type, shape);
}

/* ---- shrinking ---- */

typedef enum entry_kind { ORDINARY, SHRINK, NEW_AXIS, ELLIPSIS } entry_kind;

/* Bit i of mask id of r (SS-S1: 0 past the list's end). */
static bool bit(const mc_owned_request *r, mc_attr id, int64_t i) {
  const mc_int_list *l = mc_attrs_list(&r->req.attrs, id);
  return i < l->count && i < MC_MAX_ATTR_LEN && l->v[i] != 0;
}

/* Entry i's kind, by the first bit set (SS-S1). */
static entry_kind kind_of(const mc_owned_request *r, int64_t i) {
  return bit(r, MC_ATTR_ELLIPSIS_MASK, i)      ? ELLIPSIS
         : bit(r, MC_ATTR_NEW_AXIS_MASK, i)    ? NEW_AXIS
         : bit(r, MC_ATTR_SHRINK_AXIS_MASK, i) ? SHRINK
                                               : ORDINARY;
}

static int64_t entries(const mc_owned_request *r) {
  return mc_tensor_elements(&r->tensors[BEGIN]);
}

/* The walk of SS-S2: the data axis entry i reads in axis_of[i] (-1: a new
   axis or the ellipsis). False when it is not defined: begin not 1-D or
   longer than MAX_ENTRIES, a mask longer than the attribute holds, two
   ellipses, more indexing entries than data axes. */
static bool walk(const mc_owned_request *r, int axis_of[MAX_ENTRIES]) {
  const int64_t m = entries(r), rank = r->tensors[0].rank;
  int64_t indexing = 0, ellipses = 0;
  if (r->tensors[BEGIN].rank != 1 || m > MAX_ENTRIES)
    return false;
  for (int k = 0; k < N_MASKS; k++)
    if (mc_attrs_list(&r->req.attrs, mask_ids[k])->count > MC_MAX_ATTR_LEN)
      return false;
  for (int64_t i = 0; i < m; i++) {
    const entry_kind kind = kind_of(r, i);
    indexing += kind == ORDINARY || kind == SHRINK;
    ellipses += kind == ELLIPSIS;
  }
  if (ellipses > 1 || indexing > rank)
    return false;
  int64_t k = 0;
  for (int64_t i = 0; i < m; i++) {
    const entry_kind kind = kind_of(r, i);
    axis_of[i] = kind == ORDINARY || kind == SHRINK ? (int)k : -1;
    k += kind == ELLIPSIS ? rank - indexing : kind == NEW_AXIS ? 0 : 1;
  }
  return true;
}

/* Removes entry i: its element of begin, end and stride, and its bit of
   every mask (the later bits move down with their entries). */
static bool drop_entry(mc_owned_request *r, int64_t i) {
  for (int k = BEGIN; k < r->req.n_inputs; k++)
    if (!mc_fuzz_drop_side_element(&r->tensors[k], (int)i))
      return false;
  for (int k = 0; k < N_MASKS; k++) {
    mc_int_list *l = mc_attrs_list_slot(&r->req.attrs, mask_ids[k]);
    if (l->count > MC_MAX_ATTR_LEN)
      return false;
    if (i >= l->count)
      continue;
    for (int j = (int)i; j + 1 < l->count; j++)
      l->v[j] = l->v[j + 1];
    l->count--;
  }
  mc_owned_request_link(r);
  return true;
}

/* Without data axis k: the entry that reads it goes with its bits; an axis
   the ellipsis or the end of the entries keeps whole takes nothing along
   (the ellipsis then stands for one axis fewer). */
static bool drop_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  int axis_of[MAX_ENTRIES];
  if (!walk(cur, axis_of) || !mc_fuzz_clone(cur, cand))
    return false;
  for (int64_t i = 0; i < entries(cur); i++)
    if (axis_of[i] == k && !drop_entry(cand, i)) {
      mc_owned_request_free(cand);
      return false;
    }
  return true;
}

/* Entry k goes with its bits, whatever its kind: a new axis or a shrink
   less, or the axis of an ordinary entry (and those after it) read whole. */
static bool drop_entry_move(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  if (cur->tensors[BEGIN].rank != 1 || k >= entries(cur) || !mc_fuzz_clone(cur, cand))
    return false;
  if (!drop_entry(cand, k)) {
    mc_owned_request_free(cand);
    return false;
  }
  return true;
}

/* A stride of ones goes (absent means all ones, errata E68). */
static bool drop_unit_stride(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *t = &cur->tensors[STRIDE];
  if (k > 0 || cur->req.n_inputs <= STRIDE || !mc_type_is_side_integer(t->type) || t->rank != 1)
    return false;
  for (int64_t i = 0; i < mc_tensor_elements(t); i++) {
    int64_t v;
    if (!mc_side_value(t, i, &v) || v != 1)
      return false;
  }
  if (!mc_fuzz_clone(cur, cand))
    return false;
  mc_tensor_free(&cand->tensors[STRIDE]);
  cand->req.n_inputs = STRIDE;
  mc_owned_request_link(cand);
  return true;
}

/* Entry i's stride (1 when stride is absent); false when unreadable. */
static bool stride_at(const mc_owned_request *r, int64_t i, int64_t *s) {
  *s = 1;
  return r->req.n_inputs <= STRIDE || mc_side_value(&r->tensors[STRIDE], i, s);
}

/* Bit k % MC_MAX_ATTR_LEN of mask k / MC_MAX_ATTR_LEN cleared. A begin or
   end bit of an ordinary entry hands its meaning to the bound: 0 or d
   forwards, -1 or -d - 1 backwards (SS-S3), when the bound's type holds it. */
static bool clear_bit(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_attr id = mask_ids[k / MC_MAX_ATTR_LEN];
  const int i = k % MC_MAX_ATTR_LEN;
  const mc_int_list *l = mc_attrs_list(&cur->req.attrs, id);
  if (i >= l->count || l->v[i] == 0 || !mc_fuzz_clone(cur, cand))
    return false;
  mc_attrs_list_slot(&cand->req.attrs, id)->v[i] = 0;
  int axis_of[MAX_ENTRIES];
  int64_t s;
  const bool bound = id == MC_ATTR_BEGIN_MASK || id == MC_ATTR_END_MASK;
  if (bound && i < entries(cur) && walk(cur, axis_of) && axis_of[i] >= 0 &&
      kind_of(cur, i) == ORDINARY && stride_at(cur, i, &s) && s != 0) {
    const int64_t d = cur->tensors[0].shape[axis_of[i]];
    const int64_t want = id == MC_ATTR_BEGIN_MASK ? (s > 0 ? 0 : -1) : (s > 0 ? d : -d - 1);
    if (!mc_fuzz_store_side(cand, id == MC_ATTR_BEGIN_MASK ? BEGIN : END, i, want)) {
      mc_owned_request_free(cand);
      return false;
    }
  }
  return true;
}

/* Whether bound `input` (BEGIN or END) of ordinary entry i reads data
   axis `axis` whole in its stride's direction: masked, or a begin at or
   before the first element read, an end at or past the last (SS-S3). */
static bool bound_whole(const mc_owned_request *r, int input, int64_t i, int axis) {
  int64_t s, v;
  if (bit(r, input == BEGIN ? MC_ATTR_BEGIN_MASK : MC_ATTR_END_MASK, i))
    return true;
  if (!stride_at(r, i, &s) || s == 0 || !mc_side_value(&r->tensors[input], i, &v))
    return false;
  const int64_t d = r->tensors[0].shape[axis];
  if (input == BEGIN)
    return s > 0 ? v == 0 || v <= -d : v >= d - 1 || v == -1;
  return s > 0 ? v >= d : v <= -d - 1;
}

/* Data axis k of one element goes while its entry stays, reading the next
   axis (the entries after it each read the axis after theirs, up to an
   ellipsis), a bound that read its axis whole reading the new one whole.
   drop_axis takes the entry with its axis, which loses a failure that
   needs the entry on an axis of more than one element: this keeps it. */
static bool drop_unit_axis(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  int was[MAX_ENTRIES], now[MAX_ENTRIES];
  int64_t i = 0;
  const int64_t m = entries(cur);
  if (k >= d->rank || d->shape[k] != 1 || !walk(cur, was))
    return false;
  while (i < m && was[i] != k)
    i++;
  int64_t shape[MC_TENSOR_MAX_RANK];
  const int rank = mc_fuzz_shape_without(d, k, shape);
  if (i == m || !mc_fuzz_clone(cur, cand))
    return false;
  bool made = mc_fuzz_refill(cand, d->type, rank, shape) && walk(cand, now);
  for (int64_t j = i; made && j < m; j++)
    for (int input = BEGIN; made && input <= END && was[j] >= 0 && kind_of(cur, j) == ORDINARY;
         input++) {
      int64_t s;
      const int64_t n = cand->tensors[0].shape[now[j]]; /* the same kinds: now[j] >= 0 */
      if (bound_whole(cur, input, j, was[j]) && !bound_whole(cand, input, j, now[j]))
        made = stride_at(cur, j, &s) &&
               mc_fuzz_store_side(cand, input, j,
                                  input == BEGIN ? (s > 0 ? 0 : -1) : (s > 0 ? n : -n - 1));
    }
  if (!made)
    mc_owned_request_free(cand);
  return made;
}

/* Whether element i of a mask changes anything: a bit of an entry, or a
   value past the entries other than 0 and 1 (SS-V4 refuses it). */
static bool mask_element_counts(const mc_owned_request *r, int64_t i, int64_t v) {
  return i < entries(r) ? v != 0 : v != 0 && v != 1;
}

/* Mask k cut after its last element that counts; absent when none does. */
static bool shorter_mask(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_int_list *l = mc_attrs_list(&cur->req.attrs, mask_ids[k]);
  if (l->count < 0 || l->count > MC_MAX_ATTR_LEN)
    return false;
  int keep = 0;
  for (int i = 0; i < l->count; i++)
    if (mask_element_counts(cur, i, l->v[i]))
      keep = i + 1;
  if (keep == l->count || !mc_fuzz_clone(cur, cand))
    return false;
  mc_attrs_list_slot(&cand->req.attrs, mask_ids[k])->count = keep > 0 ? keep : -1;
  return true;
}

/* The values entry k's kind ignores made plain: begin 0 under a begin bit
   or for a new axis or the ellipsis, end 0 unless the entry is ordinary
   without an end bit, stride 1 unless it is ordinary (SS-S1, SS-S3). */
static bool plain_ignored(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  if (cur->tensors[BEGIN].rank != 1 || k >= entries(cur))
    return false;
  const entry_kind kind = kind_of(cur, k);
  const bool ordinary = kind == ORDINARY;
  const bool ignored[4] = {false, (ordinary && bit(cur, MC_ATTR_BEGIN_MASK, k)) || kind >= NEW_AXIS,
                           !ordinary || bit(cur, MC_ATTR_END_MASK, k), !ordinary};
  const int64_t plain[4] = {0, 0, 0, 1};
  bool changes = false;
  for (int in = BEGIN; in < cur->req.n_inputs; in++) {
    int64_t v;
    changes |= ignored[in] && mc_side_value(&cur->tensors[in], k, &v) && v != plain[in];
  }
  if (!changes || !mc_fuzz_clone(cur, cand))
    return false;
  for (int in = BEGIN; in < cur->req.n_inputs; in++)
    if (ignored[in] && !mc_fuzz_store_side(cand, in, k, plain[in])) {
      mc_owned_request_free(cand);
      return false;
    }
  return true;
}

/* Stride k / MC_FUZZ_VALUE_VARIANTS toward 1 in magnitude, its sign kept
   (the generic move takes it toward 0, which SS-V6 refuses). */
static bool stride_toward_one(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  return mc_fuzz_side_toward_unit(cur, STRIDE, k, cand);
}

static const mc_fuzz_move moves[] = {{drop_entry_move, MAX_ENTRIES},
                                     {drop_unit_axis, MC_TENSOR_MAX_RANK},
                                     {clear_bit, N_MASKS *MC_MAX_ATTR_LEN},
                                     {shorter_mask, N_MASKS},
                                     {plain_ignored, MAX_ENTRIES},
                                     {stride_toward_one, MC_FUZZ_VALUE_VARIANTS *MAX_ENTRIES},
                                     {drop_unit_stride, 1},
                                     {NULL, 0}};

/* Neutral, for a failure's key: a stride of ones. */
static bool side_neutral(const mc_owned_request *r, int input) {
  const mc_tensor *t = &r->tensors[input];
  if (input != STRIDE || !mc_type_is_side_integer(t->type) || t->rank != 1)
    return false;
  for (int64_t i = 0; i < mc_tensor_elements(t); i++) {
    int64_t v;
    if (!mc_side_value(t, i, &v) || v != 1)
      return false;
  }
  return true;
}

/* A mask changes nothing when no element counts (mask_element_counts). */
static bool attribute_neutral(const mc_owned_request *r, mc_attr id) {
  const mc_int_list *l = mc_attrs_list(&r->req.attrs, id);
  for (int k = 0; k < l->count && k < MC_MAX_ATTR_LEN; k++)
    if (mask_element_counts(r, k, l->v[k]))
      return false;
  return true;
}

const mc_fuzz_op_desc mc_fuzz_strided_slice_1 = {.large = large,
                                                 .min_rank = 0,
                                                 .drop_axis = drop_axis,
                                                 .moves = moves,
                                                 .side_neutral = side_neutral,
                                                 .attribute_neutral = attribute_neutral};
