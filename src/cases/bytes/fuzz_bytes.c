/* Fuzz bytes to request (the structure-aware data producer) and back. The
   layout is fuzz/README.md's "Byte layout"; the decoder (mc_fuzz_decode)
   and the encoder (mc_fuzz_encode) below walk it in the same order, and
   both walk an operation's attributes by the attribute table of
   movconf/ops.h, with the values of the operation's own layout. Each
   operation's own part (side inputs, dimensions) is in
   src/cases/bytes/ops/<slug>.c, written with the helpers of fuzz_bytes_ops.h. */
#include "cases/bytes/fuzz_bytes.h"
#include "cases/bytes/fuzz_bytes_ops.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/cases_internal.h" /* mc_fill_counter, mc_fill_prng, mc_unused_tail_mask */
#include "common/checked.h"
#include "movconf/tensor.h"

/* ---- selector codes (README: "Integer fields") ---- */

enum {
  SEL_EDGE_FIRST = 0xE0, /* 0xE0..0xEF: the field's edge value number sel - 0xE0 */
  SEL_EDGE_LAST = 0xEF,
  SEL_COUNTER = 0xFA, /* data only: counter fill, start in the next 8 bytes */
  SEL_PRNG = 0xFB,    /* data only: prng fill, seed in the next 8 bytes */
  SEL_ABSENT = 0xFC,  /* the attribute is absent (where it can be) */
  SEL_HOSTILE = 0xFD, /* hostile[next byte % 32] */
  SEL_BYTE = 0xFE,    /* the next byte, 0..255; for strings: a literal string */
  SEL_INT64 = 0xFF,   /* the next 8 bytes, little-endian two's complement; data: raw bytes */
  LARGE_CLASS = 0xFF, /* the size byte that selects the large size class */
  SEL_THREADS = 0xC0, /* thread bytes below: 1 thread; from here: 2 + (b - 0xC0) % 7 */
};

#define P2(n) MC_BYTES_P2(n)

/* Values known to break implementations: powers of two at 16, 31, 32 and 62
   bits, bs^K and products that overflow 32 and 64 bits (2^21 cubed, the
   square root of 2^63), the int64 extremes, and bit patterns that read as
   u64 above INT64_MAX (every negative value). */
static const int64_t hostile[32] = {
    0,          1,          -1,        2,          P2(16),        P2(16) + 1, INT32_MAX,
    P2(31),     P2(32) - 1, P2(32),    P2(32) + 1, P2(21),        P2(21) + 1, 3037000500,
    3037000499, P2(62),     INT64_MAX, INT64_MIN,  INT64_MIN + 1, -2,         -P2(32),
    P2(40),     65535,      255,       256,        127,           128,        -128,
    P2(53),     P2(53) + 1, 46341,     -P2(16)};

/* ---- reading ---- */

typedef mc_bytes_reader reader;

/* Bytes past the end read as 0, so that every input decodes. */
static uint8_t take_byte(reader *r) {
  return r->pos < r->n ? r->p[r->pos++] : 0;
}

static uint64_t take_u64(reader *r) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)take_byte(r) << (8 * i);
  return v;
}

