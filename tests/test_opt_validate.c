/* The optimized validation (mc_opt_validate) against the literal oracle:
   every conformance case, then a seeded stream of hostile requests for all
   five operations. Both must give the same status and clause, and on
   success the same output shape and byte size. The oracle's shape alone
   (mc_oracle_output_shape) must say what its run says. */
#include <stdlib.h>
#include <time.h>

#include "cases/cases.h"
#include "check.h"
#include "common/checked.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"
#include "optimized/plan.h"

#define CAP MC_DEFAULT_MAX_OUTPUT_BYTES
#define RANDOM_REQUESTS 200000
#define RANDOM_SEED 0x6d6f76636f6e66ULL /* "movconf" */
/* Data tensors hold at most this many elements: only validation matters. */
#define MAX_DATA_ELEMENTS 4096
/* Above this output size the oracle would spend real time computing; both
   are then run with a cap one byte below the planned size instead. */
#define MAX_COMPUTED_OUTPUT_BYTES ((size_t)64 << 10)
#define MAX_SHOWN_MISMATCHES 12

/* ---- Comparing one request ---- */

typedef struct outcome {
  mc_status status;
  const char *clause;
  char message[256];
  int rank;
  int64_t shape[MC_TENSOR_MAX_RANK];
  size_t nbytes;
  mc_type type;
} outcome;

static bool same_clause(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static outcome run_oracle(const mc_request *req, size_t cap) {
  outcome o = {0};
  mc_tensor out;
  mc_error err;
  o.status = mc_oracle_run(req, cap, &out, &err);
  o.clause = err.clause;
  memcpy(o.message, err.message, sizeof o.message);
  if (o.status == MC_OK) {
    o.rank = out.rank;
    memcpy(o.shape, out.shape, sizeof o.shape);
    o.nbytes = out.nbytes;
    o.type = out.type;
  }
  mc_tensor_free(&out);
  return o;
}

static outcome run_oracle_shape(const mc_request *req, size_t cap) {
  outcome o = {0};
  mc_error err;
  int64_t elements;
  o.status = mc_oracle_output_shape(req, cap, &o.type, &o.rank, o.shape, &err);
  o.clause = err.clause;
  memcpy(o.message, err.message, sizeof o.message);
  if (o.status == MC_OK && mc_shape_elements(o.rank, o.shape, &elements))
    mc_storage_bytes(o.type, elements, &o.nbytes);
  return o;
}

static outcome run_validate(const mc_request *req, size_t cap, mc_opt_plan *plan) {
  outcome o = {0};
  mc_error err;
  o.status = mc_opt_validate(req, cap, plan, &err);
  o.clause = err.clause;
  memcpy(o.message, err.message, sizeof o.message);
  if (o.status == MC_OK) {
    o.rank = mc_opt_output_rank(plan);
    memcpy(o.shape, mc_opt_output_shape(plan), (size_t)o.rank * sizeof o.shape[0]);
    o.nbytes = plan->out_bytes;
    o.type = plan->type;
  }
  return o;
}

/* The plan's own consistency on success: elements and bytes match the shape. */
static bool plan_consistent(const mc_opt_plan *plan) {
  int64_t elements;
  size_t bytes;
  return mc_shape_elements(plan->out_rank, plan->out_shape, &elements) &&
         elements == plan->out_elements && mc_storage_bytes(plan->type, elements, &bytes) &&
         bytes == plan->out_bytes;
}

/* The same status and clause, and on success the same type, shape and
   byte size. */
static bool same_outcome(const outcome *a, const outcome *b) {
  if (a->status != b->status || !same_clause(a->clause, b->clause))
    return false;
  if (a->status != MC_OK)
    return true;
  if (a->rank != b->rank || a->nbytes != b->nbytes || a->type != b->type)
    return false;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i])
      return false;
  return true;
}

static bool outcomes_agree(const outcome *oracle, const outcome *mine, const mc_opt_plan *plan) {
  return same_outcome(oracle, mine) && (oracle->status != MC_OK || plan_consistent(plan));
}

/* The oracle's shape alone against its run: the same outcome and message. */
static bool shape_agrees(const outcome *run, const outcome *shape) {
  return same_outcome(run, shape) && strcmp(run->message, shape->message) == 0;
}

static void print_outcome(const char *who, const outcome *o) {
  fprintf(stderr, "    %-8s %s [%s] %s", who, mc_status_name(o->status),
          o->clause ? o->clause : "-", o->message);
  if (o->status == MC_OK) {
    fprintf(stderr, " shape [");
    for (int i = 0; i < o->rank; i++)
      fprintf(stderr, "%s%" PRId64, i ? ", " : "", o->shape[i]);
    fprintf(stderr, "] %zu bytes", o->nbytes);
  }
  fprintf(stderr, "\n");
}

static void dump_int_list(const char *name, const mc_int_list *l) {
  fprintf(stderr, "    %s: ", name);
  if (l->count < 0) {
    fprintf(stderr, "absent\n");
    return;
  }
  fprintf(stderr, "count %d [", l->count);
  for (int i = 0; i < l->count && i < MC_MAX_ATTR_LEN; i++)
    fprintf(stderr, "%s%" PRId64, i ? ", " : "", l->v[i]);
  fprintf(stderr, "]\n");
}

static void dump_tensor(const mc_request *req, int i) {
  const mc_tensor *t = req->inputs[i];
  const char *name = req->op >= 0 && req->op < MC_OP_COUNT ? mc_op_input_name(req->op, i) : "?";
  fprintf(stderr, "    input %d (%s): ", i, name ? name : "?");
  if (!t) {
    fprintf(stderr, "NULL\n");
    return;
  }
  fprintf(stderr, "%s (code %d) rank %d [", mc_type_name(t->type), (int)t->type, t->rank);
  for (int d = 0; d < t->rank && d < MC_TENSOR_MAX_RANK; d++)
    fprintf(stderr, "%s%" PRId64, d ? ", " : "", t->shape[d]);
  fprintf(stderr, "] %zu bytes%s", t->nbytes, t->data ? "" : " data NULL");
  int64_t n;
  if (i > 0 && t->data && mc_type_get(t->type) && t->rank <= MC_TENSOR_MAX_RANK &&
      mc_shape_elements(t->rank, t->shape, &n) && n <= 32) {
    fprintf(stderr, " raw values {");
    for (int64_t k = 0; k < n; k++)
      fprintf(stderr, "%s%#" PRIx64, k ? ", " : "", mc_load_bits(t->data, t->type, k));
    fprintf(stderr, "}");
  }
  fprintf(stderr, "\n");
}

static void dump_request(const mc_request *req, size_t cap) {
  fprintf(stderr, "    op %s (code %d), %d inputs, cap %zu\n", mc_op_name(req->op), (int)req->op,
          req->n_inputs, cap);
  for (int i = 0; i < req->n_inputs && i < MC_MAX_INPUTS; i++)
    dump_tensor(req, i);
  const mc_attrs *a = &req->attrs;
  if (req->op == MC_OP_SPACE_TO_DEPTH || req->op == MC_OP_DEPTH_TO_SPACE) {
    fprintf(stderr, "    mode %s%s%s, block_size ", mc_attrs_string(a, MC_ATTR_MODE) ? "\"" : "",
            mc_attrs_string(a, MC_ATTR_MODE) ? mc_attrs_string(a, MC_ATTR_MODE) : "absent",
            mc_attrs_string(a, MC_ATTR_MODE) ? "\"" : "");
    if (mc_attrs_present(a, MC_ATTR_BLOCK_SIZE))
      fprintf(stderr, "%" PRId64 "\n", mc_attrs_int(a, MC_ATTR_BLOCK_SIZE));
    else
      fprintf(stderr, "absent\n");
  }
  if (req->op == MC_OP_EXTRACT_IMAGE_PATCHES) {
    dump_int_list("sizes", mc_attrs_list(a, MC_ATTR_SIZES));
    dump_int_list("strides", mc_attrs_list(a, MC_ATTR_STRIDES));
    dump_int_list("rates", mc_attrs_list(a, MC_ATTR_RATES));
    fprintf(stderr, "    auto_pad %s\n",
            mc_attrs_string(a, MC_ATTR_AUTO_PAD) ? mc_attrs_string(a, MC_ATTR_AUTO_PAD) : "absent");
  }
}

/* ---- Statistics ---- */

typedef struct tally {
  long compared;
  long mismatches;
  long cap_lowered;
  long status_seen[MC_STATUS_COUNT];
} tally;

