/* The Slice-8 oracle through its public API (requests built in C, with 4
   inputs or 5), against results worked out with Python's slicing: each
   expectation names the python3 expression it comes from (data written as
   list(range(n)) or a list of rows; bounds and steps as exact integers,
   INT64_MIN as -2**63). Then one invalid request per clause SL-V1..V7. */
#include "oracle_check.h"

#define I64MIN INT64_MIN
#define I64MAX INT64_MAX
/* Raw bits of a u64 side value above INT64_MAX, as an int64 for the tables. */
#define U64(v) ((int64_t)(uint64_t)(v))

/* data, then start, stop, step and, when present, axes. */
typedef struct slice_inputs {
  mc_tensor t[5];
  mc_request req;
} slice_inputs;

/* Side inputs of types[0..3] (start, stop, step, axes) and length n; axes
   NULL leaves axes absent (4 inputs). */
static void setup_typed(slice_inputs *in, mc_tensor data, const mc_type *types, int64_t n,
                        const int64_t *start, const int64_t *stop, const int64_t *step,
                        const int64_t *axes) {
  const int64_t *values[4] = {start, stop, step, axes};
  in->req = (mc_request){.op = MC_OP_SLICE, .n_inputs = axes ? 5 : 4, .attrs = mc_attrs_none()};
  in->t[0] = data;
  for (int k = 1; k < in->req.n_inputs; k++)
    in->t[k] = make(types[k - 1], 1, (int64_t[]){n}, values[k - 1]);
  for (int k = 0; k < in->req.n_inputs; k++)
    in->req.inputs[k] = &in->t[k];
}

static const mc_type all_i64[4] = {MC_I64, MC_I64, MC_I64, MC_I64};

static void setup(slice_inputs *in, mc_tensor data, int64_t n, const int64_t *start,
                  const int64_t *stop, const int64_t *step, const int64_t *axes) {
  setup_typed(in, data, all_i64, n, start, stop, step, axes);
}

static void release(slice_inputs *in) {
  for (int k = 0; k < in->req.n_inputs; k++)
    mc_tensor_free(&in->t[k]);
}

/* One 1-D case over data list(range(10)) in i32. */
static void ten(int64_t start, int64_t stop, int64_t step, bool with_axes, int64_t count,
                const int64_t *values) {
  slice_inputs in;
  setup(&in, make(MC_I32, 1, (int64_t[]){10}, NULL), 1, &start, &stop, &step,
        with_axes ? (int64_t[]){0} : NULL);
  expect_output(&in.req, 1, &count, values);
  release(&in);
}

/* The printed examples 1 to 9 of the specification page (slice-8.rst);
   their printed outputs agree with python3 x = list(range(10)) below. */
static void test_examples_1d(void) {
  ten(1, 8, 1, true, 7, (int64_t[]){1, 2, 3, 4, 5, 6, 7});              /* 1: x[1:8] */
  ten(1, 8, 1, false, 7, (int64_t[]){1, 2, 3, 4, 5, 6, 7});             /* 2: x[1:8], axes absent */
  ten(1, 8, 2, true, 4, (int64_t[]){1, 3, 5, 7});                       /* 3: x[1:8:2] */
  ten(-100, 100, 1, true, 10, NULL);                                    /* 4: x[-100:100] */
  ten(9, -11, -1, true, 10, (int64_t[]){9, 8, 7, 6, 5, 4, 3, 2, 1, 0}); /* 5: x[9:-11:-1] */
  ten(9, 0, -1, true, 9, (int64_t[]){9, 8, 7, 6, 5, 4, 3, 2, 1});       /* 6: x[9:0:-1] */
  ten(9, -10, -1, true, 9, (int64_t[]){9, 8, 7, 6, 5, 4, 3, 2, 1});     /* 7: x[9:-10:-1] */
  ten(9, -11, -2, true, 5, (int64_t[]){9, 7, 5, 3, 1});                 /* 8: x[9:-11:-2] */
  ten(100, -100, -1, true, 10, (int64_t[]){9, 8, 7, 6, 5, 4, 3, 2, 1, 0}); /* 9 */
}

