/* The benchmark engine (harness/bench.h): the optimized kernels on named
   workloads, timed next to a memcpy of the same traffic and to the oracle,
   after a bitwise check against the oracle's output. */
#include "harness/bench/bench.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/safe_text.h"
#include "common/text.h"
#include "harness/bench/bench_impl.h"
#include "harness/bench/bench_watch.h"
#include "harness/harness.h"
#include "harness/impl/child.h"
#include "harness/impl/child_contain.h"
#include "harness/impl/child_pipe.h"
#include "harness/impl/child_text.h"
#include "movconf/optimized.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

/* Where the benchmark's own text goes (the table, its progress): movconf's
   stdout and stderr, or, in the process a plugin runs in, pipes to movconf
   (run_guarded: that process's stdout and stderr carry the plugin's text). */
static FILE *own_out, *own_err;
static FILE *out(void) {
  return own_out ? own_out : stdout;
}
static FILE *err(void) {
  return own_err ? own_err : stderr;
}

#define BENCH_RANK 4
#define BENCH_MAX_RUNS 9
#define BENCH_PAGE 4096
#define BENCH_MAX_CALLS_PER_RUN 1000000L
/* Inputs and outputs of the full workloads stay below 310 MB. */
#define BENCH_MAX_BYTES MC_DEFAULT_MAX_OUTPUT_BYTES

typedef struct workload {
  mc_op op;
  const char *name; /* the workload column; the id is "<op>/<name>/<type>" */
  mc_type type;
  int64_t full[BENCH_RANK];
  int64_t quick[BENCH_RANK];
  /* The operation's attributes by id (src/common/names.c attr_table): an
     integer in attr, a string in text, an int list as a square window of
     attr's value. */
  int64_t attr[MC_ATTR_COUNT];
  const char *text[MC_ATTR_COUNT];
  /* The side inputs of the operations that have them, one value per axis:
     BatchToSpace block_shape, crops; SpaceToBatch block_shape, pads;
     Slice start, stop, step, axes; StridedSlice begin, end, stride. */
  int64_t side[MC_MAX_INPUTS - 1][BENCH_RANK];
  /* Values of each side input, its first ones: 0 for all BENCH_RANK
     (Gather-8's axis is [1]). */
  int side_len[MC_MAX_INPUTS - 1];
  /* Inputs of the request; 0: every input of the operation. Fewer leave
     out trailing optional ones (Slice-8's axes). */
  int n_inputs;
} workload;

#define S2D MC_OP_SPACE_TO_DEPTH
#define D2S MC_OP_DEPTH_TO_SPACE
#define B2S MC_OP_BATCH_TO_SPACE
#define S2B MC_OP_SPACE_TO_BATCH
#define EIP MC_OP_EXTRACT_IMAGE_PATCHES
#define SC MC_OP_SHUFFLE_CHANNELS
#define SL MC_OP_SLICE
#define TR MC_OP_TRANSPOSE
#define PAD MC_OP_PAD
#define GA MC_OP_GATHER
#define SS MC_OP_STRIDED_SLICE
/* Slice bounds that hold for the full and the --quick shapes alike. */
#define SL_END INT64_MAX
#define SL_REV_END INT64_MIN

/* Each SpaceToBatch workload is the inverse of a BatchToSpace one:
   508 + 1 + 3 = 512 = 4 * 128, and 124 + 4 = 128 = 4 * 32 with --quick. */