/* Runs both on req, compares, records. Returns false on a mismatch. */
static bool compare_request(const mc_request *req, size_t cap, tally *tl, const char *label) {
  mc_opt_plan plan;
  outcome mine = run_validate(req, cap, &plan);
  if (mine.status == MC_OK && plan.out_bytes > MAX_COMPUTED_OUTPUT_BYTES && cap >= plan.out_bytes) {
    /* Do not let the oracle fill a large output: check the same request
       with the cap just below it, where both must stop at MC-L4. */
    cap = plan.out_bytes - 1;
    tl->cap_lowered++;
    mine = run_validate(req, cap, &plan);
  }
  outcome oracle = run_oracle(req, cap);
  outcome shape = run_oracle_shape(req, cap);
  tl->compared++;
  if (oracle.status >= 0 && oracle.status < MC_STATUS_COUNT)
    tl->status_seen[oracle.status]++;
  if (outcomes_agree(&oracle, &mine, &plan) && shape_agrees(&oracle, &shape))
    return true;
  tl->mismatches++;
  if (tl->mismatches <= MAX_SHOWN_MISMATCHES) {
    fprintf(stderr, "MISMATCH %s\n", label);
    dump_request(req, cap);
    print_outcome("oracle", &oracle);
    print_outcome("validate", &mine);
    print_outcome("shape", &shape);
  }
  return false;
}

/* ---- Part 1: every conformance case ---- */

static void compare_conformance_cases(void) {
  const char *roots[1] = {MOVCONF_SOURCE_DIR "/conformance"};
  mc_path_list files = {0};
  char msg[512];
  CHECK(mc_find_case_files(roots, 1, &files, msg, sizeof msg));
  CHECK(files.count >= 20);
  tally tl = {0};
  for (int f = 0; f < files.count; f++) {
    mc_case_file file;
    bool loaded = mc_case_file_load(files.paths[f], &file, msg, sizeof msg);
    CHECK(loaded);
    if (!loaded) {
      fprintf(stderr, "  %s\n", msg);
      continue;
    }
    for (int c = 0; c < file.n_cases; c++) {
      mc_request req = mc_request_of_case(&file.cases[c]);
      /* Case inputs are whatever size the case says: compare at the full cap. */
      mc_opt_plan plan;
      outcome mine = run_validate(&req, CAP, &plan);
      outcome oracle = run_oracle(&req, CAP);
      outcome shape = run_oracle_shape(&req, CAP);
      tl.compared++;
      tl.status_seen[oracle.status]++;
      bool agree = outcomes_agree(&oracle, &mine, &plan) && shape_agrees(&oracle, &shape);
      CHECK(agree);
      if (!agree) {
        fprintf(stderr, "MISMATCH case %s in %s\n", file.cases[c].id, files.paths[f]);
        dump_request(&req, CAP);
        print_outcome("oracle", &oracle);
        print_outcome("validate", &mine);
        print_outcome("shape", &shape);
      }
    }
    mc_case_file_free(&file);
  }
  mc_path_list_free(&files);
  printf("conformance: %ld cases compared, %ld ok, %ld rejected\n", tl.compared,
         tl.status_seen[MC_OK], tl.compared - tl.status_seen[MC_OK]);
}

/* ---- Part 2: random hostile requests ---- */

static uint64_t rng_state;