/* Examples 10 to 12. 10: [[0..4],[5..9]][0:2, 1:4:2], i.e. python3
   [v for r in a[0:2] for v in r[1:4:2]] = [1, 3, 6, 8]. 11 (errata E31:
   three values per side input) and 12 (third axis unnamed): data
   [20, 10, 5] holding 0..999, [0:4, 0:10, 0:5] is its first 4*10*5 = 200
   elements in order, 0..199. */
static void test_examples_nd(void) {
  slice_inputs in;
  setup(&in, make(MC_F32, 2, (int64_t[]){2, 5}, NULL), 2, (int64_t[]){0, 1}, (int64_t[]){2, 4},
        (int64_t[]){1, 2}, (int64_t[]){0, 1});
  expect_output(&in.req, 2, (int64_t[]){2, 2}, (int64_t[]){1, 3, 6, 8});
  release(&in);

  setup(&in, make(MC_I16, 3, (int64_t[]){20, 10, 5}, NULL), 3, (int64_t[]){0, 0, 0},
        (int64_t[]){4, 10, 5}, (int64_t[]){1, 1, 1}, (int64_t[]){0, 1, 2});
  expect_output(&in.req, 3, (int64_t[]){4, 10, 5}, NULL);
  release(&in);
  setup(&in, make(MC_I16, 3, (int64_t[]){20, 10, 5}, NULL), 2, (int64_t[]){0, 0},
        (int64_t[]){4, 10}, (int64_t[]){1, 1}, (int64_t[]){0, 1});
  expect_output(&in.req, 3, (int64_t[]){4, 10, 5}, NULL);
  release(&in);
}

/* Negative steps and negative axes. b = rows of 4 holding 0..11 (3 rows):
   python3 [r[3:0:-2] for r in b[-1:-5:-1]] = [[11, 9], [7, 5], [3, 1]],
   axes given as [-2, -1]. Rank 3, d = [[rows of 4 holding 0..11],
   [12..23]], axes [2, 1] out of order: [[r[1:2**63-1:2] for r in
   p[-1:-2**63:-1]] for p in d] =
   [[[9, 11], [5, 7], [1, 3]], [[21, 23], [17, 19], [13, 15]]]. */
static void test_negative_steps(void) {
  slice_inputs in;
  setup(&in, make(MC_U8, 2, (int64_t[]){3, 4}, NULL), 2, (int64_t[]){-1, 3}, (int64_t[]){-5, 0},
        (int64_t[]){-1, -2}, (int64_t[]){-2, -1});
  expect_output(&in.req, 2, (int64_t[]){3, 2}, (int64_t[]){11, 9, 7, 5, 3, 1});
  release(&in);

  setup(&in, make(MC_I64, 3, (int64_t[]){2, 3, 4}, NULL), 2, (int64_t[]){1, -1},
        (int64_t[]){I64MAX, I64MIN}, (int64_t[]){2, -1}, (int64_t[]){2, 1});
  expect_output(&in.req, 3, (int64_t[]){2, 3, 2},
                (int64_t[]){9, 11, 5, 7, 1, 3, 21, 23, 17, 19, 13, 15});
  release(&in);
}

/* int64 extremes (E33), x = list(range(10)): x[5:-2**63:-2**63] = [5];
   x[2**63-1:-2**63:-2**63] = [9]; x[-2**63:2**63-1:3] = [0, 3, 6, 9];
   x[2:2**63-1:2**63-1] = [2]; x[-2**63:2**63-1:-1] = []. */
static void test_int64_extremes(void) {
  ten(5, I64MIN, I64MIN, true, 1, (int64_t[]){5});
  ten(I64MAX, I64MIN, I64MIN, true, 1, (int64_t[]){9});
  ten(I64MIN, I64MAX, 3, false, 4, (int64_t[]){0, 3, 6, 9});
  ten(2, I64MAX, I64MAX, true, 1, (int64_t[]){2});
  ten(I64MIN, I64MAX, -1, true, 0, NULL);
}