static int64_t bits_to_i64(uint64_t bits) {
  int64_t v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

typedef mc_bytes_pick pick;

uint8_t mc_bytes_take_byte(mc_bytes_decoder *d) {
  return take_byte(&d->r);
}

static pick take_pick(reader *r, const int64_t edges[16]) {
  uint8_t s = take_byte(r);
  pick p = {MC_BYTES_PICK_NATURAL, s, 0};
  if (s >= SEL_EDGE_FIRST && s <= SEL_EDGE_LAST) {
    p.kind = MC_BYTES_PICK_VALUE;
    p.value = edges[s - SEL_EDGE_FIRST];
  } else if (s == SEL_ABSENT) {
    p.kind = MC_BYTES_PICK_ABSENT;
  } else if (s == SEL_HOSTILE) {
    p.kind = MC_BYTES_PICK_VALUE;
    p.value = hostile[take_byte(r) % 32];
  } else if (s == SEL_BYTE) {
    p.kind = MC_BYTES_PICK_VALUE;
    p.value = take_byte(r);
  } else if (s == SEL_INT64) {
    p.kind = MC_BYTES_PICK_VALUE;
    p.value = bits_to_i64(take_u64(r));
  }
  return p;
}

mc_bytes_pick mc_bytes_take_pick(mc_bytes_decoder *d, const int64_t edges[16]) {
  return take_pick(&d->r, edges);
}

int64_t mc_bytes_pick_or(mc_bytes_pick p, int64_t natural) {
  return p.kind == MC_BYTES_PICK_VALUE ? p.value : natural;
}

/* ---- strings ---- */

/* Well-formed UTF-8 without NUL: what a case file's strings may hold. */
static bool utf8_clean(const uint8_t *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint8_t c = s[i];
    if (c == 0)
      return false;
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (len == 0 || c > 0xF4 || i + len > n)
      return false;
    uint32_t cp = c & (0xFFu >> (len + 1));
    for (size_t k = 1; k < len; k++) {
      if ((s[i + k] & 0xC0) != 0x80)
        return false;
      cp = cp << 6 | (s[i + k] & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += len;
  }
  return true;
}

static char *copy_string(const char *s, size_t n) {
  char *c = malloc(n + 1);
  if (c) {
    memcpy(c, s, n);
    c[n] = '\0';
  }
  return c;
}

/* A literal string of up to MC_FUZZ_MAX_STRING bytes. Bytes that would not
   make a valid case-file string become '?' (all of them, so that a clean
   string is never altered). */
static char *take_literal_string(reader *r) {
  size_t n = take_byte(r) % (MC_FUZZ_MAX_STRING + 1);
  uint8_t buf[MC_FUZZ_MAX_STRING];
  for (size_t i = 0; i < n; i++)
    buf[i] = take_byte(r);
  if (!utf8_clean(buf, n))
    for (size_t i = 0; i < n; i++)
      if (buf[i] < 0x20 || buf[i] >= 0x7F)
        buf[i] = '?';
  return copy_string((const char *)buf, n);
}

/* A string attribute, NULL when absent: natural[] holds the valid
   spellings, edges[] invalid ones (NULL: absent). *oom is set when memory
   runs out. */
static char *take_string(reader *r, const char *const *natural, int n_natural,
                         const char *const edges[16], bool *oom) {
  uint8_t s = take_byte(r);
  const char *chosen = natural[s % n_natural];
  if (s == SEL_BYTE) {
    char *c = take_literal_string(r);
    *oom = !c;
    return c;
  }
  if (s == SEL_ABSENT) {
    chosen = NULL;
  } else if (s >= SEL_EDGE_FIRST && s <= SEL_EDGE_LAST) {
    chosen = edges[s - SEL_EDGE_FIRST];
  }
  if (!chosen)
    return NULL;
  char *c = copy_string(chosen, strlen(chosen));
  *oom = !c;
  return c;
}

/* Edge values of most integer attributes. */
const int64_t mc_bytes_int_edges[16] = {
    0,          -1,        P2(16),    INT32_MAX, P2(31),     P2(32), P2(21), P2(21) + 1,
    3037000500, INT64_MAX, INT64_MIN, P2(62),    P2(16) + 1, 1024,   46341,  1};

static const mc_bytes_op *layout_of(mc_op op);

/* The values of attribute a in op's own layout; NULL when it lacks them. */
static const mc_bytes_attr *own_attr_layout(mc_op op, mc_attr a) {
  const mc_bytes_op *l = layout_of(op);
  for (int i = 0; i < l->n_attrs; i++)
    if (l->attrs[i].id == a)
      return &l->attrs[i];
  return NULL;
}

/* The values of attribute a of op: its layout's, else (an attribute the
   tests' hook of names_test.h lends it) plain ones for an integer or a
   list; NULL for a string, which has no plain spellings. */
static const mc_bytes_attr *attr_layout(mc_op op, mc_attr a) {
  static const int64_t plain_natural[8] = {1, 2, 3, 1, 2, 4, 1, 2};
  static const mc_bytes_attr plain_int = {.natural = plain_natural, .edges = mc_bytes_int_edges};
  static const mc_bytes_attr plain_list = {.list_span = 3};
  const mc_bytes_attr *own = own_attr_layout(op, a);
  if (own)
    return own;
  mc_attr_kind kind = mc_attr_kind_of(a);
  return kind == MC_ATTR_KIND_INT ? &plain_int : kind == MC_ATTR_KIND_INT_LIST ? &plain_list : NULL;
}

const char *mc_bytes_neutral_spelling(mc_op op, mc_attr a) {
  if ((int)op < 0 || op >= MC_OP_COUNT)
    return NULL;
  const mc_bytes_attr *l = own_attr_layout(op, a);
  return l && l->n_spellings > 0 ? l->spellings[0] : NULL;
}

bool mc_bytes_layout_complete(mc_op op) {
  for (int i = 0; i < mc_op_attr_count(op); i++) {
    const mc_bytes_attr *a = own_attr_layout(op, mc_op_attr(op, i));
    if (!a)
      return false;
    switch (mc_attr_kind_of(a->id)) {
    case MC_ATTR_KIND_INT:
      if (!a->natural || !a->edges)
        return false;
      break;
    case MC_ATTR_KIND_STRING:
      if (a->n_spellings < 1 || !a->spellings || !a->string_edges)
        return false;
      break;
    case MC_ATTR_KIND_INT_LIST:
      if (a->list_span < 1)
        return false;
      break;
    }
  }
  return true;
}

/* The order of an operation's attributes in the bytes: the table's order,
   integer attributes last. (The layout put mode before block_size before
   the table listed block_size first; this rule keeps every committed seed
   decoding as it did.) Returns how many there are. */
static int layout_attrs(mc_op op, mc_attr order[MC_ATTR_COUNT]) {
  int n = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < mc_op_attr_count(op); i++) {
      mc_attr a = mc_op_attr(op, i);
      if ((mc_attr_kind_of(a) == MC_ATTR_KIND_INT) == (pass == 1))
        order[n++] = a;
    }
  }
  return n;
}

/* ---- element types ---- */

static const mc_type side_integer_types[16] = {MC_I64, MC_I64, MC_I64, MC_I32, MC_I32, MC_I64,
                                               MC_I8,  MC_U8,  MC_I16, MC_U16, MC_U32, MC_U64,
                                               MC_I64, MC_I32, MC_U64, MC_I8};
static const mc_type side_other_types[16] = {
    MC_F32, MC_F16, MC_BF16, MC_F64,     MC_BOOLEAN, MC_F8E4M3, MC_F8E5M2, MC_U1,
    MC_U4,  MC_I4,  MC_F32,  MC_BOOLEAN, MC_F64,     MC_U1,     MC_I4,     MC_F16};
/* Codes no element type has: MC-T1's invalid side. */
static const int invalid_type_codes[4] = {MC_TYPE_COUNT, MC_TYPE_INVALID, 64, 255};

static mc_type take_data_type(reader *r) {
  uint8_t s = take_byte(r);
  if (s < 252)
    return (mc_type)(s % MC_TYPE_COUNT);
  return (mc_type)invalid_type_codes[s - 252];
}

static mc_type take_side_type(reader *r) {
  uint8_t s = take_byte(r);
  if (s < SEL_EDGE_FIRST)
    return side_integer_types[s % 16];
  if (s <= SEL_EDGE_LAST)
    return side_other_types[s - SEL_EDGE_FIRST];
  if (s == SEL_BYTE)
    return (mc_type)(take_byte(r) % MC_TYPE_COUNT);
  return MC_I64;
}

/* ---- the decoder's state ---- */

typedef mc_bytes_decoder decoder;
typedef mc_bytes_dim_plan dim_plan;