/* splitmix64: tiny, fast and good enough to spread the choices. */
static uint64_t rng_next(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static int64_t rng_below(int64_t n) {
  return (int64_t)(rng_next() % (uint64_t)n);
}

/* true with probability percent / 100. */
static bool rng_chance(int percent) {
  return rng_below(100) < percent;
}

static const int64_t huge_dims[] = {INT32_MAX, (int64_t)1 << 32, (int64_t)1 << 40, (int64_t)1 << 62,
                                    INT64_MAX};

static int64_t pick_huge_dim(void) {
  return huge_dims[rng_below((int64_t)(sizeof huge_dims / sizeof huge_dims[0]))];
}

/* A quarter of the requests are drawn "heavy": huge dimensions and edge
   values far more often, to stress the MC-L3 points. */
static bool heavy;

/* A data dimension: 0..5 mostly, now and then huge. */
static int64_t pick_dim(void) {
  int64_t r = rng_below(100);
  if (r < (heavy ? 20 : 10))
    return 0;
  if (r < (heavy ? 65 : 95))
    return 1 + rng_below(5);
  return pick_huge_dim();
}

/* Mostly small ranks around the op's valid range; 17 and 18 rarely. */
static int pick_rank(int lo, int hi) {
  int64_t r = rng_below(1000);
  if (r < 4)
    return 17 + (int)rng_below(2);
  if (r < 60)
    return (int)rng_below(7);
  if (r < 80)
    return 16;
  return lo + (int)rng_below(hi - lo + 1);
}

/* Raw bits for a side-input or attribute value: small, edge or huge. */
static const uint64_t special_values[] = {(uint64_t)-1,
                                          (uint64_t)-2,
                                          0,
                                          1,
                                          2,
                                          (uint64_t)INT32_MAX,
                                          (uint64_t)1 << 32,
                                          (uint64_t)INT64_MAX,
                                          (uint64_t)INT64_MAX + 1,
                                          UINT64_MAX - 3,
                                          (uint64_t)1 << 40,
                                          (uint64_t)1 << 62,
                                          (uint64_t)INT64_MIN,
                                          (uint64_t)INT32_MAX + 1};

static uint64_t pick_special(void) {
  return special_values[rng_below((int64_t)(sizeof special_values / sizeof special_values[0]))];
}

/* A value that is mostly in [lo, hi], sometimes an edge value. */
static uint64_t pick_value(int64_t lo, int64_t hi, int special_percent) {
  if (rng_chance(heavy ? 8 * special_percent : special_percent))
    return pick_special();
  return (uint64_t)(lo + rng_below(hi - lo + 1));
}

static const mc_type side_integer_types[8] = {MC_I8, MC_I16, MC_I32, MC_I64,
                                              MC_U8, MC_U16, MC_U32, MC_U64};
static const mc_type side_other_types[] = {MC_BOOLEAN, MC_F32, MC_F16, MC_F64,
                                           MC_U1,      MC_U4,  MC_I4,  MC_BF16};

/* A generated request: the tensors and buffers it points into. */
typedef struct gen_request {
  mc_request req;
  mc_tensor tensors[MC_MAX_INPUTS];
  uint8_t side_bytes[MC_MAX_INPUTS - 1][1024];
  size_t cap;
} gen_request;

static uint8_t data_bytes[MAX_DATA_ELEMENTS * 8];

/* The byte size of a tensor, or false when its element count is not small
   (a request with such data is skipped) or not representable (kept: the
   request is then malformed and must be rejected by check 0). */
static bool size_tensor(mc_tensor *t, int64_t max_elements, bool *malformed) {
  int64_t count;
  *malformed = false;
  if (!mc_shape_elements(t->rank, t->shape, &count)) {
    *malformed = true;
    t->nbytes = 0;
    return true;
  }
  if (count > max_elements)
    return false;
  if (!mc_type_get(t->type)) {
    t->nbytes = (size_t)rng_below(3);
    return true;
  }
  return mc_storage_bytes(t->type, count, &t->nbytes);
}

static mc_type pick_data_type(void) {
  if (rng_chance(1))
    return rng_chance(50) ? MC_TYPE_COUNT : MC_TYPE_INVALID;
  return (mc_type)rng_below(MC_TYPE_COUNT);
}

/* Draws a data tensor of the given rank; when a huge dimension makes the
   element count large, often zeroes another axis so that it stays valid. */
static bool make_data(gen_request *g, int rank, const int64_t *dims) {
  mc_tensor *t = &g->tensors[0];
  t->type = pick_data_type();
  t->rank = rank;
  for (int i = 0; i < rank; i++)
    t->shape[i] = dims ? dims[i] : pick_dim();
  int64_t count;
  if (rank > 0 && (!mc_shape_elements(rank, t->shape, &count) || count > MAX_DATA_ELEMENTS) &&
      rng_chance(70))
    t->shape[rng_below(rank)] = 0;
  bool malformed;
  if (!size_tensor(t, MAX_DATA_ELEMENTS, &malformed))
    return false;
  t->data = data_bytes;
  return true;
}

/* Side input `slot` (1..4) of a B2S/S2B/Slice request for data rank n; values[k]
   gives the raw value of element k before truncation to the type. */
static void make_side_input(gen_request *g, int slot, int n, const uint64_t *values) {
  mc_tensor *t = &g->tensors[slot];
  uint8_t *buf = g->side_bytes[slot - 1];
  int64_t r = rng_below(100);
  if (r < 90)
    t->type = side_integer_types[rng_below(8)];
  else if (r < 99)
    t->type = side_other_types[rng_below(
        (int64_t)(sizeof side_other_types / sizeof side_other_types[0]))];
  else
    t->type = (mc_type)(MC_TYPE_COUNT + 3);
  int64_t length = n;
  r = rng_below(100);
  if (r < 6)
    length = n - 1 < 0 ? 0 : n - 1;
  else if (r < 12)
    length = n + 1;
  r = rng_below(1000);
  if (r < 950) {
    t->rank = 1;
    t->shape[0] = length;
  } else if (r < 975) {
    t->rank = 2;
    t->shape[0] = rng_chance(50) ? 1 : length;
    t->shape[1] = t->shape[0] == 1 ? length : 1;
  } else if (r < 990) {
    t->rank = 0;
  } else {
    t->rank = 17;
    for (int i = 0; i < 17; i++)
      t->shape[i] = 1;
    t->shape[0] = length;
  }
  bool malformed;
  size_tensor(t, 64, &malformed);
  memset(buf, 0, sizeof g->side_bytes[0]);
  t->data = buf;
  int64_t count;
  if (mc_type_get(t->type) && mc_shape_elements(t->rank, t->shape, &count))
    for (int64_t k = 0; k < count && k < 64; k++)
      mc_store_bits(buf, t->type, k, values[k < n ? k : 0]);
}

/* Every input pointer is set, so that a generator may leave out trailing
   optional inputs by lowering n_inputs (and maybe_break_request raise it). */
static void start_request(gen_request *g, mc_op op) {
  memset(&g->req, 0, sizeof g->req);
  g->req.op = op;
  g->req.n_inputs = mc_op_input_count(op);
  for (int i = 0; i < MC_MAX_INPUTS; i++)
    g->req.inputs[i] = &g->tensors[i];
  g->req.attrs = mc_attrs_none();
}

/* B2S and S2B: block values mostly 1..3, offsets mostly 0..3. A batch that
   divides (B2S) or pads that divide (S2B) are arranged half the time so
   that later clauses get reached. */
static bool gen_batch_space(gen_request *g, mc_op op) {
  start_request(g, op);
  int n = pick_rank(2, 5);
  int cells_n = n > 0 && n <= MC_MAX_RANK ? n : 1;
  uint64_t block[MC_MAX_RANK + 2], begin[MC_MAX_RANK + 2], end[MC_MAX_RANK + 2];
  int64_t dims[MC_TENSOR_MAX_RANK];
  for (int i = 0; i < MC_MAX_RANK + 2; i++) {
    bool first = i == 0;
    block[i] = first && rng_chance(90) ? 1 : pick_value(rng_chance(5) ? -1 : 1, 3, 4);
    begin[i] = first && rng_chance(92) ? 0 : pick_value(0, 3, 3) * (uint64_t)rng_chance(45);
    end[i] = first && rng_chance(92) ? 0 : pick_value(0, 3, 3) * (uint64_t)rng_chance(45);
  }
  for (int i = 0; i < n; i++)
    dims[i] = pick_dim();
  if (n >= 2 && n <= MC_MAX_RANK && rng_chance(50)) {
    if (op == MC_OP_BATCH_TO_SPACE) {
      int64_t cells = 1;
      for (int i = 1; i < cells_n; i++)
        if (block[i] >= 1 && block[i] <= 3)
          cells *= (int64_t)block[i];
      dims[0] = cells * rng_below(3);
    } else {
      for (int i = 1; i < n; i++)
        if (block[i] >= 1 && block[i] <= 3 && dims[i] <= 5 && begin[i] <= 3 && end[i] <= 3)
          end[i] +=
              (block[i] - (uint64_t)(dims[i] + (int64_t)begin[i] + (int64_t)end[i]) % block[i]) %
              block[i];
    }
  }
  if (!make_data(g, n, dims))
    return false;
  make_side_input(g, 1, n, block);
  make_side_input(g, 2, n, begin);
  make_side_input(g, 3, n, end);
  return true;
}

static const char *pick_mode(void) {
  static const char *const modes[] = {"blocks_first", "depth_first", "BLOCKS_FIRST", "",
                                      "depth_first ", "Depth_First"};
  int64_t r = rng_below(100);
  if (r < 5)
    return NULL;
  if (r < 90)
    return modes[r % 2];
  return modes[2 + rng_below(4)];
}

static void pick_block_size(mc_attrs *a) {
  int64_t r = rng_below(100);
  if (r < 15)
    a->by_id[MC_ATTR_BLOCK_SIZE].i = 77; /* stored but absent: ignored, absent means 1 */
  else if (r < 80)
    mc_attrs_set_int(a, MC_ATTR_BLOCK_SIZE, 1 + rng_below(3));
  else if (r < 88)
    mc_attrs_set_int(a, MC_ATTR_BLOCK_SIZE, (int64_t)pick_value(-2, 0, 0));
  else
    mc_attrs_set_int(a, MC_ATTR_BLOCK_SIZE, (int64_t)pick_special());
}

/* S2D and D2S: the divisibility the op needs is arranged half the time. */
static bool gen_depth_space(gen_request *g, mc_op op) {
  start_request(g, op);
  pick_block_size(&g->req.attrs);
  mc_attrs_set_string(&g->req.attrs, MC_ATTR_MODE, pick_mode());
  int rank = pick_rank(3, 5);
  int64_t dims[MC_TENSOR_MAX_RANK];
  for (int i = 0; i < rank; i++)
    dims[i] = pick_dim();
  int64_t bs = mc_attrs_present(&g->req.attrs, MC_ATTR_BLOCK_SIZE)
                   ? mc_attrs_int(&g->req.attrs, MC_ATTR_BLOCK_SIZE)
                   : 1;
  if (rank >= 3 && bs >= 1 && bs <= 3 && rng_chance(50)) {
    if (op == MC_OP_SPACE_TO_DEPTH) {
      for (int i = 2; i < rank; i++)
        if (dims[i] <= 5)
          dims[i] = bs * rng_below(3);
    } else {
      int64_t grid;
      if (mc_pow_i64(bs, rank - 2, &grid) && grid <= 64)
        dims[1] = grid * rng_below(3);
    }
  }
  return make_data(g, rank, dims);
}

static void pick_int_list(mc_int_list *l) {
  int64_t r = rng_below(100);
  if (r < 90)
    l->count = 2;
  else if (r < 96)
    l->count = (int)rng_below(5) - 1; /* -1 .. 3 */
  else
    l->count = MC_MAX_ATTR_LEN + 1;
  for (int i = 0; i < MC_MAX_ATTR_LEN; i++) {
    r = rng_below(100);
    if (r < (heavy ? 55 : 85))
      l->v[i] = 1 + rng_below(3);
    else if (r < 91)
      l->v[i] = rng_below(2) - 1; /* -1, 0 */
    else if (r < 96 || heavy)
      l->v[i] = (int64_t)1 << 40;
    else
      l->v[i] = rng_below((int64_t)1 << 40);
  }
}

static const char *pick_auto_pad(void) {
  static const char *const pads[] = {"valid",    "same_upper", "same_lower", "SAME_UPPER",
                                     "explicit", "",           "notset",     "same"};
  int64_t r = rng_below(100);
  if (r < 4)
    return NULL;
  if (r < 91)
    return pads[rng_below(3)];
  return pads[3 + rng_below(5)];
}

static bool gen_patches(gen_request *g) {
  start_request(g, MC_OP_EXTRACT_IMAGE_PATCHES);
  mc_attrs *a = &g->req.attrs;
  pick_int_list(mc_attrs_list_slot(a, MC_ATTR_SIZES));
  pick_int_list(mc_attrs_list_slot(a, MC_ATTR_STRIDES));
  pick_int_list(mc_attrs_list_slot(a, MC_ATTR_RATES));
  mc_attrs_set_string(a, MC_ATTR_AUTO_PAD, pick_auto_pad());
  int rank = rng_chance(85) ? 4 : pick_rank(4, 4);
  return make_data(g, rank, NULL);
}

/* axis and group: mostly in range, absent now and then, extremes too. */
static void pick_shuffle_int(mc_attrs *a, mc_attr id, int64_t natural) {
  int64_t r = rng_below(100);
  if (r < 10)
    return; /* absent: 1 */
  if (r < 80)
    mc_attrs_set_int(a, id, natural);
  else if (r < 90)
    mc_attrs_set_int(a, id, (int64_t)pick_value(-3, 0, 0));
  else
    mc_attrs_set_int(a, id, (int64_t)pick_special());
}

/* ShuffleChannels: the channel axis a multiple of group half the time. */
static bool gen_shuffle(gen_request *g) {
  start_request(g, MC_OP_SHUFFLE_CHANNELS);
  int rank = pick_rank(1, 5);
  int64_t dims[MC_TENSOR_MAX_RANK];
  for (int i = 0; i < rank; i++)
    dims[i] = pick_dim();
  int64_t axis = rank > 0 ? rng_below(rank) - (rng_chance(30) ? rank : 0) : 0;
  pick_shuffle_int(&g->req.attrs, MC_ATTR_AXIS, axis);
  pick_shuffle_int(&g->req.attrs, MC_ATTR_GROUP, 1 + rng_below(4));
  int64_t group = mc_attrs_int(&g->req.attrs, MC_ATTR_GROUP);
  axis = mc_attrs_int(&g->req.attrs, MC_ATTR_AXIS);
  if (rank > 0 && rank <= MC_MAX_RANK && axis >= -rank && axis < rank && group >= 1 && group <= 4 &&
      rng_chance(50))
    dims[axis < 0 ? axis + rank : axis] = group * rng_below(3);
  return make_data(g, rank, dims);
}

/* Now and then the request itself is malformed (check 0). */
static void maybe_break_request(gen_request *g) {
  if (!rng_chance(2))
    return;
  int victim = (int)rng_below(g->req.n_inputs);
  mc_tensor *t = &g->tensors[victim];
  switch (rng_below(9)) {
  case 0:
    g->req.op = rng_chance(50) ? MC_OP_INVALID : MC_OP_COUNT;
    break;
  case 1:
    g->req.n_inputs += rng_chance(50) ? 1 : -1;
    break;
  case 2:
    g->req.inputs[victim] = NULL;
    break;
  case 3:
    t->nbytes += 1;
    break;
  case 4:
    t->data = NULL;
    break;
  case 5:
    if (t->rank > 0)
      t->shape[rng_below(t->rank)] = -1 - rng_below(3);
    break;
  case 6:
    t->rank = -1;
    break;
  default:
    t->rank = MC_TENSOR_MAX_RANK + 1;
    break;
  }
}

static size_t pick_cap(void) {
  static const size_t small_caps[] = {0, 1, 7, 16, 100, 4096};
  if (rng_chance(85))
    return CAP;
  return small_caps[rng_below((int64_t)(sizeof small_caps / sizeof small_caps[0]))];
}

/* Slice: four or five inputs; start and stop mostly near the data's
   range, now and then an edge value; steps 0 now and then; axes mostly in
   range, negative ones and repeats by the draw. */
static bool gen_slice(gen_request *g) {
  start_request(g, MC_OP_SLICE);
  if (rng_chance(35))
    g->req.n_inputs = 4; /* axes absent */
  int rank = pick_rank(1, 5);
  int64_t n = rank >= 0 && rank <= MC_MAX_RANK ? rank : 1;
  if (rng_chance(15))
    n = rng_below(n + 1); /* fewer axes sliced, none at times */
  else if (rng_chance(5))
    n++; /* more than the rank: a default axis out of range, or a repeat */
  uint64_t start[MC_MAX_RANK + 2], stop[MC_MAX_RANK + 2], step[MC_MAX_RANK + 2],
      axes[MC_MAX_RANK + 2];
  const int64_t r = n > 0 ? n : 1;
  for (int i = 0; i < MC_MAX_RANK + 2; i++) {
    start[i] = pick_value(-7, 7, 8);
    stop[i] = pick_value(-7, 7, 8);
    step[i] = rng_chance(3) ? 0 : pick_value(-3, 3, 6);
    axes[i] = pick_value(-r - 1, r, 4);
  }
  if (!make_data(g, rank, NULL))
    return false;
  for (int slot = 1; slot < g->req.n_inputs; slot++)
    make_side_input(g, slot, (int)n, (const uint64_t *[]){start, stop, step, axes}[slot - 1]);
  return true;
}

/* Pad: the four modes mostly, misspelt or absent now and then; pads mostly
   in [-3, 3] (so that reflect and symmetric limits are met and missed);
   pad_value absent a third of the time, else a scalar of the data's type,
   now and then of another type or rank 1. */
static bool gen_pad(gen_request *g) {
  static const char *const modes[] = {"constant", "edge", "reflect", "symmetric", "Reflect", ""};
  start_request(g, MC_OP_PAD);
  const int64_t m = rng_below(100);
  if (m >= 3)
    mc_attrs_set_string(&g->req.attrs, MC_ATTR_PAD_MODE, modes[m < 95 ? m % 4 : 4 + m % 2]);
  int rank = pick_rank(1, 5);
  int64_t n = rank >= 0 && rank <= MC_MAX_RANK ? rank : 1;
  if (rng_chance(5))
    n += rng_chance(50) ? 1 : -1;
  uint64_t begin[MC_MAX_RANK + 2], end[MC_MAX_RANK + 2];
  for (int i = 0; i < MC_MAX_RANK + 2; i++) {
    begin[i] = pick_value(-3, 3, 5);
    end[i] = pick_value(-3, 3, 5);
  }
  if (!make_data(g, rank, NULL))
    return false;
  make_side_input(g, 1, (int)n, begin);
  make_side_input(g, 2, (int)n, end);
  if (rng_chance(33)) {
    g->req.n_inputs = 3;
    return true;
  }
  mc_tensor *v = &g->tensors[3];
  v->type = rng_chance(90) ? g->tensors[0].type : side_integer_types[rng_below(8)];
  v->rank = rng_chance(90) ? 0 : 1;
  v->shape[0] = 1;
  v->data = g->side_bytes[2];
  memset(v->data, 0x5A, 8);
  bool malformed;
  return size_tensor(v, 1, &malformed) || malformed;
}

/* StridedSlice: stride absent now and then; begin and end mostly near the
   data's range; masks mostly 0 and 1 (a 2 or a -1 now and then), so that
   ellipses, new axes, shrinks out of range and too many entries show. */
static bool gen_strided_slice(gen_request *g) {
  static const mc_attr masks[] = {MC_ATTR_BEGIN_MASK, MC_ATTR_END_MASK, MC_ATTR_NEW_AXIS_MASK,
                                  MC_ATTR_SHRINK_AXIS_MASK, MC_ATTR_ELLIPSIS_MASK};
  start_request(g, MC_OP_STRIDED_SLICE);
  if (rng_chance(25))
    g->req.n_inputs = 3; /* stride absent */
  int rank = pick_rank(0, 4);
  int64_t n = rank >= 0 && rank <= MC_MAX_RANK ? rank : 1;
  n = rng_chance(30) ? rng_below(n + 3) : n;
  for (int k = 0; k < 5; k++) {
    if (rng_chance(40))
      continue;
    mc_int_list l = {.count = (int)rng_below(n + 2)};
    for (int i = 0; i < l.count; i++)
      l.v[i] = rng_chance(2) ? (rng_chance(50) ? 2 : -1) : rng_chance(k < 2 ? 40 : 15);
    mc_attrs_set_list(&g->req.attrs, masks[k], &l);
  }
  uint64_t begin[MC_MAX_RANK + 3], end[MC_MAX_RANK + 3], stride[MC_MAX_RANK + 3];
  for (int i = 0; i < MC_MAX_RANK + 3; i++) {
    begin[i] = pick_value(-7, 7, 8);
    end[i] = pick_value(-7, 7, 8);
    stride[i] = rng_chance(3) ? 0 : pick_value(-3, 3, 6);
    stride[i] = stride[i] ? stride[i] : 1;
  }
  if (rng_chance(3))
    stride[0] = 0;
  if (!make_data(g, rank, NULL))
    return false;
  for (int slot = 1; slot < g->req.n_inputs; slot++)
    make_side_input(g, slot, (int)n, (const uint64_t *[]){begin, end, stride}[slot - 1]);
  return true;
}

/* Gather: indices of rank 0 to 3 whose leading extents copy the data's
     most of the time (so that batch axes agree), values mostly within one
     of [-d, d-1]; axis mostly a valid one, as [1] or (now and then) a
     scalar; batch_dims absent or in [-2, 2] mostly. */
static bool gen_gather(gen_request *g) {
  start_request(g, MC_OP_GATHER);
  const int rank = pick_rank(0, 4);
  if (!make_data(g, rank, NULL))
    return false;
  if (rng_chance(60))
    mc_attrs_set_int(&g->req.attrs, MC_ATTR_BATCH_DIMS, (int64_t)pick_value(-2, 2, 5));
  uint64_t axis = pick_value(-rank - 1, rank, 5), values[64];
  for (int k = 0; k < 64; k++)
    values[k] = pick_value(-5, 4, 5);
  make_side_input(g, 2, 1, &axis);
  if (rng_chance(30) && g->tensors[2].rank == 1 && g->tensors[2].shape[0] == 1)
    g->tensors[2].rank = 0;
  make_side_input(g, 1, 4, values);
  mc_tensor *t = &g->tensors[1];
  if (t->rank == 1 && mc_type_get(t->type)) {
    t->rank = (int)rng_below(4);
    for (int i = 0; i < t->rank; i++) {
      const int64_t d = i < rank ? g->tensors[0].shape[i] : 0;
      t->shape[i] = d >= 0 && d <= 4 && rng_chance(70) ? d : 1 + (int64_t)rng_below(3);
    }
    int64_t count;
    if (mc_shape_elements(t->rank, t->shape, &count))
      for (int64_t k = 0; k < count; k++)
        mc_store_bits(t->data, t->type, k, values[k]);
    bool malformed;
    size_tensor(t, 64, &malformed);
  }
  return true;
}

static bool gen_request_any(gen_request *g) {
  memset(g->tensors, 0, sizeof g->tensors);
  heavy = rng_chance(25);
  bool made;
  switch (rng_below(10)) {
  case 0:
    made = gen_batch_space(g, MC_OP_BATCH_TO_SPACE);
    break;
  case 1:
    made = gen_batch_space(g, MC_OP_SPACE_TO_BATCH);
    break;
  case 2:
    made = gen_depth_space(g, MC_OP_SPACE_TO_DEPTH);
    break;
  case 3:
    made = gen_depth_space(g, MC_OP_DEPTH_TO_SPACE);
    break;
  case 4:
    made = gen_shuffle(g);
    break;
  case 5:
    made = gen_slice(g);
    break;
  case 6:
    made = gen_pad(g);
    break;
  case 7:
    made = gen_strided_slice(g);
    break;
  case 8:
    made = gen_gather(g);
    break;
  default:
    made = gen_patches(g);
    break;
  }
  if (!made)
    return false;
  maybe_break_request(g);
  g->cap = pick_cap();
  return true;
}

/* MOVCONF_VALIDATE_SEED and MOVCONF_VALIDATE_REQUESTS override the fixed
   seed and count, to search further by hand; ctest uses the defaults. */
static uint64_t env_number(const char *name, uint64_t fallback) {
  const char *text = getenv(name);
  return text && *text ? strtoull(text, NULL, 0) : fallback;
}

static void compare_random_requests(void) {
  rng_state = env_number("MOVCONF_VALIDATE_SEED", RANDOM_SEED);
  long requests = (long)env_number("MOVCONF_VALIDATE_REQUESTS", RANDOM_REQUESTS);
  static gen_request g;
  tally tl = {0};
  long skipped_large = 0;
  clock_t start = clock();
  while (tl.compared < requests) {
    if (!gen_request_any(&g)) {
      skipped_large++;
      continue;
    }
    char label[64];
    snprintf(label, sizeof label, "random request #%ld", tl.compared);
    compare_request(&g.req, g.cap, &tl, label);
  }
  double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
  printf("random: %ld requests compared in %.2f s (%ld drawn with too much data and skipped, "
         "%ld with the cap lowered below a large output), %ld mismatches\n",
         tl.compared, seconds, skipped_large, tl.cap_lowered, tl.mismatches);
  CHECK_EQ_I64(tl.mismatches, 0);
  printf("statuses reached:\n");
  for (int s = 0; s < MC_STATUS_COUNT; s++) {
    printf("  %-24s %ld\n", mc_status_name((mc_status)s), tl.status_seen[s]);
    if (s != MC_E_OUT_OF_MEMORY && s != MC_E_UNSUPPORTED_TYPE && tl.status_seen[s] == 0) {
      fprintf(stderr, "status %s was never reached\n", mc_status_name((mc_status)s));
      CHECK(tl.status_seen[s] > 0);
    }
  }
}

/* ---- A few hand-checked plans: fields the kernels rely on ---- */

static void check_plan_fields(void) {
  /* EIP, seed 003 example 3: in 10, size 4, stride 9, rate 1, same_upper:
     out = ceil(10/9) = 2, pad = 1*9 + 4 - 10 = 3, pad_begin = 1. */
  int64_t shape[4] = {1, 1, 10, 10};
  mc_tensor data = {.type = MC_F32, .rank = 4, .data = data_bytes, .nbytes = 400};
  memcpy(data.shape, shape, sizeof shape);
  mc_request req = {.op = MC_OP_EXTRACT_IMAGE_PATCHES, .n_inputs = 1, .inputs = {&data}};
  req.attrs = mc_attrs_none();
  mc_attrs_set_list(&req.attrs, MC_ATTR_SIZES, &(mc_int_list){2, {4, 4}});
  mc_attrs_set_list(&req.attrs, MC_ATTR_STRIDES, &(mc_int_list){2, {9, 9}});
  mc_attrs_set_list(&req.attrs, MC_ATTR_RATES, &(mc_int_list){2, {1, 1}});
  mc_attrs_set_string(&req.attrs, MC_ATTR_AUTO_PAD, "same_upper");
  mc_opt_plan plan;
  mc_error err;
  CHECK_EQ_I64(mc_opt_validate(&req, CAP, &plan, &err), MC_OK);
  CHECK_EQ_I64(plan.out_shape[1], 16);
  CHECK_EQ_I64(plan.out_shape[2], 2);
  CHECK_EQ_I64(plan.pad_begin[0], 1);
  CHECK_EQ_I64(plan.pad_begin[1], 1);
  CHECK_EQ_I64(plan.out_bytes, 16 * 2 * 2 * 4);
  /* same_lower puts the odd element first: pad_begin = 3 - 1 = 2. */
  mc_attrs_set_string(&req.attrs, MC_ATTR_AUTO_PAD, "same_lower");
  CHECK_EQ_I64(mc_opt_validate(&req, CAP, &plan, &err), MC_OK);
  CHECK_EQ_I64(plan.pad_begin[0], 2);
  /* A rate of 2^40 with size 2 and in 10, stride 1: eff = 2^40 + 1, out = 10,
     pad = 9 + 2^40 + 1 - 10 = 2^40; the output stays [1, 4, 10, 10]. */
  mc_attrs_set_list(&req.attrs, MC_ATTR_SIZES, &(mc_int_list){2, {2, 2}});
  mc_attrs_set_list(&req.attrs, MC_ATTR_STRIDES, &(mc_int_list){2, {1, 1}});
  mc_attrs_set_list(&req.attrs, MC_ATTR_RATES, &(mc_int_list){2, {(int64_t)1 << 40, 1}});
  mc_attrs_set_string(&req.attrs, MC_ATTR_AUTO_PAD, "same_upper");
  CHECK_EQ_I64(mc_opt_validate(&req, CAP, &plan, &err), MC_OK);
  CHECK_EQ_I64(plan.pad_begin[0], (int64_t)1 << 39);
  CHECK_EQ_I64(plan.out_shape[2], 10);
  /* ShuffleChannels: the axis normalised, the output shape the data's. */
  int64_t sc_shape[3] = {2, 6, 5};
  mc_tensor sc_data = {.type = MC_F32, .rank = 3, .data = data_bytes, .nbytes = 240};
  memcpy(sc_data.shape, sc_shape, sizeof sc_shape);
  mc_request sc = {.op = MC_OP_SHUFFLE_CHANNELS, .n_inputs = 1, .inputs = {&sc_data}};
  sc.attrs = mc_attrs_none();
  mc_attrs_set_int(&sc.attrs, MC_ATTR_AXIS, -2);
  mc_attrs_set_int(&sc.attrs, MC_ATTR_GROUP, 3);
  CHECK_EQ_I64(mc_opt_validate(&sc, CAP, &plan, &err), MC_OK);
  CHECK_EQ_I64(plan.channel_axis, 1);
  CHECK_EQ_I64(plan.group, 3);
  CHECK(memcmp(plan.out_shape, sc_shape, sizeof sc_shape) == 0);
  CHECK_EQ_I64(plan.out_bytes, 240);
  /* No plan or no request: API misuse. */
  CHECK_EQ_I64(mc_opt_validate(&req, CAP, NULL, &err), MC_E_INVALID_ARGUMENT);
  CHECK_EQ_I64(mc_opt_validate(NULL, CAP, &plan, &err), MC_E_INVALID_ARGUMENT);
  CHECK(err.clause == NULL);
}

/* ---- Hand-built edge cases, expectations worked out from the spec ---- */

typedef struct hand_request {
  mc_tensor t[MC_MAX_INPUTS];
  uint8_t side[MC_MAX_INPUTS - 1][256];
  mc_request req;
} hand_request;

static hand_request hand;

/* Starts a request whose data is small, or has a zero axis. */
static void hand_start(mc_op op, mc_type type, int rank, const int64_t *shape) {
  memset(&hand, 0, sizeof hand);
  hand.req.op = op;
  hand.req.n_inputs = mc_op_input_count(op);
  hand.req.attrs = mc_attrs_none();
  for (int i = 0; i < hand.req.n_inputs; i++)
    hand.req.inputs[i] = &hand.t[i];
  mc_tensor *d = &hand.t[0];
  d->type = type;
  d->rank = rank;
  memcpy(d->shape, shape, (size_t)rank * sizeof shape[0]);
  int64_t count;
  if (!mc_shape_elements(rank, shape, &count) || count > MAX_DATA_ELEMENTS ||
      !mc_storage_bytes(type, count, &d->nbytes)) {
    fprintf(stderr, "hand case data is not small\n");
    abort();
  }
  d->data = data_bytes;
}

/* Side input slot (1..4) of n values, 1-D, given as raw bits. */
static void hand_side(int slot, mc_type type, int n, const uint64_t *raw) {
  mc_tensor *t = &hand.t[slot];
  t->type = type;
  t->rank = 1;
  t->shape[0] = n;
  t->data = hand.side[slot - 1];
  if (!mc_storage_bytes(type, n, &t->nbytes))
    abort();
  for (int k = 0; k < n; k++)
    mc_store_bits(t->data, type, k, raw[k]);
}

static void hand_sides(int n, const uint64_t *block, const uint64_t *begin, const uint64_t *end) {
  hand_side(1, MC_I64, n, block);
  hand_side(2, MC_I64, n, begin);
  hand_side(3, MC_I64, n, end);
}

static void hand_patches(int64_t size_r, int64_t size_c, int64_t stride_r, int64_t stride_c,
                         int64_t rate_r, int64_t rate_c, const char *auto_pad) {
  mc_attrs_set_list(&hand.req.attrs, MC_ATTR_SIZES, &(mc_int_list){2, {size_r, size_c}});
  mc_attrs_set_list(&hand.req.attrs, MC_ATTR_STRIDES, &(mc_int_list){2, {stride_r, stride_c}});
  mc_attrs_set_list(&hand.req.attrs, MC_ATTR_RATES, &(mc_int_list){2, {rate_r, rate_c}});
  mc_attrs_set_string(&hand.req.attrs, MC_ATTR_AUTO_PAD, auto_pad);
}

/* Both must give the expected status and clause. */
static void hand_expect(const char *what, size_t cap, mc_status status, const char *clause) {
  mc_opt_plan plan;
  outcome mine = run_validate(&hand.req, cap, &plan);
  outcome oracle = run_oracle(&hand.req, cap);
  bool mine_right = mine.status == status && same_clause(mine.clause, clause);
  bool oracle_right = oracle.status == status && same_clause(oracle.clause, clause);
  CHECK(mine_right);
  CHECK(oracle_right);
  if (!mine_right || !oracle_right) {
    fprintf(stderr, "hand case '%s': expected %s [%s]\n", what, mc_status_name(status),
            clause ? clause : "-");
    dump_request(&hand.req, cap);
    print_outcome("oracle", &oracle);
    print_outcome("validate", &mine);
  }
}

#define P2(k) ((uint64_t)1 << (k))
#define I2(k) ((int64_t)1 << (k))
#define NEG(v) ((uint64_t)(int64_t)(v))

/* The examples table of spec/check-order.md, each with the answer it gives. */
static void check_order_examples(void) {
  hand_start(MC_OP_BATCH_TO_SPACE, MC_F32, 2, (int64_t[]){4, 3});
  hand_sides(2, (uint64_t[]){1, 0}, (uint64_t[]){0, 0}, (uint64_t[]){0, 0});
  hand_expect("B2S V5 before V9", CAP, MC_E_BLOCK_BELOW_ONE, "B2S-V5");

  hand_start(MC_OP_BATCH_TO_SPACE, MC_F32, 2, (int64_t[]){5, 2});
  hand_sides(2, (uint64_t[]){2, 1}, (uint64_t[]){0, 0}, (uint64_t[]){0, 0});
  hand_expect("B2S V6 before V9", CAP, MC_E_BLOCK_FIRST_NOT_ONE, "B2S-V6");

  hand_start(MC_OP_BATCH_TO_SPACE, MC_F32, 2, (int64_t[]){4, 3});
  hand_side(1, MC_U64, 2, (uint64_t[]){1, 2});
  hand_side(2, MC_U64, 2, (uint64_t[]){0, P2(63)});
  hand_side(3, MC_I8, 2, (uint64_t[]){0, NEG(-1)});
  hand_expect("B2S MC-L2 before V7", CAP, MC_E_VALUE_OUT_OF_RANGE, "MC-L2");

  hand_start(MC_OP_BATCH_TO_SPACE, MC_F32, 2, (int64_t[]){4, 3});
  hand_sides(2, (uint64_t[]){1, 2}, (uint64_t[]){1, NEG(-1)}, (uint64_t[]){0, 0});
  hand_expect("B2S V7 before V8", CAP, MC_E_CROP_NEGATIVE, "B2S-V7");

  hand_start(MC_OP_BATCH_TO_SPACE, MC_F32, 2, (int64_t[]){4, 3});
  hand_sides(2, (uint64_t[]){1, 2}, (uint64_t[]){0, 0}, (uint64_t[]){0, 0});
  hand.t[1].type = MC_F32;
  hand.t[1].rank = 2;
  hand.t[1].shape[0] = 1;
  hand.t[1].shape[1] = 2;
  hand.t[1].nbytes = 8;
  hand_expect("B2S V2 before V3", CAP, MC_E_SIDE_INPUT_TYPE, "B2S-V2");

  hand_start(MC_OP_SPACE_TO_BATCH, MC_F32, 3, (int64_t[]){1, 3, 5});
  hand_sides(3, (uint64_t[]){1, 2, 2}, (uint64_t[]){0, 0, 0}, (uint64_t[]){0, 0, 0});
  hand_expect("S2B V9 on axis 1 first", CAP, MC_E_PADDED_NOT_DIVISIBLE, "S2B-V9");

  hand_start(MC_OP_SPACE_TO_DEPTH, MC_F32, 3, (int64_t[]){1, 1, 3});
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_BLOCK_SIZE, 0);
  hand_expect("S2D V2 first", CAP, MC_E_MODE_MISSING, "S2D-V2");

  /* bs^2 = 2^64 is needed before V5. */
  hand_start(MC_OP_DEPTH_TO_SPACE, MC_F32, 4, (int64_t[]){1, 3, 1, 1});
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_BLOCK_SIZE, I2(32));
  mc_attrs_set_string(&hand.req.attrs, MC_ATTR_MODE, "depth_first");
  hand_expect("D2S bs^K overflow before V5", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");

  hand_start(MC_OP_EXTRACT_IMAGE_PATCHES, MC_F32, 4, (int64_t[]){1, 1, 3, 3});
  hand_patches(1, 1, 1, 1, 1, 1, "valid");
  mc_attrs_set_list(&hand.req.attrs, MC_ATTR_SIZES, &(mc_int_list){1, {0}});
  hand_expect("EIP V3 before V4", CAP, MC_E_ATTRIBUTE_LENGTH, "EIP-V3");

  hand_start(MC_OP_SHUFFLE_CHANNELS, MC_U8, 1, (int64_t[]){6});
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_AXIS, 3);
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_GROUP, 0);
  hand_expect("SC V2 before V3", CAP, MC_E_AXIS_OUT_OF_RANGE, "SC-V2");

  hand_start(MC_OP_SHUFFLE_CHANNELS, MC_U8, 1, (int64_t[]){3});
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_AXIS, 0);
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_GROUP, 0);
  hand_expect("SC V3 before V4 (no division by 0)", CAP, MC_E_GROUP_BELOW_ONE, "SC-V3");

  /* The int64 ends of axis, compared without negating INT64_MIN. */
  hand_start(MC_OP_SHUFFLE_CHANNELS, MC_U8, 2, (int64_t[]){1, 4});
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_AXIS, INT64_MIN);
  hand_expect("SC axis INT64_MIN", CAP, MC_E_AXIS_OUT_OF_RANGE, "SC-V2");
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_AXIS, -3);
  hand_expect("SC axis -rank - 1", CAP, MC_E_AXIS_OUT_OF_RANGE, "SC-V2");
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_AXIS, -2);
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_GROUP, INT64_MAX);
  hand_expect("SC group INT64_MAX on d_0 = 1", CAP, MC_E_CHANNEL_NOT_DIVISIBLE, "SC-V4");
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_GROUP, 1);
  hand_expect("SC axis -rank", CAP, MC_OK, NULL);

  int64_t ones[17] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  hand_start(MC_OP_EXTRACT_IMAGE_PATCHES, MC_U4, 17, ones);
  hand_expect("EIP MC-L1 first", CAP, MC_E_RANK_LIMIT, "MC-L1");
}