/* u64 above INT64_MAX clamps (E34), each side input of its own type (E35),
   x = list(range(10)): x[0:2**64-1:2**63] = [0] (start u64, stop u64,
   step u64 2^63, axes u16); x[2**63:3:-1] = [9, 8, 7, 6, 5, 4] (start u64,
   stop i8, step i32, axes absent); x[2**64-1:-2**63:-3] = [9, 6, 3, 0]
   (start u64, stop i64, step i16, axes u64). */
static void test_u64_above_int64_max(void) {
  slice_inputs in;
  mc_tensor data = make(MC_I32, 1, (int64_t[]){10}, NULL);
  setup_typed(&in, data, (mc_type[]){MC_U64, MC_U64, MC_U64, MC_U16}, 1, (int64_t[]){0},
              (int64_t[]){U64(UINT64_MAX)}, (int64_t[]){U64(UINT64_C(1) << 63)}, (int64_t[]){0});
  expect_output(&in.req, 1, (int64_t[]){1}, (int64_t[]){0});
  release(&in);
  data = make(MC_I32, 1, (int64_t[]){10}, NULL);
  setup_typed(&in, data, (mc_type[]){MC_U64, MC_I8, MC_I32}, 1, (int64_t[]){U64(UINT64_C(1) << 63)},
              (int64_t[]){3}, (int64_t[]){-1}, NULL);
  expect_output(&in.req, 1, (int64_t[]){6}, (int64_t[]){9, 8, 7, 6, 5, 4});
  release(&in);
  data = make(MC_I32, 1, (int64_t[]){10}, NULL);
  setup_typed(&in, data, (mc_type[]){MC_U64, MC_I64, MC_I16, MC_U64}, 1,
              (int64_t[]){U64(UINT64_MAX)}, (int64_t[]){I64MIN}, (int64_t[]){-3}, (int64_t[]){0});
  expect_output(&in.req, 1, (int64_t[]){4}, (int64_t[]){9, 6, 3, 0});
  release(&in);
}

/* Length 0 (E36): nothing named, output = data, with and without axes. */
static void test_length_zero(void) {
  slice_inputs in;
  const int64_t shape[2] = {2, 3};
  setup(&in, make(MC_U16, 2, shape, NULL), 0, NULL, NULL, NULL, NULL);
  expect_output(&in.req, 2, shape, NULL);
  release(&in);
  setup(&in, make(MC_U16, 2, shape, NULL), 0, NULL, NULL, NULL, (int64_t[]){0});
  expect_output(&in.req, 2, shape, NULL);
  release(&in);
}

/* Zero-size dimensions (E37): data [2, 0, 3]. Named, the empty axis counts
   0 whatever the bounds (python3 [][0:5] = [], [][5:-9:-1] = []); unnamed,
   it is carried: [.., .., 2:0:-1] gives [2, 0, 2]. */
static void test_zero_size(void) {
  slice_inputs in;
  const int64_t shape[3] = {2, 0, 3};
  setup(&in, make(MC_I32, 3, shape, NULL), 1, (int64_t[]){0}, (int64_t[]){5}, (int64_t[]){1},
        (int64_t[]){1});
  expect_output(&in.req, 3, shape, NULL);
  release(&in);
  setup(&in, make(MC_I32, 3, shape, NULL), 1, (int64_t[]){5}, (int64_t[]){-9}, (int64_t[]){-1},
        (int64_t[]){-2});
  expect_output(&in.req, 3, shape, NULL);
  release(&in);
  setup(&in, make(MC_I32, 3, shape, NULL), 1, (int64_t[]){2}, (int64_t[]){0}, (int64_t[]){-1},
        (int64_t[]){2});
  expect_output(&in.req, 3, (int64_t[]){2, 0, 2}, NULL);
  release(&in);
}