// clang-format off
static const workload workloads[] = {
  {.op = S2D, .name = "blocks_first", .type = MC_F32, .full = {8, 64, 256, 256},
   .quick = {2, 16, 64, 64},
   .attr = {[MC_ATTR_BLOCK_SIZE] = 2}, .text = {[MC_ATTR_MODE] = "blocks_first"}},
  {.op = S2D, .name = "depth_first", .type = MC_F32, .full = {8, 64, 256, 256},
   .quick = {2, 16, 64, 64},
   .attr = {[MC_ATTR_BLOCK_SIZE] = 2}, .text = {[MC_ATTR_MODE] = "depth_first"}},
  {.op = D2S, .name = "blocks_first", .type = MC_F32, .full = {8, 256, 128, 128},
   .quick = {2, 64, 32, 32},
   .attr = {[MC_ATTR_BLOCK_SIZE] = 2}, .text = {[MC_ATTR_MODE] = "blocks_first"}},
  {.op = D2S, .name = "depth_first", .type = MC_F32, .full = {8, 256, 128, 128},
   .quick = {2, 64, 32, 32},
   .attr = {[MC_ATTR_BLOCK_SIZE] = 2}, .text = {[MC_ATTR_MODE] = "depth_first"}},
  {.op = B2S, .name = "crops0", .type = MC_F32, .full = {64, 64, 128, 128},
   .quick = {16, 16, 32, 32}, .side = {{1, 1, 4, 4}}},
  {.op = B2S, .name = "crops1", .type = MC_F32, .full = {64, 64, 128, 128},
   .quick = {16, 16, 32, 32}, .side = {{1, 1, 4, 4}, {0, 0, 1, 1}, {0, 0, 1, 1}}},
  {.op = S2B, .name = "pads0", .type = MC_F32, .full = {4, 64, 512, 512},
   .quick = {1, 16, 128, 128}, .side = {{1, 1, 4, 4}}},
  {.op = S2B, .name = "pads1_3", .type = MC_F32, .full = {4, 64, 508, 508},
   .quick = {1, 16, 124, 124}, .side = {{1, 1, 4, 4}, {0, 0, 1, 1}, {0, 0, 3, 3}}},
  {.op = EIP, .name = "3x3_valid", .type = MC_F32, .full = {8, 64, 128, 128},
   .quick = {2, 16, 32, 32}, .attr = {[MC_ATTR_SIZES] = 3, [MC_ATTR_STRIDES] = 1,
   [MC_ATTR_RATES] = 1}, .text = {[MC_ATTR_AUTO_PAD] = "valid"}},
  {.op = EIP, .name = "3x3_same_upper", .type = MC_F32, .full = {8, 64, 128, 128},
   .quick = {2, 16, 32, 32}, .attr = {[MC_ATTR_SIZES] = 3, [MC_ATTR_STRIDES] = 1,
   [MC_ATTR_RATES] = 1}, .text = {[MC_ATTR_AUTO_PAD] = "same_upper"}},
  {.op = S2D, .name = "blocks_first", .type = MC_U8, .full = {8, 64, 256, 256},
   .quick = {2, 16, 64, 64},
   .attr = {[MC_ATTR_BLOCK_SIZE] = 2}, .text = {[MC_ATTR_MODE] = "blocks_first"}},
  {.op = S2D, .name = "blocks_first", .type = MC_F16, .full = {8, 64, 256, 256},
   .quick = {2, 16, 64, 64},
   .attr = {[MC_ATTR_BLOCK_SIZE] = 2}, .text = {[MC_ATTR_MODE] = "blocks_first"}},
  {.op = B2S, .name = "crops0", .type = MC_U8, .full = {64, 64, 128, 128},
   .quick = {16, 16, 32, 32}, .side = {{1, 1, 4, 4}}},
  {.op = B2S, .name = "crops0", .type = MC_F16, .full = {64, 64, 128, 128},
   .quick = {16, 16, 32, 32}, .side = {{1, 1, 4, 4}}},
  /* ShuffleChannels: long inner rows (row copies), channels last (tiles). */
  {.op = SC, .name = "g4_rows", .type = MC_F32, .full = {8, 240, 128, 128},
   .quick = {2, 48, 32, 32}, .attr = {[MC_ATTR_AXIS] = 1, [MC_ATTR_GROUP] = 4}},
  {.op = SC, .name = "g4_last", .type = MC_F32, .full = {8, 128, 128, 240},
   .quick = {2, 32, 32, 48}, .attr = {[MC_ATTR_AXIS] = -1, [MC_ATTR_GROUP] = 4}},
  {.op = SC, .name = "g4_last", .type = MC_U8, .full = {8, 128, 128, 240},
   .quick = {2, 32, 32, 48}, .attr = {[MC_ATTR_AXIS] = -1, [MC_ATTR_GROUP] = 4}},
  /* Slice, outputs of 2^24 elements: a crop (row copies; axes absent, so
     0 to 3), the last axis reversed (reversed rows), every other element
     of it (gathers). */
  {.op = SL, .name = "crop", .type = MC_F32, .full = {4, 64, 272, 272},
   .quick = {1, 16, 72, 72}, .n_inputs = 4,
   .side = {{0, 0, 8, 8}, {SL_END, SL_END, -8, -8}, {1, 1, 1, 1}}},
  {.op = SL, .name = "reverse_last", .type = MC_F32, .full = {4, 64, 256, 256},
   .quick = {1, 16, 64, 64},
   .side = {{0, 0, 0, -1}, {SL_END, SL_END, SL_END, SL_REV_END}, {1, 1, 1, -1}, {0, 1, 2, 3}}},
  {.op = SL, .name = "reverse_last", .type = MC_U8, .full = {4, 64, 256, 256},
   .quick = {1, 16, 64, 64},
   .side = {{0, 0, 0, -1}, {SL_END, SL_END, SL_END, SL_REV_END}, {1, 1, 1, -1}, {0, 1, 2, 3}}},
  {.op = SL, .name = "step2_last", .type = MC_F32, .full = {4, 64, 256, 512},
   .quick = {1, 16, 64, 128},
   .side = {{0, 0, 0, 0}, {SL_END, SL_END, SL_END, SL_END}, {1, 1, 1, 2}, {0, 1, 2, 3}}},
  /* StridedSlice-1: Slice's four workloads as begin, end and stride
     without masks (every entry ordinary), so that the two compare. */
  {.op = SS, .name = "crop", .type = MC_F32, .full = {4, 64, 272, 272},
   .quick = {1, 16, 72, 72},
   .side = {{0, 0, 8, 8}, {SL_END, SL_END, -8, -8}, {1, 1, 1, 1}}},
  {.op = SS, .name = "reverse_last", .type = MC_F32, .full = {4, 64, 256, 256},
   .quick = {1, 16, 64, 64},
   .side = {{0, 0, 0, -1}, {SL_END, SL_END, SL_END, SL_REV_END}, {1, 1, 1, -1}}},
  {.op = SS, .name = "step2_last", .type = MC_F32, .full = {4, 64, 256, 512},
   .quick = {1, 16, 64, 128},
   .side = {{0, 0, 0, 0}, {SL_END, SL_END, SL_END, SL_END}, {1, 1, 1, 2}}},
  {.op = SS, .name = "reverse_last", .type = MC_U8, .full = {4, 64, 256, 256},
   .quick = {1, 16, 64, 64},
   .side = {{0, 0, 0, -1}, {SL_END, SL_END, SL_END, SL_REV_END}, {1, 1, 1, -1}}},
  /* Transpose, 2^24 elements: channels last and back (after merging, a
     swap of the last two axes: tiles), the last two axes swapped in u8,
     f16, f32, and the outer two (row copies). */
  {.op = TR, .name = "nchw_nhwc", .type = MC_F32, .full = {4, 64, 256, 256},
   .quick = {1, 16, 64, 64}, .side = {{0, 2, 3, 1}}},
  {.op = TR, .name = "nhwc_nchw", .type = MC_F32, .full = {4, 256, 256, 64},
   .quick = {1, 64, 64, 16}, .side = {{0, 3, 1, 2}}},
  {.op = TR, .name = "swap_last", .type = MC_F32, .full = {4, 16, 512, 512},
   .quick = {1, 16, 64, 64}, .side = {{0, 1, 3, 2}}},
  {.op = TR, .name = "swap_last", .type = MC_U8, .full = {4, 16, 512, 512},
   .quick = {1, 16, 64, 64}, .side = {{0, 1, 3, 2}}},
  {.op = TR, .name = "swap_last", .type = MC_F16, .full = {4, 16, 512, 512},
   .quick = {1, 16, 64, 64}, .side = {{0, 1, 3, 2}}},
  {.op = TR, .name = "rows", .type = MC_F32, .full = {4, 64, 256, 256},
   .quick = {1, 16, 64, 64}, .side = {{1, 0, 2, 3}}},
  /* Pad-12: one element around each row and column of every plane (output
     4 x 64 x 256 x 256, --quick 1 x 16 x 64 x 64), no pad_value. */
  {.op = PAD, .name = "constant", .type = MC_F32, .full = {4, 64, 254, 254},
   .quick = {1, 16, 62, 62}, .n_inputs = 3, .text = {[MC_ATTR_PAD_MODE] = "constant"},
   .side = {{0, 0, 1, 1}, {0, 0, 1, 1}}},
  {.op = PAD, .name = "constant", .type = MC_U8, .full = {4, 64, 254, 254},
   .quick = {1, 16, 62, 62}, .n_inputs = 3, .text = {[MC_ATTR_PAD_MODE] = "constant"},
   .side = {{0, 0, 1, 1}, {0, 0, 1, 1}}},
  {.op = PAD, .name = "constant", .type = MC_F16, .full = {4, 64, 254, 254},
   .quick = {1, 16, 62, 62}, .n_inputs = 3, .text = {[MC_ATTR_PAD_MODE] = "constant"},
   .side = {{0, 0, 1, 1}, {0, 0, 1, 1}}},
  {.op = PAD, .name = "edge", .type = MC_F32, .full = {4, 64, 254, 254},
   .quick = {1, 16, 62, 62}, .n_inputs = 3, .text = {[MC_ATTR_PAD_MODE] = "edge"},
   .side = {{0, 0, 1, 1}, {0, 0, 1, 1}}},
  {.op = PAD, .name = "reflect", .type = MC_F32, .full = {4, 64, 254, 254},
   .quick = {1, 16, 62, 62}, .n_inputs = 3, .text = {[MC_ATTR_PAD_MODE] = "reflect"},
   .side = {{0, 0, 1, 1}, {0, 0, 1, 1}}},
  /* Gather-8 over 4 x 64 x 256 x 256: four
     indices on axis 0 (rows of 2^22 elements, the output as large as the
     data), on axis 2 (rows of 256) and on axis 3 (rows of one element),
     the last two also in u8 and f16; --quick 4 x 16 x 64 x 64. */
  {.op = GA, .name = "axis0", .type = MC_F32, .full = {4, 64, 256, 256},
   .quick = {4, 16, 64, 64}, .side = {{3, 0, -2, 1}, {0}}, .side_len = {0, 1}},
  {.op = GA, .name = "axis2", .type = MC_F32, .full = {4, 64, 256, 256},
   .quick = {4, 16, 64, 64}, .side = {{63, 0, -1, 1}, {2}}, .side_len = {0, 1}},
  {.op = GA, .name = "axis3", .type = MC_F32, .full = {4, 64, 256, 256},
   .quick = {4, 16, 64, 64}, .side = {{63, 0, -1, 1}, {3}}, .side_len = {0, 1}},
  {.op = GA, .name = "axis2", .type = MC_U8, .full = {4, 64, 256, 256},
   .quick = {4, 16, 64, 64}, .side = {{63, 0, -1, 1}, {2}}, .side_len = {0, 1}},
  {.op = GA, .name = "axis3", .type = MC_F16, .full = {4, 64, 256, 256},
   .quick = {4, 16, 64, 64}, .side = {{63, 0, -1, 1}, {3}}, .side_len = {0, 1}},
  /* Latency: a call this small is all overhead; same shape with --quick. */
  {.op = S2D, .name = "small", .type = MC_F32, .full = {1, 8, 8, 8},
   .quick = {1, 8, 8, 8},
   .attr = {[MC_ATTR_BLOCK_SIZE] = 2}, .text = {[MC_ATTR_MODE] = "blocks_first"}},
};
// clang-format on