static uint8_t *alloc_bytes(size_t n) {
  size_t rounded = n == 0 ? 64 : (n + 63) / 64 * 64;
  if (rounded < n)
    return NULL;
  uint8_t *p = aligned_alloc(64, rounded);
  if (p)
    memset(p, 0, rounded);
  return p;
}

/* The element count and storage bytes of t's shape (no bytes for a type
   that is none). False when it is not a tensor a case file could hold or
   has more than limit elements: what neither direction takes. */
static bool tensor_fits(const mc_tensor *t, int64_t limit, int64_t *count, size_t *bytes) {
  *bytes = 0;
  if (t->rank < 0 || t->rank > MC_TENSOR_MAX_RANK || !mc_shape_elements(t->rank, t->shape, count) ||
      *count > limit)
    return false;
  return !mc_type_get(t->type) || mc_storage_bytes(t->type, *count, bytes);
}

/* Allocates a zeroed tensor's storage. False when tensor_fits says no or
   memory runs out. */
static bool alloc_tensor(decoder *d, mc_tensor *t, int64_t limit) {
  int64_t count;
  size_t bytes;
  if (!tensor_fits(t, limit, &count, &bytes))
    return false;
  t->nbytes = bytes;
  t->data = alloc_bytes(bytes);
  if (!t->data)
    d->oom = true;
  return t->data != NULL;
}

/* The value at index i of a side input as the operation will read it, when
   it can: an integer or boolean type (mc_side_value), 1-D, within int64. */
bool mc_bytes_side_value(const mc_tensor *t, int i, int64_t *v) {
  if (t->rank != 1 || i >= t->shape[0])
    return false;
  return mc_side_value(t, i, v);
}

int64_t mc_bytes_previous_side_value(const mc_tensor *t, int64_t i) {
  int64_t prev = 0;
  if (i > 0)
    mc_bytes_side_value(t, (int)i - 1, &prev);
  return prev;
}

/* Sets *v only when the value is known and at least 1. */
bool mc_bytes_known_positive(const mc_tensor *t, int i, int64_t *v) {
  int64_t x;
  if (!mc_bytes_side_value(t, i, &x) || x < 1)
    return false;
  *v = x;
  return true;
}

int64_t mc_bytes_add_held(int64_t a, int64_t b) {
  int64_t sum;
  return mc_add_i64(a, b, &sum) ? sum : b > 0 ? INT64_MAX : INT64_MIN;
}

/* ---- ranks and dimensions ---- */

static int take_rank(decoder *d) {
  static const int64_t edges[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 18, 24, 32, 1};
  pick p = take_pick(&d->r, edges);
  if (p.kind == MC_BYTES_PICK_VALUE)
    return (int)((uint64_t)p.value % (MC_TENSOR_MAX_RANK + 1));
  return layout_of(d->op)->natural_ranks[p.sel % 8];
}

static const int64_t dim_edges[16] = {0,   0,      1,      2,      3,      5,      7,         64,
                                      255, P2(16), P2(31), P2(32), P2(40), P2(62), INT64_MAX, 0};

/* Dimension a of data: natural ones are base + unit * k for
   k = kmin + sel % k_span (plus one when invalid_bump is allowed and the
   selector asks for it, so that some natural shapes break the rule). */
void mc_bytes_take_dim(decoder *d, int a, int64_t unit, int64_t kmin, int64_t k_span, int64_t base,
                       bool invalid_bump) {
  pick p = take_pick(&d->r, dim_edges);
  dim_plan *pl = &d->plan[a];
  if (p.kind == MC_BYTES_PICK_VALUE) {
    *pl = (dim_plan){false, p.value, 0, 0, 0};
  } else {
    if (invalid_bump && p.sel % 16 == 15)
      base += 1;
    *pl = (dim_plan){true, base, unit, kmin + p.sel % k_span, kmin};
  }
}

static int64_t plan_value(const dim_plan *pl) {
  if (!pl->natural)
    return pl->base;
  int64_t v;
  if (!mc_mul_i64(pl->unit, pl->k, &v) || !mc_add_i64(v, pl->base, &v))
    return INT64_MAX;
  return v;
}

/* Shrinks natural dimensions (largest first, halving k toward kmin) until
   the data fits the budget or none can shrink; then fixes the shape. */
void mc_bytes_settle_dims(decoder *d) {
  mc_tensor *t = &d->in->tensors[0];
  for (;;) {
    for (int a = 0; a < d->rank; a++)
      t->shape[a] = plan_value(&d->plan[a]);
    int64_t count;
    if (mc_product_i64(t->shape, d->rank, &count) && count <= d->budget)
      return;
    int widest = -1;
    for (int a = 0; a < d->rank; a++)
      if (d->plan[a].natural && d->plan[a].k > d->plan[a].kmin &&
          (widest < 0 || t->shape[a] > t->shape[widest]))
        widest = a;
    if (widest < 0)
      return;
    dim_plan *pl = &d->plan[widest];
    pl->k = pl->kmin + (pl->k - pl->kmin) / 2;
  }
}

/* ---- side inputs (BatchToSpace, SpaceToBatch) ---- */