/* Packed types at bit granularity. u4 c = rows of 5 holding (7 * i) % 16:
   [[0, 7, 14, 5, 12], [3, 10, 1, 8, 15], [6, 13, 4, 11, 2]] (rows start at
   odd nibbles): [r[1:5:2] for r in c[1:3]] = [[10, 8], [13, 11]];
   [r[4:-6:-3] for r in c[2:-4:-1]] = [[2, 13], [15, 10], [12, 7]].
   u1 bits [1,0,1,1,0,0,1,0,1][8:0:-3] = [1, 0, 1] (element 8, 5, 2).
   i4 [-8, -1, 7, 3][3:-5:-2] = [3, -1], raw nibbles 3 and 0xF. */
static void test_packed(void) {
  const int64_t c[15] = {0, 7, 14, 5, 12, 3, 10, 1, 8, 15, 6, 13, 4, 11, 2};
  slice_inputs in;
  setup(&in, make(MC_U4, 2, (int64_t[]){3, 5}, c), 2, (int64_t[]){1, 1}, (int64_t[]){3, 5},
        (int64_t[]){1, 2}, NULL);
  expect_output(&in.req, 2, (int64_t[]){2, 2}, (int64_t[]){10, 8, 13, 11});
  release(&in);
  setup(&in, make(MC_U4, 2, (int64_t[]){3, 5}, c), 2, (int64_t[]){2, 4}, (int64_t[]){-4, -6},
        (int64_t[]){-1, -3}, NULL);
  expect_output(&in.req, 2, (int64_t[]){3, 2}, (int64_t[]){2, 13, 15, 10, 12, 7});
  release(&in);

  setup(&in, make(MC_U1, 1, (int64_t[]){9}, (int64_t[]){1, 0, 1, 1, 0, 0, 1, 0, 1}), 1,
        (int64_t[]){8}, (int64_t[]){0}, (int64_t[]){-3}, NULL);
  expect_output(&in.req, 1, (int64_t[]){3}, (int64_t[]){1, 0, 1});
  release(&in);
  setup(&in, make(MC_I4, 1, (int64_t[]){4}, (int64_t[]){8, 0xF, 7, 3}), 1, (int64_t[]){3},
        (int64_t[]){-5}, (int64_t[]){-2}, NULL);
  expect_output(&in.req, 1, (int64_t[]){2}, (int64_t[]){3, 0xF});
  release(&in);
}