#define WORKLOAD_COUNT ((int)(sizeof workloads / sizeof workloads[0]))

/* How a measurement is repeated. */
typedef struct timing_plan {
  int runs;
  double min_run_seconds;
} timing_plan;

typedef struct timing {
  double seconds; /* median per call */
  int runs;
  long calls_per_run;
} timing;

typedef enum row_status { ROW_OK, ROW_MISMATCH, ROW_ERROR, ROW_UNSUPPORTED } row_status;

typedef struct bench_row {
  const workload *w;
  char id[64];
  int64_t in_shape[BENCH_RANK];
  int out_rank;
  int64_t out_shape[MC_MAX_RANK];
  size_t in_bytes, out_bytes, copy_bytes;
  timing opt, copy, ceiling, oracle; /* oracle.runs == 0: not run */
  row_status status;
  char detail[320];
  /* With --impl: the other implementation's check and timing. */
  row_status impl_status;
  timing impl;
  bool impl_timed_itself; /* an adapter's own figures (the timing request) */
  char impl_detail[320];
} bench_row;

/* A request with the tensors it points to. */
typedef struct bench_case {
  mc_tensor data, side[MC_MAX_INPUTS - 1];
  mc_request req;
} bench_case;

/* A plugin's faults after run() returned on the workloads' requests, found
   by movconf before the benchmark's process starts (find_late_writes), by
   workload index; "": none. */
typedef struct late_writes {
  char found[WORKLOAD_COUNT][sizeof(((bench_row *)NULL)->impl_detail)];
} late_writes;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void workload_id(const workload *w, char *buf, size_t len) {
  char prefix[8];
  mc_op_case_prefix(w->op, prefix, sizeof prefix);
  snprintf(buf, len, "%s/%s/%s", prefix, w->name, mc_type_name(w->type));
}

static void format_shape(int rank, const int64_t *shape, char *buf, size_t len) {
  size_t used = (size_t)snprintf(buf, len, "[");
  for (int d = 0; d < rank && used < len; d++)
    used += (size_t)snprintf(buf + used, len - used, "%s%" PRId64, d ? "," : "", shape[d]);
  if (used < len)
    snprintf(buf + used, len - used, "]");
}

/* A cheap pattern with distinct neighbouring 32-bit words, never all zero. */
static void fill_pattern(uint8_t *buf, size_t nbytes) {
  for (size_t i = 0; i < nbytes; i++) {
    uint32_t word = (uint32_t)(i / 4) * 2654435761u + 0x9e3779b9u;
    word ^= word >> 15;
    buf[i] = (uint8_t)(word >> (8 * (i % 4)));
  }
}

static mc_status make_side_input(mc_tensor *t, const int64_t *values, int len) {
  const int64_t shape[1] = {len > 0 ? len : BENCH_RANK};
  mc_status s = mc_tensor_alloc(t, MC_I64, 1, shape, 64);
  for (int i = 0; s == MC_OK && i < shape[0]; i++)
    mc_store_bits(t->data, MC_I64, i, (uint64_t)values[i]);
  return s;
}

static void free_case(bench_case *c) {
  mc_tensor_free(&c->data);
  for (int i = 0; i < MC_MAX_INPUTS - 1; i++)
    mc_tensor_free(&c->side[i]);
}

static mc_int_list square(int64_t v) {
  return (mc_int_list){.count = 2, .v = {v, v}};
}

/* Floating-point inputs hold finite numbers only: the pattern's bits with
   the top exponent bit cleared. NaN payloads are the conformance suite's
   business; here they would only keep implementations that quiet NaNs from
   being timed at all. */
static void make_finite(mc_tensor *t) {
  bool floating = t->type == MC_F16 || t->type == MC_BF16 || t->type == MC_F32 || t->type == MC_F64;
  if (!floating)
    return;
  /* Little-endian: the top exponent bit is bit 6 of an element's last byte. */
  const size_t esize = mc_type_bits(t->type) / 8;
  for (size_t at = esize - 1; at < t->nbytes; at += esize)
    t->data[at] &= (uint8_t)~0x40u;
}

/* Attribute id of w's operation, as the workload gives it. */
static void set_attr(mc_attrs *a, const workload *w, mc_attr id) {
  switch (mc_attr_kind_of(id)) {
  case MC_ATTR_KIND_INT:
    mc_attrs_set_int(a, id, w->attr[id]);
    break;
  case MC_ATTR_KIND_STRING:
    mc_attrs_set_string(a, id, w->text[id]);
    break;
  case MC_ATTR_KIND_INT_LIST: {
    const mc_int_list window = square(w->attr[id]);
    mc_attrs_set_list(a, id, &window);
    break;
  }
  }
}