/* The shape of side input t: [N] unless the selector picks a broken one. */
static void take_side_shape(decoder *d, mc_tensor *t, int64_t n) {
  uint8_t s = take_byte(&d->r);
  t->rank = 1;
  t->shape[0] = n;
  if (s == SEL_BYTE) {
    static const int64_t edges[16] = {0,  1,  2,  3,      4,  5,         8,      16,
                                      17, 64, 65, P2(32), -1, INT64_MAX, P2(62), 0};
    t->rank = take_byte(&d->r) % (MC_TENSOR_MAX_RANK + 1);
    for (int a = 0; a < t->rank; a++)
      t->shape[a] = mc_bytes_pick_or(take_pick(&d->r, edges), 1);
    return;
  }
  if (s < SEL_EDGE_FIRST || s > SEL_EDGE_LAST)
    return;
  switch (s - SEL_EDGE_FIRST) {
  case 0:
  case 8:
    t->shape[0] = n > 0 ? n - 1 : 0;
    break;
  case 1:
  case 9:
    t->shape[0] = n + 1;
    break;
  case 2:
  case 10:
    t->rank = 2;
    t->shape[0] = 1;
    t->shape[1] = n;
    break;
  case 3:
    t->rank = 2;
    t->shape[1] = 1;
    break;
  case 4:
  case 11:
    t->rank = 0;
    break;
  case 5:
    t->shape[0] = 0;
    break;
  case 6:
    t->rank = 2;
    t->shape[1] = 2;
    break;
  case 7:
    t->shape[0] = 2 * n;
    break;
  case 12: /* rank 17: MC-L1 on a side input */
    t->rank = MC_MAX_RANK + 1;
    for (int a = 0; a < t->rank; a++)
      t->shape[a] = 1;
    break;
  case 13:
    t->rank = 2;
    t->shape[0] = 0;
    t->shape[1] = n;
    break;
  case 14:
    t->shape[0] = n + 2;
    break;
  default:
    break;
  }
}

bool mc_bytes_take_side_form(decoder *d, mc_tensor *t, int64_t n) {
  t->type = take_side_type(&d->r);
  take_side_shape(d, t, n);
  return alloc_tensor(d, t, MC_FUZZ_MAX_SIDE_ELEMENTS);
}

bool mc_bytes_take_side_forms(decoder *d) {
  for (int k = 1; k < 4; k++)
    if (!mc_bytes_take_side_form(d, &d->in->tensors[k], d->rank))
      return false;
  return true;
}

/* A scalar of the data's type (MC_OP_DATA_SCALAR): a selector byte, below
   0x80 natural (the data's type, rank 0), else its type, rank (0 to 2) and
   dimensions (0 to 2) in a byte each; then each element's bits. */
bool mc_bytes_take_data_scalar(decoder *d, mc_tensor *t) {
  t->type = d->in->tensors[0].type;
  t->rank = 0;
  if (take_byte(&d->r) >= 0x80) {
    t->type = (mc_type)(take_byte(&d->r) % MC_TYPE_COUNT);
    t->rank = take_byte(&d->r) % 3;
    for (int a = 0; a < t->rank; a++)
      t->shape[a] = take_byte(&d->r) % 3;
  }
  if (!alloc_tensor(d, t, MC_FUZZ_MAX_SIDE_ELEMENTS))
    return false;
  const int64_t count = mc_type_get(t->type) ? mc_tensor_elements(t) : 0;
  for (int64_t i = 0; i < count; i++)
    mc_store_bits(t->data, t->type, i, take_u64(&d->r));
  return true;
}

int64_t mc_bytes_side_count(const mc_tensor *t) {
  int64_t count = 0;
  mc_shape_elements(t->rank, t->shape, &count);
  return count;
}

void mc_bytes_store_side(mc_tensor *t, int64_t i, int64_t value) {
  mc_store_bits(t->data, t->type, i, (uint64_t)value);
}

void mc_bytes_take_block_values(decoder *d) {
  static const int64_t natural[8] = {1, 2, 1, 2, 3, 1, 4, 2};
  static const int64_t edges[16] = {0,      -1,     2,          P2(16),    INT32_MAX, P2(31),
                                    P2(32), P2(21), 3037000500, INT64_MAX, INT64_MIN, P2(16) + 1,
                                    P2(62), 255,    256,        1};
  mc_tensor *t = &d->in->tensors[1];
  int64_t count = mc_bytes_side_count(t);
  for (int64_t i = 0; i < count; i++) {
    pick p = take_pick(&d->r, edges);
    mc_bytes_store_side(t, i, mc_bytes_pick_or(p, i == 0 || i >= d->rank ? 1 : natural[p.sel % 8]));
  }
}

/* crops (B2S) or pads (S2B): begin then end. */
void mc_bytes_take_amounts(decoder *d, bool crops) {
  for (int k = 2; k < 4; k++) {
    mc_tensor *t = &d->in->tensors[k];
    int64_t count = mc_bytes_side_count(t);
    for (int64_t i = 0; i < count; i++) {
      int64_t block = 2, total = -1;
      bool axis = i < d->rank && i < MC_TENSOR_MAX_RANK;
      if (axis)
        mc_bytes_known_positive(&d->in->tensors[1], (int)i, &block);
      if (crops && axis && !mc_mul_i64(d->in->tensors[0].shape[i], block, &total))
        total = -1;
      int64_t t1 = total >= 0 ? total : 1;
      int64_t edges[16] = {-1,        1,          t1,        mc_bytes_add_held(t1, 1),
                           t1 - 1,    t1 / 2 + 1, INT64_MAX, INT64_MIN,
                           P2(31),    P2(32),     P2(62),    2,
                           block - 1, block,      -P2(31),   INT64_MAX - 1};
      pick p = take_pick(&d->r, edges);
      int64_t natural = 0;
      if (i > 0 && axis && p.sel >= 0x80) {
        if (!crops)
          natural = 1 + p.sel % 3;
        else if (total > 0)
          natural = (p.sel - 0x80) % (total / 2 + 1);
      }
      mc_bytes_store_side(t, i, mc_bytes_pick_or(p, natural));
    }
  }
}

/* ---- attributes ---- */

static void take_list(decoder *d, mc_int_list *list, int64_t natural_span, bool from_zero) {
  static const int64_t count_edges[16] = {-1, 0, 1, 3, 4, 8, 9, 16, 64, -1, 0, 1, 3, 2, 2, 2};
  static const int64_t edges[16] = {0,         -1,        P2(31), P2(32), P2(62),     INT64_MAX,
                                    INT64_MIN, INT32_MAX, P2(16), 100,    3037000500, P2(53),
                                    1,         2,         7,      -P2(31)};
  pick c = take_pick(&d->r, count_edges);
  if (c.kind == MC_BYTES_PICK_ABSENT) {
    list->count = -1;
    return;
  }
  int64_t count = mc_bytes_pick_or(c, 2);
  list->count = count < 0 ? -1 : count > MC_FUZZ_MAX_LIST ? MC_FUZZ_MAX_LIST : (int)count;
  for (int i = 0; i < list->count && i < MC_MAX_ATTR_LEN; i++) {
    pick p = take_pick(&d->r, edges);
    list->v[i] = mc_bytes_pick_or(p, !from_zero + p.sel % natural_span);
  }
}