/* One invalid request per clause, each with another input valid around it. */
static void test_invalid(void) {
  slice_inputs in;
  const int64_t r3[3] = {2, 3, 4};
  /* SL-V1: rank-0 data (E37). */
  setup(&in, make(MC_I32, 0, NULL, NULL), 1, (int64_t[]){0}, (int64_t[]){1}, (int64_t[]){1}, NULL);
  expect_error(&in.req, CAP, "data_rank", "SL-V1", "rank 0");
  release(&in);
  /* SL-V2: axes f32 while start, stop, step are valid integers (E38). */
  setup_typed(&in, make(MC_I32, 3, r3, NULL), (mc_type[]){MC_I8, MC_U32, MC_I64, MC_F32}, 1,
              (int64_t[]){0}, (int64_t[]){1}, (int64_t[]){1}, (int64_t[]){0});
  expect_error(&in.req, CAP, "side_input_type", "SL-V2", "axes has type f32");
  release(&in);
  /* SL-V2: a packed u4 step (E38). */
  setup_typed(&in, make(MC_I32, 3, r3, NULL), (mc_type[]){MC_I8, MC_U32, MC_U4}, 1, (int64_t[]){0},
              (int64_t[]){1}, (int64_t[]){1}, NULL);
  expect_error(&in.req, CAP, "side_input_type", "SL-V2", "step has type u4");
  release(&in);
  /* SL-V3: stop of rank 2. */
  setup(&in, make(MC_I32, 3, r3, NULL), 1, (int64_t[]){0}, (int64_t[]){1}, (int64_t[]){1}, NULL);
  mc_tensor_free(&in.t[2]);
  in.t[2] = make(MC_I64, 2, (int64_t[]){1, 1}, (int64_t[]){1});
  expect_error(&in.req, CAP, "side_input_rank", "SL-V3", "stop has rank 2");
  release(&in);
  /* SL-V4: axes longer than start (E36), then step shorter. */
  setup(&in, make(MC_I32, 3, r3, NULL), 1, (int64_t[]){0}, (int64_t[]){1}, (int64_t[]){1},
        (int64_t[]){0});
  mc_tensor_free(&in.t[4]);
  in.t[4] = make(MC_I64, 1, (int64_t[]){2}, (int64_t[]){0, 1});
  expect_error(&in.req, CAP, "side_input_length", "SL-V4", "axes has 2 elements; start has 1");
  mc_tensor_free(&in.t[3]);
  in.t[3] = make(MC_I64, 1, (int64_t[]){0}, NULL);
  expect_error(&in.req, CAP, "side_input_length", "SL-V4", "step has 0 elements; start has 1");
  release(&in);
  /* SL-V5: step[1] = 0, with axes[1] also out of range: V5 comes first. */
  setup(&in, make(MC_I32, 3, r3, NULL), 2, (int64_t[]){0, 0}, (int64_t[]){1, 1}, (int64_t[]){1, 0},
        (int64_t[]){0, 7});
  expect_error(&in.req, CAP, "step_zero", "SL-V5", "step[1] is 0");
  release(&in);
  /* SL-V6: axes[1] = 3 for rank 3; -4; a u64 above INT64_MAX printed as stored. */
  setup(&in, make(MC_I32, 3, r3, NULL), 2, (int64_t[]){0, 0}, (int64_t[]){1, 1}, (int64_t[]){1, 1},
        (int64_t[]){-3, 3});
  expect_error(&in.req, CAP, "axis_out_of_range", "SL-V6", "axes[1] is 3; it must be in [-3, 2]");
  release(&in);
  setup(&in, make(MC_I32, 3, r3, NULL), 1, (int64_t[]){0}, (int64_t[]){1}, (int64_t[]){1},
        (int64_t[]){-4});
  expect_error(&in.req, CAP, "axis_out_of_range", "SL-V6", "axes[0] is -4");
  release(&in);
  setup_typed(&in, make(MC_I32, 3, r3, NULL), (mc_type[]){MC_I64, MC_I64, MC_I64, MC_U64}, 1,
              (int64_t[]){0}, (int64_t[]){1}, (int64_t[]){1}, (int64_t[]){U64(UINT64_MAX)});
  expect_error(&in.req, CAP, "axis_out_of_range", "SL-V6", "axes[0] is 18446744073709551615");
  release(&in);
  /* SL-V6: axes absent, 4 entries for rank 3: the default axis 3 (E36). */
  setup(&in, make(MC_I32, 3, r3, NULL), 4, (int64_t[]){0, 0, 0, 0}, (int64_t[]){1, 1, 1, 1},
        (int64_t[]){1, 1, 1, 1}, NULL);
  expect_error(&in.req, CAP, "axis_out_of_range", "SL-V6", "axis 3 is outside [-3, 2]");
  release(&in);
  /* SL-V7: 1 and 1 - r = -2 are the same axis (E35). */
  setup(&in, make(MC_I32, 3, r3, NULL), 2, (int64_t[]){0, 0}, (int64_t[]){1, 1}, (int64_t[]){1, 1},
        (int64_t[]){1, -2});
  expect_error(&in.req, CAP, "axes_not_unique", "SL-V7",
               "axes[0] = 1 and axes[1] = -2 both name axis 1");
  release(&in);
  /* SL-V7: explicit axes longer than the rank, every one in range (E36). */
  setup(&in, make(MC_I32, 1, (int64_t[]){4}, NULL), 2, (int64_t[]){0, 0}, (int64_t[]){1, 1},
        (int64_t[]){1, 1}, (int64_t[]){0, -1});
  expect_error(&in.req, CAP, "axes_not_unique", "SL-V7", "both name axis 0");
  release(&in);
}