/* Builds the request of w with a freshly filled input. */
static mc_status build_case(const workload *w, const int64_t *shape, bench_case *c) {
  memset(c, 0, sizeof *c);
  mc_status s = mc_tensor_alloc(&c->data, w->type, BENCH_RANK, shape, BENCH_MAX_BYTES);
  if (s != MC_OK)
    return s;
  fill_pattern(c->data.data, c->data.nbytes);
  make_finite(&c->data);
  c->req.op = w->op;
  c->req.attrs = mc_attrs_none();
  c->req.inputs[0] = &c->data;
  c->req.n_inputs = w->n_inputs ? w->n_inputs : mc_op_input_count(w->op);
  for (int i = 1; i < c->req.n_inputs && s == MC_OK; i++) {
    s = make_side_input(&c->side[i - 1], w->side[i - 1], w->side_len[i - 1]);
    c->req.inputs[i] = &c->side[i - 1];
  }
  for (int i = 0; i < mc_op_attr_count(w->op); i++)
    set_attr(&c->req.attrs, w, mc_op_attr(w->op, i));
  return s;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef bool (*bench_call)(void *ctx);

/* Something to time, and its per-call times run by run. */
typedef struct timed {
  bench_call call;
  void *ctx;
  long calls; /* per run */
  double per_call[BENCH_MAX_RUNS];
} timed;

/* Fixes how many calls make a run from one timed call: enough to last
   min_run_seconds, so that calls shorter than the clock's useful resolution
   are measured. */
static bool calibrate(timed *t, double min_run_seconds) {
  double start = now_seconds();
  if (!t->call(t->ctx))
    return false;
  double one = now_seconds() - start;
  t->calls = 1;
  if (one < min_run_seconds)
    t->calls = one * BENCH_MAX_CALLS_PER_RUN <= min_run_seconds ? BENCH_MAX_CALLS_PER_RUN
                                                                : (long)(min_run_seconds / one) + 1;
  return true;
}

static bool timed_run(timed *t, int run) {
  double start = now_seconds();
  for (long i = 0; i < t->calls; i++)
    if (!t->call(t->ctx))
      return false;
  t->per_call[run] = (now_seconds() - start) / (double)t->calls;
  return true;
}

static double median(double *values, int n) {
  qsort(values, (size_t)n, sizeof values[0], compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* Median per-call times of n things timed in alternating runs, so that
   they all see the same load on the machine. Returns the index of the
   first whose call failed, or -1. */
static int measure_alternating(timed *items, int n, const timing_plan *plan, timing *out) {
  for (int k = 0; k < n; k++)
    if (!calibrate(&items[k], plan->min_run_seconds))
      return k;
  for (int r = 0; r < plan->runs; r++)
    for (int k = 0; k < n; k++)
      if (!timed_run(&items[k], r))
        return k;
  for (int k = 0; k < n; k++)
    out[k] = (timing){.seconds = median(items[k].per_call, plan->runs),
                      .runs = plan->runs,
                      .calls_per_run = items[k].calls};
  return -1;
}

typedef struct kernel_call {
  const mc_request *req;
  int threads;
  mc_tensor *out;
  mc_status status;
  mc_error err;
} kernel_call;

static bool call_kernel(void *ctx) {
  kernel_call *k = ctx;
  k->status = mc_optimized_run_into(k->req, k->threads, k->out, &k->err);
  return k->status == MC_OK;
}

typedef struct copy_call {
  uint8_t *dst, *src;
  size_t bytes;
  int threads;
  mc_copy_method method;
} copy_call;

static bool call_copy(void *ctx) {
  copy_call *c = ctx;
  mc_optimized_copy(c->dst, c->src, c->bytes, c->threads, c->method);
  return true;
}

/* Two page-aligned buffers of c->bytes with their pages touched (the
   kernels' tensors are 64-byte aligned: neither copy may do better only
   because its buffers are), copied once (warm-up). */
static bool prepare_copy(copy_call *c) {
  size_t n = (c->bytes + BENCH_PAGE - 1) / BENCH_PAGE * BENCH_PAGE;
  n = n ? n : BENCH_PAGE;
  c->dst = aligned_alloc(BENCH_PAGE, n);
  c->src = aligned_alloc(BENCH_PAGE, n);
  if (!c->dst || !c->src)
    return false;
  fill_pattern(c->dst, n);
  fill_pattern(c->src, n);
  return call_copy(c);
}

/* Where two outputs first differ, or false when they are identical. */
static bool describe_difference(const mc_tensor *want, const mc_tensor *got, const char *who,
                                char *buf, size_t len) {
  bool same_shape = want->type == got->type && want->rank == got->rank;
  for (int d = 0; same_shape && d < want->rank; d++)
    same_shape = want->shape[d] == got->shape[d];
  if (!same_shape || want->nbytes != got->nbytes) {
    char a[128], b[128];
    format_shape(want->rank, want->shape, a, sizeof a);
    format_shape(got->rank, got->shape, b, sizeof b);
    snprintf(buf, len, "oracle gives %s %s, %s %s %s", mc_type_name(want->type), a, who,
             mc_type_name(got->type), b);
    return true;
  }
  unsigned bits = mc_type_bits(want->type);
  for (size_t i = 0; i < want->nbytes; i++)
    if (want->data[i] != got->data[i]) {
      snprintf(buf, len, "first differing byte %zu of %zu (element %zu): oracle 0x%02x, %s 0x%02x",
               i, want->nbytes, i * 8 / bits, want->data[i], who, got->data[i]);
      return true;
    }
  return false;
}

/* One oracle call into *want, its output compared with the kernels'.
   Returns false, with the reason in row, on a mismatch or when the oracle
   fails (*want is then empty or to be freed all the same). */
static bool check_against_oracle(const mc_request *req, const mc_tensor *got, bench_row *row,
                                 mc_tensor *want, double *seconds) {
  mc_error err;
  double start = now_seconds();
  mc_status s = mc_oracle_run(req, BENCH_MAX_BYTES, want, &err);
  *seconds = now_seconds() - start;
  if (s != MC_OK) {
    row->status = ROW_ERROR;
    snprintf(row->detail, sizeof row->detail, "the oracle rejected the workload: %s [%s]: %s",
             mc_status_name(s), err.clause ? err.clause : "-", err.message);
    return false;
  }
  if (describe_difference(want, got, "the kernels", row->detail, sizeof row->detail))
    row->status = ROW_MISMATCH;
  return row->status == ROW_OK;
}

/* The other implementation computes the workload once into *theirs, which
   must equal the oracle's output bit for bit before it is timed (an adapter
   has timed itself by then: its figures count only when the output is right). */
static void check_impl(mc_bench_impl *impl, const mc_request *req, const mc_tensor *want,
                       const timing_plan *plan, const char *late, bench_row *row,
                       mc_tensor *theirs) {
  mc_bench_impl_plan own = {.runs = plan->runs, .min_run_seconds = plan->min_run_seconds};
  mc_bench_impl_status s =
      mc_bench_impl_prepare(impl, req, &own, theirs, row->impl_detail, sizeof row->impl_detail);
  if (s == MC_BENCH_IMPL_UNSUPPORTED)
    row->impl_status = ROW_UNSUPPORTED;
  else if (s != MC_BENCH_IMPL_OK)
    row->impl_status = ROW_ERROR;
  else if (describe_difference(want, theirs, "it", row->impl_detail, sizeof row->impl_detail))
    row->impl_status = ROW_MISMATCH;
  else
    row->impl_status = ROW_OK;
  if (row->impl_status == ROW_OK && late && late[0]) {
    row->impl_status = ROW_ERROR;
    snprintf(row->impl_detail, sizeof row->impl_detail, "%s", late);
  }
  row->impl_timed_itself = mc_bench_impl_times_itself(impl);
  if (row->impl_status == ROW_OK && row->impl_timed_itself)
    row->impl.seconds = mc_bench_impl_own_timing(impl, &row->impl.runs, &row->impl.calls_per_run);
}

/* Times the oracle: the checked call plus more runs while they fit. */
static void time_oracle(const mc_request *req, double first, bool quick, timing *t) {
  double per_call[3] = {first};
  int runs = 1;
  double spent = first;
  while (!quick && runs < 3 && spent < 10.0) {
    mc_tensor out;
    double start = now_seconds();
    mc_status s = mc_oracle_run(req, BENCH_MAX_BYTES, &out, NULL);
    per_call[runs] = now_seconds() - start;
    mc_tensor_free(&out);
    if (s != MC_OK)
      break;
    spent += per_call[runs++];
  }
  *t = (timing){.seconds = median(per_call, runs), .runs = runs, .calls_per_run = 1};
}

static void fail_row(bench_row *row, const char *what, mc_status s, const mc_error *err) {
  row->status = ROW_ERROR;
  snprintf(row->detail, sizeof row->detail, "%s: %s [%s]: %s", what, mc_status_name(s),
           err && err->clause ? err->clause : "-", err ? err->message : "");
}

/* Times the kernels, the memcpy, the streaming copy and the other
   implementation (when it matched the oracle) in alternating runs. The two
   copies share their buffers: same pages, same traffic. */
static void time_kernels(kernel_call *k, mc_bench_impl *impl, bench_row *row,
                         const mc_bench_options *o, const timing_plan *plan) {
  copy_call c = {.bytes = row->copy_bytes, .threads = o->threads, .method = MC_COPY_MEMCPY};
  if (prepare_copy(&c)) {
    copy_call ceiling = c;
    ceiling.method = MC_COPY_STREAMING;
    timed items[4] = {{.call = call_kernel, .ctx = k},
                      {.call = call_copy, .ctx = &c},
                      {.call = call_copy, .ctx = &ceiling},
                      {.call = mc_bench_impl_call, .ctx = impl}};
    timing t[4] = {0};
    bool alternates = impl && row->impl_status == ROW_OK && !mc_bench_impl_times_itself(impl);
    int n = alternates ? 4 : 3;
    int failed = measure_alternating(items, n, plan, t);
    /* A copy of this process out of a timed call (a raw clone) ends here. */
    mc_bench_watch_check_copy();
    if (failed == 3) { /* the other implementation: the rest is measured without it */
      row->impl_status = ROW_ERROR;
      snprintf(row->impl_detail, sizeof row->impl_detail, "a timed call failed");
      failed = measure_alternating(items, 3, plan, t);
    }
    if (failed == 0)
      fail_row(row, "the kernels failed", k->status, &k->err);
    row->opt = t[0];
    row->copy = t[1];
    row->ceiling = t[2];
    if (alternates)
      row->impl = t[3];
  } else {
    row->status = ROW_ERROR;
    snprintf(row->detail, sizeof row->detail, "out of memory for the copies' buffers");
  }
  free(c.dst);
  free(c.src);
}

/* Checks the kernels against the oracle on a built case, then times them,
   the memcpy baseline and the oracle. late: impl's fault after run()
   returned on this workload ("" or NULL: none). */
static void bench_case_run(bench_case *c, bench_row *row, const mc_bench_options *o,
                           const timing_plan *plan, mc_bench_impl *impl, const char *late) {
  mc_error err = {0};
  mc_type type;
  int64_t shape[MC_MAX_RANK];
  mc_status s =
      mc_optimized_output_shape(&c->req, BENCH_MAX_BYTES, &type, &row->out_rank, shape, &err);
  mc_tensor out = {0};
  if (s == MC_OK)
    s = mc_tensor_alloc(&out, type, row->out_rank, shape, BENCH_MAX_BYTES);
  if (s != MC_OK) {
    fail_row(row, "no output for this workload", s, &err);
    return;
  }
  memcpy(row->out_shape, shape, sizeof row->out_shape);
  row->out_bytes = out.nbytes;
  row->copy_bytes = (row->in_bytes + row->out_bytes) / 2;
  /* Not zeros: the check must see any byte the kernels leave unwritten. */
  memset(out.data, 0xa5, out.nbytes);
  kernel_call k = {.req = &c->req, .threads = o->threads, .out = &out};
  double oracle_first = 0;
  mc_tensor want = {0}, theirs = {0};
  if (!call_kernel(&k)) { /* the warm-up */
    fail_row(row, "the kernels failed", k.status, &k.err);
  } else if (check_against_oracle(&c->req, &out, row, &want, &oracle_first)) {
    if (impl)
      check_impl(impl, &c->req, &want, plan, late, row, &theirs);
    mc_tensor_free(&want); /* not needed while timing: less memory in use */
    time_kernels(&k, impl, row, o, plan);
  }
  if (impl)
    mc_bench_impl_release(impl);
  mc_tensor_free(&want);
  mc_tensor_free(&theirs);
  mc_tensor_free(&out);
  if (row->status == ROW_OK)
    time_oracle(&c->req, oracle_first, o->quick, &row->oracle);
}

static void bench_workload(const workload *w, const mc_bench_options *o, const timing_plan *plan,
                           mc_bench_impl *impl, const char *late, bench_row *row) {
  memset(row, 0, sizeof *row);
  row->w = w;
  workload_id(w, row->id, sizeof row->id);
  memcpy(row->in_shape, o->quick ? w->quick : w->full, sizeof row->in_shape);
  char shape[64];
  format_shape(BENCH_RANK, row->in_shape, shape, sizeof shape);
  fprintf(err(), "bench: %s %s...\n", row->id, shape);
  bench_case c;
  mc_status s = build_case(w, row->in_shape, &c);
  if (s != MC_OK)
    fail_row(row, "cannot build the input", s, NULL);
  else {
    row->in_bytes = c.data.nbytes;
    bench_case_run(&c, row, o, plan, impl, late);
  }
  free_case(&c);
}

/* "12.3 us", "4.56 ms", "1.23 s" */
static void format_seconds(double s, char *buf, size_t len) {
  if (s < 1e-3)
    snprintf(buf, len, "%.2f us", s * 1e6);
  else if (s < 1)
    snprintf(buf, len, "%.2f ms", s * 1e3);
  else
    snprintf(buf, len, "%.2f s", s);
}

/* "4.10 kB", "268.44 MB" (powers of 10, like GB/s) */
static void format_bytes(double bytes, char *buf, size_t len) {
  if (bytes < 1e6)
    snprintf(buf, len, "%.2f kB", bytes / 1e3);
  else
    snprintf(buf, len, "%.2f MB", bytes / 1e6);
}

static double gb_per_s(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds / 1e9 : 0;
}

static double row_gbps(const bench_row *r) {
  return gb_per_s((double)(r->in_bytes + r->out_bytes), r->opt.seconds);
}

static double row_copy_gbps(const bench_row *r) {
  return gb_per_s(2.0 * (double)r->copy_bytes, r->copy.seconds);
}

static double row_ceiling_gbps(const bench_row *r) {
  return gb_per_s(2.0 * (double)r->copy_bytes, r->ceiling.seconds);
}

#define ROW_FORMAT "%-22s %-15s %-4s %-16s %3s %10s %10s %7s %7s %9s %7s %10s %13s %8s\n"

static void print_header(void) {
  fprintf(out(), ROW_FORMAT, "op", "workload", "type", "input", "thr", "bytes", "time", "GB/s",
          "memcpy", "vs-memcpy", "ceiling", "vs-ceiling", "oracle", "speedup");
}

static void print_row(const bench_row *r, int threads) {
  char shape[64], thr[16], mb[32], time[32], gbps[32], copy[32], ratio[32], oracle[48], speedup[32];
  char ceiling[32], ceiling_ratio[32];
  format_shape(BENCH_RANK, r->in_shape, shape, sizeof shape);
  snprintf(thr, sizeof thr, "%d", threads);
  format_bytes((double)(r->in_bytes + r->out_bytes), mb, sizeof mb);
  const char *name = mc_op_name(r->w->op), *type = mc_type_name(r->w->type);
  if (r->status != ROW_OK) {
    fprintf(out(), ROW_FORMAT, name, r->w->name, type, shape, thr, mb, "-", "-", "-", "-", "-", "-",
            "-", "-");
    const char *what = r->status == ROW_MISMATCH ? "*** MISMATCH ***" : "*** ERROR ***";
    char *detail = mc_safe_text(r->detail); /* may quote the implementation's message */
    fprintf(out(), "  %s %s: %s\n", what, r->id, detail);
    fflush(out());
    fprintf(err(), "bench: %s %s: %s\n", what, r->id, detail);
    free(detail);
    return;
  }
  format_seconds(r->opt.seconds, time, sizeof time);
  snprintf(gbps, sizeof gbps, "%.2f", row_gbps(r));
  snprintf(copy, sizeof copy, "%.2f", row_copy_gbps(r));
  snprintf(ratio, sizeof ratio, "%.2f", row_gbps(r) / row_copy_gbps(r));
  snprintf(ceiling, sizeof ceiling, "%.2f", row_ceiling_gbps(r));
  snprintf(ceiling_ratio, sizeof ceiling_ratio, "%.2f", row_gbps(r) / row_ceiling_gbps(r));
  char oracle_time[32];
  format_seconds(r->oracle.seconds, oracle_time, sizeof oracle_time);
  snprintf(oracle, sizeof oracle, "%s (%d)", oracle_time, r->oracle.runs);
  double times = r->oracle.seconds / r->opt.seconds;
  snprintf(speedup, sizeof speedup, times < 10 ? "%.2fx" : "%.1fx", times);
  fprintf(out(), ROW_FORMAT, name, r->w->name, type, shape, thr, mb, time, gbps, copy, ratio,
          ceiling, ceiling_ratio, oracle, speedup);
  fflush(out());
}

static cJSON *shape_json(int rank, const int64_t *shape) {
  cJSON *a = cJSON_CreateArray();
  for (int d = 0; a && d < rank; d++)
    cJSON_AddItemToArray(a, cJSON_CreateNumber((double)shape[d]));
  return a;
}

static const char *row_status_name(row_status s) {
  return s == ROW_OK         ? "ok"
         : s == ROW_MISMATCH ? "mismatch"
         : s == ROW_ERROR    ? "error"
                             : "unsupported";
}

/* The other implementation's figures, under the row they belong to. */
static void print_impl_row(const bench_row *r, const char *name) {
  if (r->status != ROW_OK)
    return;
  if (r->impl_status != ROW_OK) {
    const char *what = r->impl_status == ROW_UNSUPPORTED ? "unsupported"
                       : r->impl_status == ROW_MISMATCH  ? "*** MISMATCH ***"
                                                         : "*** ERROR ***";
    fprintf(out(), "  %s: %s: %s\n", name, what, r->impl_detail);
    return;
  }
  char time[32];
  format_seconds(r->impl.seconds, time, sizeof time);
  double gbps = gb_per_s((double)(r->in_bytes + r->out_bytes), r->impl.seconds);
  fprintf(out(), "  %s: %s, %.2f GB/s, vs-ceiling %.2f; movconf %.2fx as fast%s\n", name, time,
          gbps, gbps / row_ceiling_gbps(r), r->impl.seconds / r->opt.seconds,
          r->impl_timed_itself ? " (its own timing)" : "");
  fflush(out());
}

static cJSON *impl_json(const bench_row *r, const char *name) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", name);
  cJSON_AddStringToObject(o, "status", row_status_name(r->impl_status));
  if (r->impl_status != ROW_OK) {
    cJSON_AddStringToObject(o, "detail", r->impl_detail);
    return o;
  }
  double gbps = gb_per_s((double)(r->in_bytes + r->out_bytes), r->impl.seconds);
  cJSON_AddNumberToObject(o, "seconds", r->impl.seconds);
  cJSON_AddNumberToObject(o, "runs", r->impl.runs);
  cJSON_AddNumberToObject(o, "calls_per_run", (double)r->impl.calls_per_run);
  cJSON_AddStringToObject(o, "timed_by", r->impl_timed_itself ? "itself" : "movconf");
  cJSON_AddNumberToObject(o, "gb_per_s", gbps);
  cJSON_AddNumberToObject(o, "ceiling_ratio", gbps / row_ceiling_gbps(r));
  cJSON_AddNumberToObject(o, "movconf_speedup", r->impl.seconds / r->opt.seconds);
  return o;
}

static cJSON *row_json(const bench_row *r, int threads, const char *impl_name) {
  cJSON *o = cJSON_CreateObject();
  bool ok = r->status == ROW_OK;
  cJSON_AddStringToObject(o, "id", r->id);
  cJSON_AddStringToObject(o, "op", mc_op_name(r->w->op));
  cJSON_AddStringToObject(o, "workload", r->w->name);
  cJSON_AddStringToObject(o, "type", mc_type_name(r->w->type));
  cJSON_AddItemToObject(o, "input_shape", shape_json(BENCH_RANK, r->in_shape));
  cJSON_AddItemToObject(o, "output_shape", shape_json(r->out_rank, r->out_shape));
  cJSON_AddNumberToObject(o, "threads", threads);
  cJSON_AddStringToObject(o, "status", row_status_name(r->status));
  if (!ok)
    cJSON_AddStringToObject(o, "detail", r->detail);
  cJSON_AddNumberToObject(o, "input_bytes", (double)r->in_bytes);
  cJSON_AddNumberToObject(o, "output_bytes", (double)r->out_bytes);
  cJSON_AddNumberToObject(o, "bytes", (double)(r->in_bytes + r->out_bytes));
  if (!ok)
    return o;
  cJSON_AddNumberToObject(o, "seconds", r->opt.seconds);
  cJSON_AddNumberToObject(o, "microseconds_per_call", r->opt.seconds * 1e6);
  cJSON_AddNumberToObject(o, "runs", r->opt.runs);
  cJSON_AddNumberToObject(o, "calls_per_run", (double)r->opt.calls_per_run);
  cJSON_AddNumberToObject(o, "gb_per_s", row_gbps(r));
  cJSON_AddNumberToObject(o, "memcpy_bytes", (double)r->copy_bytes);
  cJSON_AddNumberToObject(o, "memcpy_seconds", r->copy.seconds);
  cJSON_AddNumberToObject(o, "memcpy_gb_per_s", row_copy_gbps(r));
  cJSON_AddNumberToObject(o, "memcpy_ratio", row_gbps(r) / row_copy_gbps(r));
  cJSON_AddNumberToObject(o, "ceiling_seconds", r->ceiling.seconds);
  cJSON_AddNumberToObject(o, "ceiling_gb_per_s", row_ceiling_gbps(r));
  cJSON_AddNumberToObject(o, "ceiling_ratio", row_gbps(r) / row_ceiling_gbps(r));
  cJSON_AddNumberToObject(o, "oracle_seconds", r->oracle.seconds);
  cJSON_AddNumberToObject(o, "oracle_runs", r->oracle.runs);
  cJSON_AddNumberToObject(o, "oracle_ratio", r->oracle.seconds / r->opt.seconds);
  if (impl_name)
    cJSON_AddItemToObject(o, "impl", impl_json(r, impl_name));
  return o;
}

static bool write_json(const char *path, const bench_row *rows, int n, const mc_bench_options *o,
                       const timing_plan *plan, const char *impl_name) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "movconf_version", o->version ? o->version : "");
  cJSON_AddNumberToObject(root, "threads", o->threads);
  cJSON_AddBoolToObject(root, "quick", o->quick);
  cJSON_AddNumberToObject(root, "runs", plan->runs);
  cJSON_AddNumberToObject(root, "min_run_seconds", plan->min_run_seconds);
  if (impl_name) {
    cJSON_AddStringToObject(root, "impl", impl_name);
    cJSON_AddStringToObject(root, "impl_spec", o->impl);
  }
  cJSON *list = cJSON_AddArrayToObject(root, "workloads");
  for (int i = 0; i < n; i++)
    cJSON_AddItemToArray(list, row_json(&rows[i], o->threads, impl_name));
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  char *line = text ? mc_strdupf("%s\n", text) : NULL;
  bool ok = line && mc_write_text_file(path, line); /* says why it could not */
  free(line);
  cJSON_free(text);
  return ok;
}