/* One attribute by its kind; a string is owned by d->in->strings. */
static bool take_attr(decoder *d, mc_attr a) {
  const mc_bytes_attr *l = attr_layout(d->op, a);
  if (!l)
    return false;
  mc_attrs *at = &d->in->req.attrs;
  switch (mc_attr_kind_of(a)) {
  case MC_ATTR_KIND_INT: {
    pick p = take_pick(&d->r, l->edges);
    if (p.kind != MC_BYTES_PICK_ABSENT)
      mc_attrs_set_int(at, a, mc_bytes_pick_or(p, l->natural[p.sel % 8]));
    return true;
  }
  case MC_ATTR_KIND_STRING:
    d->in->strings[a] = take_string(&d->r, l->spellings, l->n_spellings, l->string_edges, &d->oom);
    mc_attrs_set_string(at, a, d->in->strings[a]);
    return !d->oom;
  case MC_ATTR_KIND_INT_LIST:
    take_list(d, mc_attrs_list_slot(at, a), l->list_span, l->list_from_zero);
    return true;
  }
  return false;
}

static bool take_attrs(decoder *d) {
  mc_attr order[MC_ATTR_COUNT];
  int n = layout_attrs(d->op, order);
  for (int i = 0; i < n; i++)
    if (!take_attr(d, order[i]))
      return false;
  return true;
}

/* ---- SpaceToDepth, DepthToSpace ---- */

static const char *const mode_natural[] = {"blocks_first", "depth_first"};
static const char *const mode_edges[16] = {
    NULL,           NULL,     "",      "BLOCKS_FIRST",  "Depth_First", "blocks_first ",
    "depth-first",  "blocks", "depth", "sideways",      "DEPTH_FIRST", "blocksfirst",
    " depth_first", "first",  "valid", "blocks_first\n"};
static const int64_t block_size_natural[8] = {2, 2, 3, 1, 2, 4, 3, 2};

const mc_bytes_attr mc_bytes_depth_attrs[2] = {
    {MC_ATTR_BLOCK_SIZE, .natural = block_size_natural, .edges = mc_bytes_int_edges},
    {MC_ATTR_MODE, .spellings = mode_natural, .n_spellings = 2, .string_edges = mode_edges},
};

void mc_bytes_take_depth_dims(decoder *d, bool to_space) {
  const mc_attrs *at = &d->in->req.attrs;
  int64_t bs = mc_attrs_present(at, MC_ATTR_BLOCK_SIZE) ? mc_attrs_int(at, MC_ATTR_BLOCK_SIZE) : 1;
  bool sane = bs >= 1 && bs <= d->budget;
  int64_t bs_k = 0;
  bool power_sane = sane && d->rank >= 2 && mc_pow_i64(bs, d->rank - 2, &bs_k) && bs_k <= d->budget;
  for (int a = 0; a < d->rank; a++) {
    if (a == 0)
      mc_bytes_take_dim(d, a, 1, 1, 2, 0, false);
    else if (a == 1 && to_space && power_sane)
      mc_bytes_take_dim(d, a, bs_k, 1, 2, 0, true);
    else if (a == 1)
      mc_bytes_take_dim(d, a, 1, 1, 3, 0, false);
    else if (!to_space && sane)
      mc_bytes_take_dim(d, a, bs, 1, 2, 0, true);
    else
      mc_bytes_take_dim(d, a, 1, 1, d->span, 0, false);
  }
  mc_bytes_settle_dims(d);
}

/* ---- data ---- */

void mc_fuzz_fill_data(mc_tensor *t, int64_t count, mc_fuzz_fill fill, uint64_t param) {
  unsigned bits = mc_type_bits(t->type);
  if (bits < 8) { /* packed: the loader's own fill places the bits */
    if (fill == MC_FUZZ_FILL_COUNTER)
      mc_fill_counter(t, count, bits_to_i64(param));
    else
      mc_fill_prng(t, count, param);
    return;
  }
  size_t size = bits / 8;
  uint8_t *p = t->data;
  for (int64_t i = 0; i < count; i++, p += size) {
    uint64_t v =
        fill == MC_FUZZ_FILL_COUNTER ? param + (uint64_t)i : mc_splitmix64(param, (uint64_t)i);
    for (size_t b = 0; b < size; b++)
      p[b] = (uint8_t)(v >> (8 * b)); /* little-endian, the low bits of v */
  }
}

static bool take_data(decoder *d) {
  mc_fuzz_input *in = d->in;
  mc_tensor *t = &in->tensors[0];
  t->rank = d->rank;
  if (!alloc_tensor(d, t, d->limit))
    return false;
  uint8_t s = take_byte(&d->r);
  if (!mc_type_get(t->type))
    return true; /* MC-T1 rejects it: no bytes to make */
  int64_t count = mc_tensor_elements(t);
  if (s == SEL_INT64) {
    in->data_fill = MC_FUZZ_FILL_BYTES;
    for (size_t i = 0; i < t->nbytes; i++)
      t->data[i] = take_byte(&d->r);
    if (t->nbytes > 0)
      t->data[t->nbytes - 1] &= (uint8_t)~mc_unused_tail_mask(t->type, count);
    return true;
  }
  bool counter = s == SEL_COUNTER || (s != SEL_PRNG && s < 0x80);
  in->data_fill = counter ? MC_FUZZ_FILL_COUNTER : MC_FUZZ_FILL_PRNG;
  in->data_fill_param = s == SEL_COUNTER || s == SEL_PRNG ? take_u64(&d->r) : s;
  mc_fuzz_fill_data(t, count, in->data_fill, in->data_fill_param);
  return true;
}