/* MC-L4: the whole of a 10-element i32 is 40 bytes, above a 39-byte cap. */
static void test_output_cap(void) {
  slice_inputs in;
  setup(&in, make(MC_I32, 1, (int64_t[]){10}, NULL), 1, (int64_t[]){0}, (int64_t[]){10},
        (int64_t[]){1}, NULL);
  mc_tensor out;
  mc_error err;
  CHECK_STR(mc_status_name(mc_oracle_run(&in.req, 39, &out, &err)), "output_too_large");
  CHECK_STR(err.clause, "MC-L4");
  release(&in);
}

/* CPython's PySlice_AdjustIndices (Objects/sliceobject.c), restated as an
   independent model: a formulation other than the oracle's (bounds moved
   to -1/0 or d-1/d by the sign of step, count by (distance - 1) / |step| +
   1). |step| is taken in uint64 so that INT64_MIN needs no negation. */
static int64_t python_slice(int64_t d, int64_t *start, int64_t stop, int64_t step) {
  int64_t *bound[2] = {start, &stop};
  for (int b = 0; b < 2; b++) {
    if (*bound[b] < 0) {
      *bound[b] += d;
      if (*bound[b] < 0)
        *bound[b] = step < 0 ? -1 : 0;
    } else if (*bound[b] >= d) {
      *bound[b] = step < 0 ? d - 1 : d;
    }
  }
  uint64_t magnitude = step < 0 ? 0 - (uint64_t)step : (uint64_t)step;
  if (step < 0 && stop < *start)
    return (int64_t)((uint64_t)(*start - stop - 1) / magnitude + 1);
  if (step > 0 && *start < stop)
    return (int64_t)((uint64_t)(stop - *start - 1) / magnitude + 1);
  return 0;
}

/* Every start, stop in -7..7 and the int64 extremes, every step in
   +-1..+-4 and the extremes, on data [2, d] for d = 0..5, slicing axis 1
   (given as 1 or -1, or axis 0 sliced whole alongside): each output
   element is row * d + start + j * step per the model above. */
static void test_sweep_against_python_model(void) {
  const int64_t bounds[] = {-7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, I64MIN, I64MAX};
  const int64_t steps[] = {1, 2, 3, 4, -1, -2, -3, -4, I64MAX, I64MIN};
  const int nb = sizeof bounds / sizeof *bounds, ns = sizeof steps / sizeof *steps;
  int64_t want[2 * 5];
  int cases = 0, failed_before = check_failed;
  for (int64_t d = 0; d <= 5; d++)
    for (int a = 0; a < nb; a++)
      for (int b = 0; b < nb; b++)
        for (int c = 0; c < ns; c++) {
          int64_t first = bounds[a];
          int64_t count = python_slice(d, &first, bounds[b], steps[c]);
          for (int64_t row = 0; row < 2; row++)
            for (int64_t j = 0; j < count; j++)
              want[row * count + j] = row * d + first + j * steps[c]; /* j > 0: |step| < d */
          slice_inputs in;
          bool both = cases % 3 == 2; /* axis 0 named too, whole: [0:2:1] */
          setup(&in, make(MC_I32, 2, (int64_t[]){2, d}, NULL), both ? 2 : 1,
                both ? (int64_t[]){0, bounds[a]} : &bounds[a],
                both ? (int64_t[]){2, bounds[b]} : &bounds[b],
                both ? (int64_t[]){1, steps[c]} : &steps[c],
                both ? (int64_t[]){0, -1} : (int64_t[]){cases % 2 ? 1 : -1});
          expect_output(&in.req, 2, (int64_t[]){2, count}, want);
          release(&in);
          cases++;
          if (check_failed > failed_before) {
            fprintf(stderr, "  first mismatch: d %lld, [%lld:%lld:%lld]\n", (long long)d,
                    (long long)bounds[a], (long long)bounds[b], (long long)steps[c]);
            return;
          }
        }
  CHECK_EQ_I64(cases, 6 * 17 * 17 * 10);
}

int main(void) {
  test_examples_1d();
  test_examples_nd();
  test_negative_steps();
  test_int64_extremes();
  test_u64_above_int64_max();
  test_length_zero();
  test_zero_size();
  test_packed();
  test_invalid();
  test_output_cap();
  test_sweep_against_python_model();
  return check_report();
}