static bool selected(const workload *w, const char *filter) {
  char id[64];
  workload_id(w, id, sizeof id);
  return !filter || fnmatch(filter, id, 0) == 0;
}

static void list_workloads(const mc_bench_options *o) {
  for (int i = 0; i < WORKLOAD_COUNT; i++) {
    if (!selected(&workloads[i], o->filter))
      continue;
    char id[64], shape[64];
    workload_id(&workloads[i], id, sizeof id);
    format_shape(BENCH_RANK, o->quick ? workloads[i].quick : workloads[i].full, shape,
                 sizeof shape);
    fprintf(out(), "%-28s %s\n", id, shape);
  }
}

int mc_bench_count(const char *filter) {
  int n = 0;
  for (int i = 0; i < WORKLOAD_COUNT; i++)
    n += selected(&workloads[i], filter);
  return n;
}

void mc_bench_list(const mc_bench_options *options) {
  list_workloads(options);
}

/* Where the benchmark process notes its progress for run_guarded (-1: nowhere). */
static int progress_fd = -1;

static void note_progress(const char *what, const char *id) {
  char line[128];
  int n = snprintf(line, sizeof line, "%s %s\n", what, id);
  if (progress_fd < 0 || n <= 0 || (size_t)n >= sizeof line)
    return;
  ssize_t put = write(progress_fd, line, (size_t)n);
  (void)put; /* a note lost makes the failure message vaguer, nothing worse */
}