/* ---- the whole request ---- */

static const size_t tiny_caps[16] = {0,  1,  2,  3,   4,   7,    8,    15,
                                     16, 63, 64, 255, 256, 1000, 4095, 4096};

size_t mc_fuzz_natural_cap(mc_type t, bool large) {
  int64_t budget = large ? MC_FUZZ_LARGE_ELEMENTS : MC_FUZZ_SMALL_ELEMENTS;
  size_t bytes;
  unsigned bits = mc_type_bits(t);
  if (!mc_storage_bytes(t, budget * MC_FUZZ_OUTPUT_FACTOR, &bytes) || bits == 0 ||
      bytes > MC_FUZZ_MAX_OUTPUT_BYTES)
    return MC_FUZZ_MAX_OUTPUT_BYTES;
  return bytes;
}

static void take_header(decoder *d) {
  mc_fuzz_input *in = d->in;
  d->op = (mc_op)(take_byte(&d->r) % MC_OP_COUNT);
  d->n_inputs = mc_op_input_count(d->op);
  in->tensors[0].type = take_data_type(&d->r);
  /* Three inputs in four run on one thread: handing a small request to
     pool threads costs 10 to 100 times its whole computation, and most
     bugs do not depend on the split. */
  uint8_t threads = take_byte(&d->r);
  in->threads = threads < SEL_THREADS ? 1 : 2 + (threads - SEL_THREADS) % (MC_FUZZ_MAX_THREADS - 1);
  uint8_t cap = take_byte(&d->r);
  bool large = take_byte(&d->r) == LARGE_CLASS; /* 1 input in 256: slow ones stay rare */
  in->large = large;
  d->span = large ? 12 : 4;
  d->budget = large ? MC_FUZZ_LARGE_ELEMENTS : MC_FUZZ_SMALL_ELEMENTS;
  d->limit = large ? MC_FUZZ_LARGE_ELEMENTS : MC_FUZZ_SMALL_LIMIT;
  in->max_output_bytes =
      cap < 0xF0 ? mc_fuzz_natural_cap(in->tensors[0].type, large) : tiny_caps[cap - 0xF0];
  d->rank = take_rank(d);
}

static bool take_body(decoder *d) {
  if (!take_attrs(d))
    return false;
  const mc_bytes_op *l = layout_of(d->op);
  return l->take && l->take(d);
}

bool mc_fuzz_decode(const uint8_t *data, size_t size, mc_fuzz_input *out) {
  memset(out, 0, sizeof *out);
  decoder d;
  memset(&d, 0, sizeof d);
  d.r = (reader){data, size, 0};
  d.in = out;
  out->req.attrs = mc_attrs_none();
  take_header(&d);
  if (!take_body(&d) || !take_data(&d)) {
    mc_fuzz_input_free(out);
    return false;
  }
  out->req.op = d.op;
  out->req.n_inputs = d.n_inputs;
  for (int i = 0; i < out->req.n_inputs; i++)
    out->req.inputs[i] = &out->tensors[i];
  return true;
}

void mc_fuzz_input_free(mc_fuzz_input *in) {
  for (int i = 0; i < MC_MAX_INPUTS; i++)
    free(in->tensors[i].data);
  for (int a = 0; a < MC_ATTR_COUNT; a++)
    free(in->strings[a]);
  memset(in, 0, sizeof *in);
}

/* ---- writing: request to bytes ---- */

typedef mc_bytes_encoder encoder;

struct mc_bytes_encoder {
  const mc_fuzz_input *in;
  const mc_request *req;
  mc_fuzz_bytes *out;
  char *why;
  size_t whylen;
};

/* Writes why the request cannot be encoded; returns false. */
static bool refuse(encoder *e, const char *fmt, ...) MC_PRINTF_LIKE(2, 3);
static bool refuse(encoder *e, const char *fmt, ...) {
  if (e->whylen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->why, e->whylen, fmt, ap);
    va_end(ap);
  }
  return false;
}

static void put_byte(mc_fuzz_bytes *b, uint8_t v) {
  if (b->oom)
    return;
  if (b->size == b->capacity) {
    size_t capacity = b->capacity ? 2 * b->capacity : 256;
    uint8_t *p = realloc(b->data, capacity);
    if (!p) {
      b->oom = true;
      return;
    }
    b->data = p;
    b->capacity = capacity;
  }
  b->data[b->size++] = v;
}

static void put_u64(mc_fuzz_bytes *b, uint64_t v) {
  for (int i = 0; i < 8; i++)
    put_byte(b, (uint8_t)(v >> (8 * i)));
}

/* An integer field holding exactly these bits (two's complement), in its
   shortest exact form: SEL_BYTE for 0..255, else SEL_INT64. */
static void put_exact(mc_fuzz_bytes *b, uint64_t bits) {
  if (bits <= 0xFF) {
    put_byte(b, SEL_BYTE);
    put_byte(b, (uint8_t)bits);
  } else {
    put_byte(b, SEL_INT64);
    put_u64(b, bits);
  }
}

const mc_request *mc_bytes_put_request(const encoder *e) {
  return e->req;
}

void mc_bytes_put_exact(encoder *e, uint64_t bits) {
  put_exact(e->out, bits);
}

void mc_bytes_put_raw_byte(encoder *e, uint8_t v) {
  put_byte(e->out, v);
}