/* MC-L3 and MC-L4 where they fall, worked out by hand. */
static void size_limit_cases(void) {
  /* E19: 2^63-1 + 1 is beyond int64, so beyond D_1 * B_1 = 2. */
  hand_start(MC_OP_BATCH_TO_SPACE, MC_F32, 2, (int64_t[]){1, 2});
  hand_sides(2, (uint64_t[]){1, 1}, (uint64_t[]){0, (uint64_t)INT64_MAX}, (uint64_t[]){0, 1});
  hand_expect("B2S crop sum beyond int64", CAP, MC_E_CROP_EXCEEDS, "B2S-V10");

  /* prod(B) = 2^31 * 2^32 * 2^32 overflows before V9 is evaluated. */
  hand_start(MC_OP_BATCH_TO_SPACE, MC_F32, 4, (int64_t[]){3, 1, 1, 1});
  hand_sides(4, (uint64_t[]){1, P2(31), P2(32), P2(32)}, (uint64_t[]){0, 0, 0, 0},
             (uint64_t[]){0, 0, 0, 0});
  hand_expect("B2S prod(B) overflow", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");

  /* D_1 * B_1 = 2^33 * 2^31 = 2^64, with batch 0 (so V9 holds). */
  hand_start(MC_OP_BATCH_TO_SPACE, MC_F32, 2, (int64_t[]){0, I2(33)});
  hand_sides(2, (uint64_t[]){1, P2(31)}, (uint64_t[]){0, 0}, (uint64_t[]){0, 0});
  hand_expect("B2S D*B overflow", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");

  /* Batch 0, D_i * B_i = 2^62 on two axes, crops leave [0, 1, 2]: the
     output count (non-zero dimensions 1 * 2) is representable. */
  hand_start(MC_OP_BATCH_TO_SPACE, MC_F32, 3, (int64_t[]){0, I2(31), I2(31)});
  hand_sides(3, (uint64_t[]){1, P2(31), P2(31)}, (uint64_t[]){0, P2(62) - 1, P2(62) - 2},
             (uint64_t[]){0, 0, 0});
  hand_expect("B2S batch 0, huge crops", CAP, MC_OK, NULL);

  /* S2B output batch 0 * 2^32 * 2^32 = 0 left to right; [0, 1, 0] is fine. */
  hand_start(MC_OP_SPACE_TO_BATCH, MC_F32, 3, (int64_t[]){0, I2(32), 0});
  hand_sides(3, (uint64_t[]){1, P2(32), P2(32)}, (uint64_t[]){0, 0, 0}, (uint64_t[]){0, 0, 0});
  hand_expect("S2B batch 0 times huge blocks", CAP, MC_OK, NULL);
  /* The same with batch 1: 2^64. */
  hand_start(MC_OP_SPACE_TO_BATCH, MC_F32, 3, (int64_t[]){1, I2(32), 0});
  hand_sides(3, (uint64_t[]){1, P2(32), P2(32)}, (uint64_t[]){0, 0, 0}, (uint64_t[]){0, 0, 0});
  hand_expect("S2B output batch overflow", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");

  /* Batch 0, padded lengths 2^31 + 2 and 2^32, blocks 1 and 2: output
     [0, 2^31 + 2, 2^31], whose non-zero dimensions multiply to about 2^62. */
  hand_start(MC_OP_SPACE_TO_BATCH, MC_BOOLEAN, 3, (int64_t[]){0, INT32_MAX, I2(32)});
  hand_sides(3, (uint64_t[]){1, 1, 2}, (uint64_t[]){0, 1, 0}, (uint64_t[]){0, 2, 0});
  hand_expect("S2B batch 0, padded count beyond int64", CAP, MC_OK, NULL);

  /* D_1 + PB_1 + PE_1 = 1 + (2^63-1) + 0 overflows. */
  hand_start(MC_OP_SPACE_TO_BATCH, MC_F32, 2, (int64_t[]){1, 1});
  hand_sides(2, (uint64_t[]){1, 1}, (uint64_t[]){0, (uint64_t)INT64_MAX}, (uint64_t[]){0, 0});
  hand_expect("S2B padded length overflow", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");

  /* Output [1, 2^40+1, 2^40+1]: 2^80 elements. */
  hand_start(MC_OP_SPACE_TO_BATCH, MC_F32, 3, (int64_t[]){1, 1, 1});
  hand_sides(3, (uint64_t[]){1, 1, 1}, (uint64_t[]){0, 0, 0}, (uint64_t[]){0, P2(40), P2(40)});
  hand_expect("S2B output count overflow", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");
  /* Output [1, 2^61] of f64: the count fits, 2^64 bytes do not. */
  hand_start(MC_OP_SPACE_TO_BATCH, MC_F64, 2, (int64_t[]){1, 1});
  hand_sides(2, (uint64_t[]){1, 1}, (uint64_t[]){0, 0}, (uint64_t[]){0, P2(61) - 1});
  hand_expect("S2B output bytes overflow", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");
  /* The same count of u1 is 2^58 bytes: representable, over the cap. */
  hand.t[0].type = MC_U1;
  hand.t[0].nbytes = 1;
  hand_expect("S2B u1 output over the cap", CAP, MC_E_OUTPUT_TOO_LARGE, "MC-L4");
  /* [1, 8] of u1 is exactly 1 byte: fits a 1-byte cap, not a 0-byte one. */
  hand_sides(2, (uint64_t[]){1, 1}, (uint64_t[]){0, 3}, (uint64_t[]){0, 4});
  hand_expect("S2B 1-byte output, cap 1", 1, MC_OK, NULL);
  hand_expect("S2B 1-byte output, cap 0", 0, MC_E_OUTPUT_TOO_LARGE, "MC-L4");

  /* S2D: C * bs^2 = 2^40 * 2^24 overflows; spatial axes of 0 divide. */
  hand_start(MC_OP_SPACE_TO_DEPTH, MC_F32, 4, (int64_t[]){1, I2(40), 0, 0});
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_BLOCK_SIZE, I2(12));
  mc_attrs_set_string(&hand.req.attrs, MC_ATTR_MODE, "blocks_first");
  hand_expect("S2D C*bs^K overflow", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");
  /* S2D: bs^2 = 2^64 after V5 passes (2^32 % 2^32 == 0, 0 % 2^32 == 0). */
  hand_start(MC_OP_SPACE_TO_DEPTH, MC_F32, 4, (int64_t[]){1, 3, I2(32), 0});
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_BLOCK_SIZE, I2(32));
  mc_attrs_set_string(&hand.req.attrs, MC_ATTR_MODE, "depth_first");
  hand_expect("S2D bs^K overflow", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");
  /* The same with D_1 = 3 breaks V5 first. */
  hand.t[0].shape[2] = 3;
  hand_expect("S2D V5 before bs^K", CAP, MC_E_SPATIAL_NOT_DIVISIBLE, "S2D-V5");

  /* D2S: D_1 * bs = 2^62 * 2 overflows after V5 (C = 0 divides by 2^2). */
  hand_start(MC_OP_DEPTH_TO_SPACE, MC_F32, 4, (int64_t[]){1, 0, I2(62), 1});
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_BLOCK_SIZE, 2);
  mc_attrs_set_string(&hand.req.attrs, MC_ATTR_MODE, "blocks_first");
  hand_expect("D2S D*bs overflow", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");
  /* C = 3 is no multiple of 8^2; D_1 * 8 = 2^64 would overflow after V5. */
  hand_start(MC_OP_DEPTH_TO_SPACE, MC_F32, 4, (int64_t[]){0, 3, I2(61), 1});
  mc_attrs_set_int(&hand.req.attrs, MC_ATTR_BLOCK_SIZE, 8);
  mc_attrs_set_string(&hand.req.attrs, MC_ATTR_MODE, "depth_first");
  hand_expect("D2S V5 before D*bs", CAP, MC_E_DEPTH_NOT_DIVISIBLE, "D2S-V5");

  /* EIP: eff = (2^40 - 1) * 2^40 + 1 overflows. */
  hand_start(MC_OP_EXTRACT_IMAGE_PATCHES, MC_F32, 4, (int64_t[]){1, 1, 3, 3});
  hand_patches(I2(40), 1, 1, 1, I2(40), 1, "valid");
  hand_expect("EIP eff overflow", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");
  /* EIP: depth * sizes = 2^30 * 2^20 * 2^20 with a valid window count of 0. */
  hand_start(MC_OP_EXTRACT_IMAGE_PATCHES, MC_F32, 4, (int64_t[]){1, I2(30), 0, 0});
  hand_patches(I2(20), I2(20), 1, 1, 1, 1, "valid");
  hand_expect("EIP output depth overflow", CAP, MC_E_SHAPE_OVERFLOW, "MC-L3");
  /* EIP valid with the window larger than the image: out = 0, [1, 25, 0, 0]. */
  hand_start(MC_OP_EXTRACT_IMAGE_PATCHES, MC_F32, 4, (int64_t[]){1, 1, 3, 3});
  hand_patches(5, 5, 4, 4, 1, 1, "valid");
  hand_expect("EIP window larger than image", 0, MC_OK, NULL);
  /* EIP same_lower, in = 2^63-1, stride 3, eff 2: out = 3074457345618258603,
     pad = 3074457345618258602 * 3 + 2 - (2^63 - 1) = 1 is representable;
     output [0, 2, 3074457345618258603, 1] has a representable count. */
  hand_start(MC_OP_EXTRACT_IMAGE_PATCHES, MC_F32, 4, (int64_t[]){0, 1, INT64_MAX, 1});
  hand_patches(2, 1, 3, 3, 1, 1, "same_lower");
  hand_expect("EIP same pad near INT64_MAX", CAP, MC_OK, NULL);
}

/* Slice: a request with start, stop, step (and axes when given) as i64. */
static void hand_slice(mc_type type, int rank, const int64_t *shape, int n, const uint64_t *start,
                       const uint64_t *stop, const uint64_t *step, const uint64_t *axes) {
  hand_start(MC_OP_SLICE, type, rank, shape);
  hand_side(1, MC_I64, n, start);
  hand_side(2, MC_I64, n, stop);
  hand_side(3, MC_I64, n, step);
  if (axes)
    hand_side(4, MC_I64, n, axes);
  else
    hand.req.n_inputs = 4;
}

/* Slice plans and clause order worked out from SLICE.md by hand. */
static void slice_cases(void) {
  mc_opt_plan plan;
  mc_error err;
  /* Axis 0 (d 5): start -1 -> 4, stop INT64_MIN -> -1, step -2: 4, 2, 0.
     Axis -1 = 1 (d 7): start 10 -> 6, stop 1, step INT64_MIN: 6 alone. */
  hand_slice(MC_F32, 2, (int64_t[]){5, 7}, 2, (uint64_t[]){NEG(-1), 10},
             (uint64_t[]){(uint64_t)INT64_MIN, 1}, (uint64_t[]){NEG(-2), (uint64_t)INT64_MIN},
             (uint64_t[]){0, NEG(-1)});
  hand.t[4].type = MC_I32;
  hand.t[4].nbytes = 8;
  mc_store_bits(hand.t[4].data, MC_I32, 0, 0);
  mc_store_bits(hand.t[4].data, MC_I32, 1, NEG(-1));
  CHECK_EQ_I64(mc_opt_validate(&hand.req, CAP, &plan, &err), MC_OK);
  CHECK_EQ_I64(plan.out_shape[0], 3);
  CHECK_EQ_I64(plan.out_shape[1], 1);
  CHECK_EQ_I64(plan.first[0], 4);
  CHECK_EQ_I64(plan.first[1], 6);
  CHECK_EQ_I64(plan.step[0], -2);
  CHECK_EQ_I64(plan.step[1], 1); /* one element: the step never matters */
  hand_expect("SL INT64 extremes", CAP, MC_OK, NULL);
  /* u64 start 2^63 reads as INT64_MAX -> 4 with step -1; stop -7 -> -1:
     4, 3, 2, 1, 0. */
  hand_slice(MC_U8, 1, (int64_t[]){5}, 1, (uint64_t[]){0}, (uint64_t[]){NEG(-7)},
             (uint64_t[]){NEG(-1)}, NULL);
  hand_side(1, MC_U64, 1, (uint64_t[]){P2(63)});
  CHECK_EQ_I64(mc_opt_validate(&hand.req, CAP, &plan, &err), MC_OK);
  CHECK_EQ_I64(plan.out_shape[0], 5);
  CHECK_EQ_I64(plan.first[0], 4);
  CHECK_EQ_I64(plan.step[0], -1);
  hand_expect("SL u64 start above INT64_MAX clamps", CAP, MC_OK, NULL);
  /* The same with step 1: start clamps to 5, nothing is left. */
  hand_side(3, MC_I64, 1, (uint64_t[]){1});
  CHECK_EQ_I64(mc_opt_validate(&hand.req, CAP, &plan, &err), MC_OK);
  CHECK_EQ_I64(plan.out_shape[0], 0);
  hand_expect("SL u64 start above INT64_MAX, empty", CAP, MC_OK, NULL);

  int64_t d2[2] = {3, 4}, d3[3] = {2, 3, 4};
  hand_slice(MC_F32, 0, d2, 1, (uint64_t[]){0}, (uint64_t[]){1}, (uint64_t[]){0}, NULL);
  hand_expect("SL V1 before V5", CAP, MC_E_DATA_RANK, "SL-V1");
  hand_slice(MC_F32, 2, d2, 2, (uint64_t[]){0, 0}, (uint64_t[]){1, 1}, (uint64_t[]){1, 0},
             (uint64_t[]){9, 0});
  hand_expect("SL V5 before V6", CAP, MC_E_STEP_ZERO, "SL-V5");
  hand_slice(MC_F32, 2, d2, 3, (uint64_t[]){0, 0, 0}, (uint64_t[]){1, 1, 1}, (uint64_t[]){1, 1, 1},
             (uint64_t[]){0, 0, 5});
  hand_expect("SL V6 on every value before V7", CAP, MC_E_AXIS_OUT_OF_RANGE, "SL-V6");
  hand_slice(MC_F32, 2, d2, 3, (uint64_t[]){0, 0, 0}, (uint64_t[]){1, 1, 1}, (uint64_t[]){1, 1, 1},
             NULL);
  hand_expect("SL default axis r out of range", CAP, MC_E_AXIS_OUT_OF_RANGE, "SL-V6");
  hand_slice(MC_F32, 3, d3, 2, (uint64_t[]){0, 0}, (uint64_t[]){1, 1}, (uint64_t[]){1, 1},
             (uint64_t[]){1, NEG(-2)});
  hand_expect("SL axes 1 and 1-r repeat", CAP, MC_E_AXES_NOT_UNIQUE, "SL-V7");
  hand_side(4, MC_U64, 2, (uint64_t[]){1, UINT64_MAX});
  hand_expect("SL u64 axis above INT64_MAX", CAP, MC_E_AXIS_OUT_OF_RANGE, "SL-V6");
  hand_side(4, MC_I64, 2, (uint64_t[]){NEG(-3), (uint64_t)INT64_MIN});
  hand_expect("SL axis INT64_MIN", CAP, MC_E_AXIS_OUT_OF_RANGE, "SL-V6");
  hand_side(4, MC_F32, 2, (uint64_t[]){0, 0});
  hand_side(3, MC_I64, 1, (uint64_t[]){1});
  hand_expect("SL V2 on axes before V4", CAP, MC_E_SIDE_INPUT_TYPE, "SL-V2");
  hand_side(4, MC_I8, 1, (uint64_t[]){0});
  hand_expect("SL V4 step first", CAP, MC_E_SIDE_INPUT_LENGTH, "SL-V4");
  hand_slice(MC_F32, 2, d2, 0, NULL, NULL, NULL, NULL);
  CHECK_EQ_I64(mc_opt_validate(&hand.req, CAP, &plan, &err), MC_OK);
  CHECK(memcmp(plan.out_shape, d2, sizeof d2) == 0);
  hand_expect("SL no values: the identity", CAP, MC_OK, NULL);
}

int main(void) {
  check_plan_fields();
  slice_cases();
  check_order_examples();
  size_limit_cases();
  compare_conformance_cases();
  compare_random_requests();
  return check_report();
}