/* late: what find_late_writes found (NULL: not looked for). */
static int run_bench(const mc_bench_options *options, const late_writes *late) {
  mc_bench_options o = *options;
  if (o.threads <= 0)
    o.threads = mc_default_threads();
  mc_bench_impl *impl = NULL;
  if (o.impl) {
    char why[512];
    impl = mc_bench_impl_open(o.impl, why, sizeof why);
    if (!impl) {
      /* The spec and the loader's reason may quote any bytes (a file name). */
      char *spec = mc_safe_text(o.impl), *reason = mc_safe_text(why);
      fprintf(err(), "movconf bench: cannot open --impl %s: %s\n", spec, reason);
      free(spec);
      free(reason);
      return 2;
    }
  }
  const char *impl_name = impl ? mc_bench_impl_name(impl) : NULL;
  timing_plan plan = o.quick ? (timing_plan){.runs = 5, .min_run_seconds = 2e-3}
                             : (timing_plan){.runs = BENCH_MAX_RUNS, .min_run_seconds = 20e-3};
  bench_row rows[WORKLOAD_COUNT];
  int n = 0;
  bool all_ok = true;
  fprintf(out(),
          "movconf bench: %d thread%s%s; time: median of %d runs; oracle: single-threaded, %s\n",
          o.threads, o.threads == 1 ? "" : "s", o.quick ? ", quick shapes" : "", plan.runs,
          o.quick ? "1 run" : "median of up to 3 runs (count in brackets)");
  if (impl_name)
    fprintf(out(), "and %s (--impl %s), %s\n", impl_name, o.impl,
            mc_bench_impl_times_itself(impl)
                ? "timing itself (the timing request, spec/adapter-protocol.md section 15)"
                : "timed in the same alternating runs");
  print_header();
  for (int i = 0; i < WORKLOAD_COUNT; i++) {
    if (!selected(&workloads[i], o.filter))
      continue;
    char id[64];
    workload_id(&workloads[i], id, sizeof id);
    note_progress("workload", id);
    bench_workload(&workloads[i], &o, &plan, impl, late ? late->found[i] : NULL, &rows[n]);
    print_row(&rows[n], o.threads);
    all_ok = all_ok && rows[n].status == ROW_OK;
    if (impl) {
      print_impl_row(&rows[n], impl_name);
      all_ok = all_ok && (rows[n].impl_status == ROW_OK || rows[n].impl_status == ROW_UNSUPPORTED);
    }
    n++;
  }
  if (!all_ok)
    fputs("movconf bench: *** MISMATCH OR ERROR: see the rows marked above ***\n", err());
  bool written = !o.json_path || write_json(o.json_path, rows, n, &o, &plan, impl_name);
  mc_bench_impl_close(impl);
  return all_ok && written ? 0 : 1;
}