static bool put_header(encoder *e) {
  const mc_fuzz_input *in = e->in;
  mc_type type = e->req->inputs[0]->type;
  int type_code = -1;
  if (mc_type_get(type))
    type_code = (int)type;
  for (int i = 0; i < 4; i++)
    if ((int)type == invalid_type_codes[i])
      type_code = 252 + i;
  if (type_code < 0)
    return refuse(e, "data type code %d is neither a type nor one of the layout's invalid codes",
                  (int)type);
  if (in->threads < 1 || in->threads > MC_FUZZ_MAX_THREADS)
    return refuse(e, "%d threads (1 to %d)", in->threads, MC_FUZZ_MAX_THREADS);
  int cap_code = -1;
  if (in->max_output_bytes == mc_fuzz_natural_cap(type, in->large))
    cap_code = 0;
  for (int i = 15; cap_code < 0 && i >= 0; i--)
    if (in->max_output_bytes == tiny_caps[i])
      cap_code = 0xF0 + i;
  if (cap_code < 0)
    return refuse(e, "an output cap of %zu bytes is neither the size class's nor a tiny one",
                  in->max_output_bytes);
  put_byte(e->out, (uint8_t)e->req->op);
  put_byte(e->out, (uint8_t)type_code);
  put_byte(e->out, in->threads == 1 ? 0 : (uint8_t)(SEL_THREADS + in->threads - 2));
  put_byte(e->out, (uint8_t)cap_code);
  put_byte(e->out, in->large ? LARGE_CLASS : 0);
  return true;
}

static bool put_string(encoder *e, mc_attr a, const char *s) {
  size_t n = strlen(s);
  if (n > MC_FUZZ_MAX_STRING || !utf8_clean((const uint8_t *)s, n))
    return refuse(e, "%s is longer than %d bytes or not UTF-8", mc_attr_name(a),
                  MC_FUZZ_MAX_STRING);
  put_byte(e->out, SEL_BYTE);
  put_byte(e->out, (uint8_t)n);
  for (size_t i = 0; i < n; i++)
    put_byte(e->out, (uint8_t)s[i]);
  return true;
}

static bool put_list(encoder *e, mc_attr a, const mc_int_list *list) {
  if (list->count > MC_FUZZ_MAX_LIST)
    return refuse(e, "%s has %d values (at most %d)", mc_attr_name(a), list->count,
                  MC_FUZZ_MAX_LIST);
  put_exact(e->out, (uint64_t)list->count);
  for (int i = 0; i < list->count && i < MC_MAX_ATTR_LEN; i++)
    put_exact(e->out, (uint64_t)list->v[i]);
  return true;
}

/* One attribute by its kind: SEL_ABSENT or its exact value. */
static bool put_attr(encoder *e, mc_attr a) {
  const mc_attrs *at = &e->req->attrs;
  if (!mc_attrs_present(at, a)) {
    put_byte(e->out, SEL_ABSENT);
    return true;
  }
  switch (mc_attr_kind_of(a)) {
  case MC_ATTR_KIND_INT:
    put_exact(e->out, (uint64_t)mc_attrs_int(at, a));
    return true;
  case MC_ATTR_KIND_STRING:
    return put_string(e, a, mc_attrs_string(at, a));
  case MC_ATTR_KIND_INT_LIST:
    return put_list(e, a, mc_attrs_list(at, a));
  }
  return false;
}

/* Every attribute the op has, in layout order; none that it has not (the
   decoder would never set one). */
static bool put_attrs(encoder *e) {
  mc_op op = e->req->op;
  for (int a = 0; a < MC_ATTR_COUNT; a++)
    if (mc_attrs_present(&e->req->attrs, (mc_attr)a) &&
        mc_op_attr_from_name(op, mc_attr_name(a)) < 0)
      return refuse(e, "%s has no attribute %s", mc_op_name(op), mc_attr_name((mc_attr)a));
  mc_attr order[MC_ATTR_COUNT];
  int n = layout_attrs(op, order);
  for (int i = 0; i < n; i++)
    if (!put_attr(e, order[i]))
      return false;
  return true;
}

/* The bytes of t are the ones its shape needs, with the unused bits of a
   packed last byte clear (the decoder makes no others). */
static bool tensor_bytes_ok(encoder *e, const mc_tensor *t, int64_t count, size_t bytes,
                            const char *name) {
  if (t->nbytes != bytes || (bytes > 0 && !t->data))
    return refuse(e, "%s holds %zu bytes where its shape needs %zu", name, t->nbytes, bytes);
  if (bytes > 0 && (t->data[bytes - 1] & mc_unused_tail_mask(t->type, count)))
    return refuse(e, "%s has unused bits set in its last byte", name);
  return true;
}

/* The type and shape of the side inputs (BatchToSpace, SpaceToBatch). */
bool mc_bytes_put_side_form(encoder *e, int k) {
  const mc_tensor *t = e->req->inputs[k];
  const char *name = mc_op_input_name(e->req->op, k);
  int64_t count;
  size_t bytes;
  if (!mc_type_get(t->type))
    return refuse(e, "%s has no valid type", name);
  if (!tensor_fits(t, MC_FUZZ_MAX_SIDE_ELEMENTS, &count, &bytes))
    return refuse(e, "%s has more than %d elements or a shape no tensor has", name,
                  MC_FUZZ_MAX_SIDE_ELEMENTS);
  if (!tensor_bytes_ok(e, t, count, bytes, name))
    return false;
  put_byte(e->out, SEL_BYTE);
  put_byte(e->out, (uint8_t)t->type);
  put_byte(e->out, SEL_BYTE);
  put_byte(e->out, (uint8_t)t->rank);
  for (int a = 0; a < t->rank; a++)
    put_exact(e->out, (uint64_t)t->shape[a]);
  return true;
}

bool mc_bytes_put_side_forms(encoder *e) {
  for (int k = 1; k < 4; k++)
    if (!mc_bytes_put_side_form(e, k))
      return false;
  return true;
}

/* Every value of side input k as its stored bits (the decoder keeps their
   low bits in the input's type). */
void mc_bytes_put_side_values(encoder *e, int k) {
  const mc_tensor *t = e->req->inputs[k];
  int64_t count = mc_tensor_elements(t);
  for (int64_t i = 0; i < count; i++)
    put_exact(e->out, mc_load_bits(t->data, t->type, i));
}