/* The last workload the benchmark process began, and whether it completed,
   from its progress notes. */
static bool read_progress(int fd, char *last, size_t len) {
  char notes[1 << 14];
  size_t have = 0;
  for (ssize_t got;
       have < sizeof notes - 1 && (got = read(fd, notes + have, sizeof notes - 1 - have)) != 0;) {
    if (got > 0)
      have += (size_t)got;
    else if (errno != EINTR)
      break;
  }
  notes[have] = '\0';
  bool complete = false;
  for (char *line = strtok(notes, "\n"); line; line = strtok(NULL, "\n")) {
    complete = strncmp(line, "complete", 8) == 0;
    if (strncmp(line, "workload ", 9) == 0)
      snprintf(last, len, "%s", line + 9);
  }
  return complete;
}

/* The benchmark's own text (table, progress), which its process sends
   through pipes for movconf to pass on to its stdout and stderr: a plugin
   in that process reaches no file of movconf's through its descriptors. */
enum { OWN_TEXTS = 2 };

/* Passes on what the ready pipes hold; a pipe at its end is set to -1. */
static void pass_on_ready(const struct pollfd *polled, int *from) {
  static const int to[OWN_TEXTS] = {STDOUT_FILENO, STDERR_FILENO};
  char buf[16384];
  for (int i = 0; i < OWN_TEXTS; i++) {
    if (from[i] < 0 || !polled[i].revents)
      continue;
    ssize_t got = read(from[i], buf, sizeof buf);
    if (got > 0)
      mc_child_write_all(to[i], buf, (size_t)got);
    else if (got == 0 || errno != EINTR) {
      close(from[i]);
      from[i] = -1;
    }
  }
}

/* Waits up to seconds for the benchmark's text, passing it on (and the
   plugin's text relayed, mc_child_poll); true when some came. */
static bool pass_on_text(int *from, double seconds) {
  struct pollfd polled[OWN_TEXTS];
  for (int i = 0; i < OWN_TEXTS; i++)
    polled[i] = (struct pollfd){.fd = from[i], .events = POLLIN};
  bool came = mc_child_poll(polled, OWN_TEXTS, mc_deadline_after(seconds), 0) > 0;
  if (came)
    pass_on_ready(polled, from);
  return came;
}

/* In the benchmark's process: its own text to the pipes (own_text), and
   what the plugin writes to its stdout or stderr to movconf's relay
   (text_fd), bounded, prefixed and made safe as in run. */
static void part_text(int text_fd, int own_text[OWN_TEXTS][2]) {
  for (int i = 0; i < OWN_TEXTS; i++)
    close(own_text[i][0]);
  own_out = fdopen(own_text[0][1], "w");
  own_err = fdopen(own_text[1][1], "w");
  if (own_err)
    setvbuf(own_err, NULL, _IONBF, 0);
  if (text_fd >= 0) {
    dup2(text_fd, STDOUT_FILENO);
    dup2(text_fd, STDERR_FILENO);
    close(text_fd);
  }
}

/* Waits for the benchmark process pid to end (*info says how), ending it
   when a call of the plugin outlasts timeout seconds (0: never): true then. */
static bool wait_benchmark(pid_t pid, double timeout, siginfo_t *info, int *own_text) {
  for (;;) {
    memset(info, 0, sizeof *info);
    int got = waitid(P_PID, (id_t)pid, info, WEXITED | WNOHANG);
    if (got == 0 && info->si_pid == pid)
      return false;
    if (got != 0 && errno != EINTR)
      return false; /* not our child: nothing to wait for */
    if (mc_bench_watch_overdue(timeout)) {
      mc_child_kill(pid, false);
      return true;
    }
    pass_on_text(own_text, 0.1); /* a hang is seconds: 0.1 s is close enough */
  }
}

/* Runs each selected workload's request once on the plugin as `movconf
   run` isolates it, in a process of its own ended after the call (as
   `show` runs a case): a thread the plugin leaves writing into the output
   after run() returned faults there, where the calls timed in one process
   into one buffer would not show it, and its row is then an error. Run
   by movconf before the benchmark's process starts: that process,
   contained, cannot start another contained one. A plugin that is no
   regular file is left to the benchmark's load to refuse; the first call
   that does not answer in time ends the search (the benchmark's watch
   says why). */
static void find_late_writes(const mc_bench_options *o, late_writes *late) {
  struct stat st;
  if (stat(o->impl + strlen("plugin:"), &st) != 0 || !S_ISREG(st.st_mode))
    return;
  mc_impl_options options = {.timeout_seconds = o->timeout_seconds,
                             .handshake_timeout_seconds = o->timeout_seconds,
                             .max_output_bytes = MC_DEFAULT_MAX_OUTPUT_BYTES,
                             .fresh_process_per_case = true};
  char why[512];
  mc_impl *impl = mc_impl_open(o->impl, &options, why, sizeof why);
  bool answering = impl != NULL; /* else the benchmark's own load says why */
  for (int i = 0; i < WORKLOAD_COUNT && answering; i++) {
    if (!selected(&workloads[i], o->filter))
      continue;
    bench_case c;
    if (build_case(&workloads[i], o->quick ? workloads[i].quick : workloads[i].full, &c) == MC_OK) {
      mc_impl_result r;
      memset(&r, 0, sizeof r);
      impl->calls++;
      impl->run(impl, &c.req, &r);
      answering = r.outcome != MC_OUTCOME_TIMEOUT;
      char *safe = mc_safe_text(r.message); /* the plugin's process wrote it */
      if (r.outcome == MC_OUTCOME_CRASH && r.late)
        snprintf(late->found[i], sizeof late->found[i],
                 "run alone in a process of its own, it faulted after run() returned (%s): "
                 "not timed",
                 safe);
      free(safe);
      mc_impl_result_free_outputs(&r);
    }
    free_case(&c);
  }
  if (impl)
    mc_impl_close(impl);
}

/* A plugin is called in the benchmark's own process (a socket between
   would be timed too), which it can end: exit(), a crash. So the benchmark
   runs in a child process, and one that ended before it completed is a
   failure, said, whatever its exit status. That process is contained as a
   plugin's host is (child_contain.h): kill(0), kill(-1) and
   kill(getppid()) from the plugin reach only its own processes. */
static int run_guarded(const mc_bench_options *o) {
  late_writes late; /* read by the benchmark's process too, a fork */
  memset(&late, 0, sizeof late);
  find_late_writes(o, &late);
  int progress[2];
  mc_child_guard_install();
  mc_child_text text;
  mc_child_text_init(&text, o->impl);
  int text_fd = mc_child_text_open(&text);
  int own_text[OWN_TEXTS][2];
  if (!mc_child_pipe(own_text[0]) || !mc_child_pipe(own_text[1])) {
    fprintf(stderr, "movconf bench: cannot make a pipe: %s\n", strerror(errno));
    return 1;
  }
  mc_bench_watch_create(); /* without it, no timeout: the run as before */
  fflush(NULL);
  pid_t warden; /* ended with the other children (mc_child_end_all) */
  pid_t pid = mc_child_pipe(progress) ? mc_child_fork_contained(true, &warden) : -1;
  if (pid < 0) {
    fprintf(stderr, "movconf bench: cannot start the benchmark process: %s\n", strerror(errno));
    return 1;
  }
  if (pid == 0) {
    mc_child_no_core_file();    /* the plugin runs here */
    mc_child_text_close(&text); /* the relay's read end is movconf's */
    part_text(text_fd, own_text);
    mc_bench_watch_own();
    close(progress[0]);
    progress_fd = progress[1];
    int status = run_bench(o, &late);
    note_progress("complete", ""); /* whatever the status: it returned */
    fflush(NULL);
    _exit(status);
  }
  close(progress[1]);
  if (text_fd >= 0)
    close(text_fd);
  int from[OWN_TEXTS];
  for (int i = 0; i < OWN_TEXTS; i++) {
    close(own_text[i][1]);
    from[i] = own_text[i][0];
  }
  siginfo_t info;
  bool overdue = wait_benchmark(pid, o->timeout_seconds, &info, from);
  mc_child_end_all(); /* what the plugin started */
  /* The rest, up to each pipe's end: no writer should be left, and one that
     is cannot keep this going past a second of silence. */
  while ((from[0] >= 0 || from[1] >= 0) && pass_on_text(from, 1.0))
    continue;
  for (int i = 0; i < OWN_TEXTS; i++)
    if (from[i] >= 0)
      close(from[i]);
  mc_child_text_close(&text);
  char last[64] = "";
  bool complete = read_progress(progress[0], last, sizeof last);
  close(progress[0]);
  if (mc_bench_watch_forked()) {
    fprintf(stderr, "movconf bench: the plugin forked in a call and both copies returned from "
                    "it (two processes would time it): the copy was ended; the figures are "
                    "not to be trusted\n");
    return 1;
  }
  if (complete && info.si_code == CLD_EXITED)
    return info.si_status;
  char how[160];
  if (overdue)
    snprintf(how, sizeof how,
             "was ended: a call of the plugin did not return within %g s (--timeout)",
             o->timeout_seconds);
  else
    mc_child_describe_end(&info, how, sizeof how);
  fprintf(stderr,
          "movconf bench: the benchmark did not complete: its process %s %s%s%s; the workloads "
          "from there on were not measured\n",
          how, last[0] ? "during workload " : "before the first workload", last,
          overdue ? "" : " (a plugin runs in that process: it exited or crashed there)");
  return 1;
}

int mc_bench_run(const mc_bench_options *options) {
  if (options->impl && strncmp(options->impl, "plugin:", 7) == 0)
    return run_guarded(options);
  return run_bench(options, NULL);
}