bool mc_bytes_put_data_scalar(encoder *e, int k) {
  const mc_tensor *t = e->req->inputs[k], *data = e->req->inputs[0];
  const bool natural = t->type == data->type && t->rank == 0;
  if (!natural) {
    if (!mc_type_get(t->type) || t->rank > 2)
      return refuse(e, "%s is not a form the layout holds", mc_op_input_name(e->req->op, k));
    for (int a = 0; a < t->rank; a++)
      if (t->shape[a] > 2)
        return refuse(e, "%s has a dimension above 2", mc_op_input_name(e->req->op, k));
    put_byte(e->out, 0x80);
    put_byte(e->out, (uint8_t)t->type);
    put_byte(e->out, (uint8_t)t->rank);
    for (int a = 0; a < t->rank; a++)
      put_byte(e->out, (uint8_t)t->shape[a]);
  } else {
    put_byte(e->out, 0);
  }
  const int64_t count = mc_type_get(t->type) ? mc_tensor_elements(t) : 0;
  for (int64_t i = 0; i < count; i++)
    put_u64(e->out, mc_load_bits(t->data, t->type, i));
  return true;
}

void mc_bytes_put_dims(encoder *e) {
  const mc_tensor *t = e->req->inputs[0];
  for (int a = 0; a < t->rank; a++)
    put_exact(e->out, (uint64_t)t->shape[a]);
}

/* The data's bytes are what the named fill makes. */
static bool fill_matches(const mc_tensor *t, int64_t count, mc_fuzz_fill fill, uint64_t param,
                         bool *oom) {
  mc_tensor made = *t;
  made.data = calloc(1, t->nbytes ? t->nbytes : 1);
  if (!made.data) {
    *oom = true;
    return false;
  }
  mc_fuzz_fill_data(&made, count, fill, param);
  bool same = t->nbytes == 0 || memcmp(made.data, t->data, t->nbytes) == 0;
  free(made.data);
  return same;
}

static bool put_data(encoder *e) {
  const mc_tensor *t = e->req->inputs[0];
  if (!mc_type_get(t->type)) {
    put_byte(e->out, 0); /* read, then ignored: MC-T1 rejects the request */
    return true;
  }
  int64_t count = mc_tensor_elements(t);
  size_t bytes;
  mc_storage_bytes(t->type, count, &bytes); /* tensor_fits said it can */
  if (!tensor_bytes_ok(e, t, count, bytes, "data"))
    return false;
  mc_fuzz_fill fill = e->in->data_fill;
  uint64_t param = e->in->data_fill_param;
  if (fill == MC_FUZZ_FILL_BYTES) {
    put_byte(e->out, SEL_INT64);
    for (size_t i = 0; i < bytes; i++)
      put_byte(e->out, t->data[i]);
    return true;
  }
  if (!fill_matches(t, count, fill, param, &e->out->oom))
    return e->out->oom ? false : refuse(e, "the data is not what its fill makes");
  put_byte(e->out, fill == MC_FUZZ_FILL_COUNTER ? SEL_COUNTER : SEL_PRNG);
  put_u64(e->out, param);
  return true;
}

/* The request's shape of things before any byte is written: the op, its
   inputs, the data tensor's size. */
static bool check_request(encoder *e) {
  const mc_request *req = e->req;
  if ((int)req->op < 0 || req->op >= MC_OP_COUNT)
    return refuse(e, "operation code %d", (int)req->op);
  if (!mc_op_input_count_ok(req->op, req->n_inputs))
    return refuse(e, "%d inputs where %s has %d to %d", req->n_inputs, mc_op_name(req->op),
                  mc_op_required_input_count(req->op), mc_op_input_count(req->op));
  for (int i = 0; i < req->n_inputs; i++)
    if (!req->inputs[i])
      return refuse(e, "input %d is missing", i);
  int64_t limit = e->in->large ? MC_FUZZ_LARGE_ELEMENTS : MC_FUZZ_SMALL_LIMIT;
  int64_t count;
  size_t bytes;
  if (!tensor_fits(req->inputs[0], limit, &count, &bytes))
    return refuse(e, "the data has more than %lld elements or a shape no tensor has",
                  (long long)limit);
  return true;
}

/* Operations of the data input alone: its dimensions. */
bool mc_bytes_put_data_dims(encoder *e) {
  mc_bytes_put_dims(e);
  return true;
}

/* A row per operation of movconf/op_list.h, mc_bytes_<slug> in
   src/cases/bytes/ops/<slug>.c: an operation whose file lacks it fails the
   link. */
#define MC_OP(NAME, slug) extern const mc_bytes_op mc_bytes_##slug;
#include "movconf/op_list.h"
#undef MC_OP
static const mc_bytes_op *const op_layouts[] = {
#define MC_OP(NAME, slug) [MC_OP_##NAME] = &mc_bytes_##slug,
#include "movconf/op_list.h"
#undef MC_OP
};
_Static_assert(sizeof op_layouts / sizeof op_layouts[0] == MC_OP_COUNT,
               "op_layouts: a row per operation");

static const mc_bytes_op *layout_of(mc_op op) {
  return op_layouts[op];
}

static bool put_request(encoder *e) {
  if (!check_request(e) || !put_header(e))
    return false;
  put_exact(e->out, (uint64_t)e->req->inputs[0]->rank);
  if (!put_attrs(e))
    return false;
  const mc_bytes_op *l = layout_of(e->req->op); /* check_request refused an op outside the enum */
  return l->put && l->put(e) && put_data(e);
}

bool mc_fuzz_encode(const mc_fuzz_input *in, mc_fuzz_bytes *out, char *why, size_t whylen) {
  memset(out, 0, sizeof *out);
  if (whylen > 0)
    why[0] = '\0';
  encoder e = {in, &in->req, out, why, whylen};
  bool ok = put_request(&e);
  if (ok && out->oom)
    ok = refuse(&e, "out of memory");
  if (!ok)
    mc_fuzz_bytes_free(out);
  return ok;
}

void mc_fuzz_bytes_free(mc_fuzz_bytes *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}
