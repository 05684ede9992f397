/* Unit tests of the layout helpers: shapes, permutations, transpose and
   window (crop and zero-pad), reverse and strided crop, on byte types and packed u1/u4. Expected
   values are worked out by hand or by plain loops written here. */
#include "check.h"
#include "common/layout.h"
#include "movconf/tensor.h"

#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs call() in a forked child whose stderr is captured: true when the
   child died of SIGABRT after printing a message containing both needles. */
static bool aborts_saying(void (*call)(void), const char *needle1, const char *needle2) {
  int fds[2];
  if (pipe(fds) != 0)
    return false;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    call();
    _exit(0); /* returned: no abort */
  }
  close(fds[1]);
  char text[512] = {0};
  size_t used = 0;
  ssize_t got;
  while (used < sizeof text - 1 && (got = read(fds[0], text + used, sizeof text - 1 - used)) > 0)
    used += (size_t)got;
  close(fds[0]);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid)
    return false;
  if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT) {
    fprintf(stderr, "child did not abort (status 0x%x); it said: %s\n", status, text);
    return false;
  }
  return strstr(text, needle1) && strstr(text, needle2);
}

/* Little-endian i32 buffer helpers for readable expectations. */
static void put_i32(uint8_t *buf, int64_t index, int32_t v) {
  uint32_t u = (uint32_t)v;
  for (int k = 0; k < 4; k++) {
    buf[index * 4 + k] = (uint8_t)(u >> (8 * k));
  }
}

static int32_t get_i32(const uint8_t *buf, int64_t index) {
  uint32_t u = 0;
  for (int k = 0; k < 4; k++) {
    u |= (uint32_t)buf[index * 4 + k] << (8 * k);
  }
  return (int32_t)u;
}

static void test_shapes(void) {
  const int64_t d234[] = {2, 3, 4};
  const int64_t d64[] = {6, 4};
  const int64_t d23[] = {2, 3};
  const int64_t d7[] = {7};
  const int64_t d05[] = {0, 5};
  const int64_t d0[] = {0};
  const int64_t d1[] = {1};
  const int64_t big[] = {INT64_C(4294967296), INT64_C(4294967296)};
  mc_shape s234 = mc_shape_make(3, d234);
  CHECK_EQ_I64(s234.rank, 3);
  CHECK(s234.dim[0] == 2 && s234.dim[1] == 3 && s234.dim[2] == 4);
  int64_t count = -1;
  CHECK(mc_shape_count(&s234, &count) && count == 24);
  mc_shape s64 = mc_shape_make(2, d64), s23 = mc_shape_make(2, d23), s7 = mc_shape_make(1, d7);
  mc_shape s05 = mc_shape_make(2, d05), s0 = mc_shape_make(1, d0), s1 = mc_shape_make(1, d1);
  mc_shape scalar = mc_shape_make(0, NULL), sbig = mc_shape_make(2, big);
  CHECK(mc_shape_same_count(&s234, &s64));
  CHECK(!mc_shape_same_count(&s23, &s7));
  CHECK(mc_shape_same_count(&s05, &s0));
  CHECK(mc_shape_same_count(&scalar, &s1));
  CHECK(!mc_shape_same_count(&sbig, &sbig)); /* overflow is never a legal reshape */
  CHECK(!mc_shape_count(&sbig, &count));
  mc_shape bad = mc_shape_make(MC_MAX_WORK_RANK + 1, d234);
  CHECK(!mc_shape_count(&bad, &count));
  CHECK(!mc_shape_same_count(&bad, &bad));
}

static void test_perms(void) {
  const int ok[] = {2, 0, 1};
  const int dup[] = {0, 0, 1};
  const int high[] = {0, 1, 3};
  const int low[] = {-1, 0, 1};
  CHECK(mc_perm_valid(ok, 3));
  CHECK(!mc_perm_valid(dup, 3));
  CHECK(!mc_perm_valid(high, 3));
  CHECK(!mc_perm_valid(low, 3));
  CHECK(mc_perm_valid(NULL, 0));
  CHECK(!mc_perm_valid(NULL, 2));
  CHECK(!mc_perm_valid(ok, -1));
  int wide[MC_MAX_WORK_RANK + 1];
  for (int i = 0; i <= MC_MAX_WORK_RANK; i++) {
    wide[i] = MC_MAX_WORK_RANK - i;
  }
  CHECK(!mc_perm_valid(wide, MC_MAX_WORK_RANK + 1));
  CHECK(mc_perm_valid(wide + 1, MC_MAX_WORK_RANK)); /* 31, 30, ..., 0 */

  const int64_t d234[] = {2, 3, 4};
  mc_shape in = mc_shape_make(3, d234);
  mc_shape out = mc_transpose_shape(&in, ok);
  CHECK_EQ_I64(out.rank, 3);
  CHECK(out.dim[0] == 4 && out.dim[1] == 2 && out.dim[2] == 3);
  mc_shape rejected = mc_transpose_shape(&in, dup);
  CHECK(rejected.rank < 0);
}

static void test_transpose_2x3(void) {
  /* [[0,1,2],[3,4,5]] transposed is [[0,3],[1,4],[2,5]] */
  uint8_t in[6 * 4], out[6 * 4];
  for (int i = 0; i < 6; i++) {
    put_i32(in, i, i);
  }
  memset(out, 0xEE, sizeof out);
  const int64_t d[] = {2, 3};
  const int perm[] = {1, 0};
  mc_shape s = mc_shape_make(2, d);
  mc_transpose(MC_I32, &s, in, perm, out);
  const int32_t expected[6] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; i++) {
    CHECK_EQ_I64(get_i32(out, i), expected[i]);
  }
}

static void test_transpose_3d(void) {
  /* in[i][j][k] = 12i + 4j + k with shape [2,3,4]; perm [2,0,1] gives shape
     [4,2,3] with out[a][b][c] = in[b][c][a] = 12b + 4c + a, stored at 6a + 3b + c. */
  uint8_t in[24 * 4], out[24 * 4];
  for (int i = 0; i < 24; i++) {
    put_i32(in, i, i);
  }
  memset(out, 0xEE, sizeof out);
  const int64_t d[] = {2, 3, 4};
  const int perm[] = {2, 0, 1};
  mc_shape s = mc_shape_make(3, d);
  mc_transpose(MC_I32, &s, in, perm, out);
  CHECK_EQ_I64(get_i32(out, 0), 0);   /* out[0][0][0] = in[0][0][0] */
  CHECK_EQ_I64(get_i32(out, 1), 4);   /* out[0][0][1] = in[0][1][0] */
  CHECK_EQ_I64(get_i32(out, 3), 12);  /* out[0][1][0] = in[1][0][0] */
  CHECK_EQ_I64(get_i32(out, 6), 1);   /* out[1][0][0] = in[0][0][1] */
  CHECK_EQ_I64(get_i32(out, 8), 9);   /* out[1][0][2] = in[0][2][1] */
  CHECK_EQ_I64(get_i32(out, 22), 19); /* out[3][1][1] = in[1][1][3] */
  CHECK_EQ_I64(get_i32(out, 23), 23); /* out[3][1][2] = in[1][2][3] */
  int mismatches = 0;
  for (int a = 0; a < 4; a++) {
    for (int b = 0; b < 2; b++) {
      for (int c = 0; c < 3; c++) {
        mismatches += get_i32(out, 6 * a + 3 * b + c) != get_i32(in, 12 * b + 4 * c + a);
      }
    }
  }
  CHECK_EQ_I64(mismatches, 0);
}

static void test_transpose_identity_and_edges(void) {
  uint8_t in[24 * 4], out[24 * 4];
  for (int i = 0; i < 24; i++) {
    put_i32(in, i, 100 + i);
  }
  memset(out, 0, sizeof out);
  const int64_t d[] = {2, 3, 4};
  const int identity[] = {0, 1, 2};
  mc_shape s = mc_shape_make(3, d);
  mc_transpose(MC_I32, &s, in, identity, out);
  CHECK_MEM(out, in, sizeof in);

  /* rank 0: the single element is copied */
  const uint8_t scalar_in[8] = {1, 0, 0, 0, 0, 0, 0xF4, 0x7F};
  uint8_t scalar_out[8] = {0};
  mc_shape scalar = mc_shape_make(0, NULL);
  mc_transpose(MC_F64, &scalar, scalar_in, NULL, scalar_out);
  CHECK_MEM(scalar_out, scalar_in, 8);

  /* zero-size: nothing is written */
  const int64_t dz[] = {2, 0, 3};
  const int reverse[] = {2, 1, 0};
  mc_shape zero = mc_shape_make(3, dz);
  uint8_t sentinel[4] = {0xAB, 0xAB, 0xAB, 0xAB};
  mc_transpose(MC_I32, &zero, in, reverse, sentinel);
  CHECK(sentinel[0] == 0xAB && sentinel[3] == 0xAB);
  mc_transpose(MC_U4, &zero, in, reverse, sentinel);
  CHECK(sentinel[0] == 0xAB);
}

/* Broken invariants abort with the function and the invariant named: the
   oracle must never hand back an output it did not compute. */
static void transpose_with_duplicate_perm(void) {
  const int64_t d[] = {2, 3, 4};
  const int dup[] = {0, 0, 1};
  uint8_t in[24] = {0}, out[24];
  mc_shape s = mc_shape_make(3, d);
  mc_transpose(MC_U8, &s, in, dup, out);
}

static void transpose_without_output(void) {
  const int64_t d[] = {2, 2};
  const int swap[] = {1, 0};
  uint8_t in[4] = {0};
  mc_shape s = mc_shape_make(2, d);
  mc_transpose(MC_U8, &s, in, swap, NULL);
}

static void window_with_mismatched_ranks(void) {
  const int64_t d2[] = {2, 2}, d3[] = {2, 2, 1}, offset[] = {0, 0, 0};
  uint8_t in[4] = {0}, out[4];
  mc_shape s2 = mc_shape_make(2, d2), s3 = mc_shape_make(3, d3);
  mc_window(MC_U8, &s2, in, offset, &s3, out);
}

static void window_with_invalid_type(void) {
  const int64_t d[] = {2};
  const int64_t offset[] = {0};
  uint8_t in[2] = {0}, out[2];
  mc_shape s = mc_shape_make(1, d);
  mc_window((mc_type)999, &s, in, offset, &s, out);
}

/* A zero dimension empties a shape whatever the others hold, even when
   their product overflows int64 (the oracle meets batch 0 with huge blocks). */
static void test_empty_with_huge_dimensions(void) {
  const int64_t huge[] = {0, (int64_t)1 << 40, (int64_t)1 << 40}, small[] = {1, 2, 2};
  const int reverse[] = {2, 1, 0};
  const int64_t offset[] = {-1, 0, 0};
  mc_shape empty = mc_shape_make(3, huge), out_shape = mc_shape_make(3, small);
  uint8_t in[1] = {7}, sentinel[4] = {0xAB, 0xAB, 0xAB, 0xAB};
  mc_transpose(MC_U8, &empty, in, reverse, sentinel);
  CHECK(sentinel[0] == 0xAB && sentinel[3] == 0xAB);
  mc_window(MC_U8, &empty, in, offset, &out_shape, sentinel); /* padding nothing: zeros */
  CHECK(sentinel[0] == 0 && sentinel[1] == 0 && sentinel[2] == 0 && sentinel[3] == 0);
}

static void test_broken_invariants_abort(void) {
  CHECK(aborts_saying(transpose_with_duplicate_perm, "mc_transpose", "mc_perm_valid"));
  CHECK(aborts_saying(transpose_without_output, "mc_transpose", "out != NULL"));
  CHECK(aborts_saying(window_with_mismatched_ranks, "mc_window", "rank == out_shape->rank"));
  CHECK(aborts_saying(window_with_invalid_type, "mc_window", "mc_type_get"));
}

static void test_transpose_packed(void) {
  /* u4 2x3 [[1,2,3],[4,5,6]]: bytes 0x21 0x43 0x65; transposed [1,4,2,5,3,6]:
     bytes 0x41 0x52 0x63. */
  const uint8_t u4_in[3] = {0x21, 0x43, 0x65};
  uint8_t u4_out[3] = {0xFF, 0xFF, 0xFF};
  const int64_t d23[] = {2, 3};
  const int swap[] = {1, 0};
  mc_shape s23 = mc_shape_make(2, d23);
  mc_transpose(MC_U4, &s23, u4_in, swap, u4_out);
  const uint8_t u4_expected[3] = {0x41, 0x52, 0x63};
  CHECK_MEM(u4_out, u4_expected, 3);

  /* u4 3x3 of 1..9: bytes 0x21 0x43 0x65 0x87 0x09; transposed
     [1,4,7,2,5,8,3,6,9]: bytes 0x41 0x27 0x85 0x63 0x09, trailing nibble zero. */
  const uint8_t u4_9_in[5] = {0x21, 0x43, 0x65, 0x87, 0x09};
  uint8_t u4_9_out[5] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  const int64_t d33[] = {3, 3};
  mc_shape s33 = mc_shape_make(2, d33);
  mc_transpose(MC_U4, &s33, u4_9_in, swap, u4_9_out);
  const uint8_t u4_9_expected[5] = {0x41, 0x27, 0x85, 0x63, 0x09};
  CHECK_MEM(u4_9_out, u4_9_expected, 5);

  /* u1 3x3 [[1,0,0],[1,1,0],[0,1,1]]: bits 10011001 1 -> 0x99 0x80;
     transposed [[1,1,0],[0,1,1],[0,0,1]]: bits 11001100 1 -> 0xCC 0x80. */
  const uint8_t u1_in[2] = {0x99, 0x80};
  uint8_t u1_out[2] = {0xFF, 0xFF};
  mc_transpose(MC_U1, &s33, u1_in, swap, u1_out);
  CHECK(u1_out[0] == 0xCC);
  CHECK(u1_out[1] == 0x80);
}

static void test_window_crop(void) {
  /* in 3x4 = [[0,1,2,3],[4,5,6,7],[8,9,10,11]]; offset [1,1], out 2x2 = [[5,6],[9,10]] */
  uint8_t in[12 * 4], out[4 * 4];
  for (int i = 0; i < 12; i++) {
    put_i32(in, i, i);
  }
  memset(out, 0xEE, sizeof out);
  const int64_t din[] = {3, 4}, dout[] = {2, 2}, offset[] = {1, 1};
  mc_shape si = mc_shape_make(2, din), so = mc_shape_make(2, dout);
  mc_window(MC_I32, &si, in, offset, &so, out);
  CHECK_EQ_I64(get_i32(out, 0), 5);
  CHECK_EQ_I64(get_i32(out, 1), 6);
  CHECK_EQ_I64(get_i32(out, 2), 9);
  CHECK_EQ_I64(get_i32(out, 3), 10);

  /* u1 crop: in bits [1,0,1,1,0,0,0,0,1] (0xB0 0x80), offset [2], out 7 elements
     [1,1,0,0,0,0,1] -> 1100 0010 = 0xC2, last bit unused and zero. */
  const uint8_t u1_in[2] = {0xB0, 0x80};
  uint8_t u1_out[1] = {0xFF};
  const int64_t d9[] = {9}, d7[] = {7}, two[] = {2};
  mc_shape s9 = mc_shape_make(1, d9), s7 = mc_shape_make(1, d7);
  mc_window(MC_U1, &s9, u1_in, two, &s7, u1_out);
  CHECK(u1_out[0] == 0xC2);
}

static void test_window_pad(void) {
  /* 1-D: [7,8,9] i16 with offset -2 into 6 elements: [0,0,7,8,9,0] */
  const uint8_t in16[6] = {7, 0, 8, 0, 9, 0};
  uint8_t out16[12];
  memset(out16, 0xEE, sizeof out16);
  const int64_t d3[] = {3}, d6[] = {6}, minus2[] = {-2};
  mc_shape s3 = mc_shape_make(1, d3), s6 = mc_shape_make(1, d6);
  mc_window(MC_I16, &s3, in16, minus2, &s6, out16);
  const uint8_t expected16[12] = {0, 0, 0, 0, 7, 0, 8, 0, 9, 0, 0, 0};
  CHECK_MEM(out16, expected16, 12);

  /* 2-D: [[1,2],[3,4]] u8 with offset [-1,-1] into 4x3:
     [[0,0,0],[0,1,2],[0,3,4],[0,0,0]] */
  const uint8_t in8[4] = {1, 2, 3, 4};
  uint8_t out8[12];
  memset(out8, 0xEE, sizeof out8);
  const int64_t d22[] = {2, 2}, d43[] = {4, 3}, minus11[] = {-1, -1};
  mc_shape s22 = mc_shape_make(2, d22), s43 = mc_shape_make(2, d43);
  mc_window(MC_U8, &s22, in8, minus11, &s43, out8);
  const uint8_t expected8[12] = {0, 0, 0, 0, 1, 2, 0, 3, 4, 0, 0, 0};
  CHECK_MEM(out8, expected8, 12);

  /* u4: [5,6,7] (0x65 0x07) with offset -1 into 5: [0,5,6,7,0] -> 0x50 0x76 0x00;
     both the pad nibble and the unused trailing nibble are zero. */
  const uint8_t in4[2] = {0x65, 0x07};
  uint8_t out4[3] = {0xFF, 0xFF, 0xFF};
  const int64_t d5[] = {5}, minus1[] = {-1};
  mc_shape s5 = mc_shape_make(1, d5);
  mc_window(MC_U4, &s3, in4, minus1, &s5, out4);
  const uint8_t expected4[3] = {0x50, 0x76, 0x00};
  CHECK_MEM(out4, expected4, 3);

  /* padding an empty input gives all zeros */
  const int64_t d0[] = {0}, d2[] = {2};
  mc_shape s0 = mc_shape_make(1, d0), s2 = mc_shape_make(1, d2);
  const uint8_t none[1] = {0x99};
  uint8_t out_empty[2] = {0xEE, 0xEE};
  mc_window(MC_U8, &s0, none, minus1, &s2, out_empty);
  CHECK(out_empty[0] == 0 && out_empty[1] == 0);

  /* an empty output writes nothing */
  uint8_t sentinel[1] = {0xAB};
  mc_window(MC_U8, &s3, in8, minus1, &s0, sentinel);
  CHECK(sentinel[0] == 0xAB);
}

static void test_window_mixed(void) {
  /* in 3x4 = [[0,1,2,3],[4,5,6,7],[8,9,10,11]], offset [-1, 2], out 3x3:
     out[i][j] = in[i-1][j+2] when inside. Row 0 is above the input; rows 1
     and 2 read rows 0 and 1 at columns 2, 3 and (outside) 4:
     [[0,0,0],[2,3,0],[6,7,0]] */
  uint8_t in[12 * 4], out[9 * 4];
  for (int i = 0; i < 12; i++) {
    put_i32(in, i, i);
  }
  memset(out, 0xEE, sizeof out);
  const int64_t din[] = {3, 4}, dout[] = {3, 3}, offset[] = {-1, 2};
  mc_shape si = mc_shape_make(2, din), so = mc_shape_make(2, dout);
  mc_window(MC_I32, &si, in, offset, &so, out);
  const int32_t expected[9] = {0, 0, 0, 2, 3, 0, 6, 7, 0};
  for (int i = 0; i < 9; i++) {
    CHECK_EQ_I64(get_i32(out, i), expected[i]);
  }

  /* Offsets far outside on one axis: every element is zero. */
  const int64_t far[] = {0, 1000};
  memset(out, 0xEE, sizeof out);
  mc_window(MC_I32, &si, in, far, &so, out);
  int nonzero = 0;
  for (int i = 0; i < 9; i++) {
    nonzero += get_i32(out, i) != 0;
  }
  CHECK_EQ_I64(nonzero, 0);

  /* rank 0 window: one element copied */
  const uint8_t scalar_in[2] = {0x34, 0x12};
  uint8_t scalar_out[2] = {0, 0};
  mc_shape scalar = mc_shape_make(0, NULL);
  mc_window(MC_F16, &scalar, scalar_in, NULL, &scalar, scalar_out);
  CHECK_MEM(scalar_out, scalar_in, 2);
}

/* A u8 crop of out_len elements from [0,0,0,0], every step-th from begin. */
static void crop_four(int64_t out_len, int64_t begin, uint64_t step) {
  const int64_t d4[] = {4};
  uint8_t in[4] = {0}, out[4];
  mc_shape s4 = mc_shape_make(1, d4), so = mc_shape_make(1, &out_len);
  mc_strided_crop(MC_U8, &s4, in, &begin, &step, &so, out);
}

/* Reading past the input (begin 1, step 2, 3 elements: index 5) and a step
   of 0 break the contract. */
static void strided_crop_past_the_input(void) {
  crop_four(3, 1, 2);
}

static void strided_crop_with_step_zero(void) {
  crop_four(1, 0, 0);
}

static void reverse_with_invalid_type(void) {
  const int64_t d[] = {2};
  const bool reversed[] = {true};
  uint8_t in[2] = {0}, out[2];
  mc_shape s = mc_shape_make(1, d);
  mc_reverse((mc_type)999, &s, in, reversed, out);
}

static void test_reverse_and_strided_crop_abort(void) {
  CHECK(aborts_saying(strided_crop_past_the_input, "mc_strided_crop", "strided_reads_inside"));
  CHECK(aborts_saying(strided_crop_with_step_zero, "mc_strided_crop", "strided_reads_inside"));
  CHECK(aborts_saying(reverse_with_invalid_type, "mc_reverse", "mc_type_get"));
}

static void test_reverse(void) {
  /* i32 [[0,1,2],[3,4,5]]: axis 1 backwards [[2,1,0],[5,4,3]]; both axes
     [[5,4,3],[2,1,0]]; neither: a copy. */
  uint8_t in[6 * 4], out[6 * 4];
  for (int i = 0; i < 6; i++) {
    put_i32(in, i, i);
  }
  const int64_t d23[] = {2, 3};
  mc_shape s23 = mc_shape_make(2, d23);
  const bool axis1[] = {false, true}, both[] = {true, true}, neither[] = {false, false};
  const int32_t want_axis1[] = {2, 1, 0, 5, 4, 3}, want_both[] = {5, 4, 3, 2, 1, 0};
  mc_reverse(MC_I32, &s23, in, axis1, out);
  for (int i = 0; i < 6; i++) {
    CHECK_EQ_I64(get_i32(out, i), want_axis1[i]);
  }
  mc_reverse(MC_I32, &s23, in, both, out);
  for (int i = 0; i < 6; i++) {
    CHECK_EQ_I64(get_i32(out, i), want_both[i]);
  }
  mc_reverse(MC_I32, &s23, in, neither, out);
  CHECK_MEM(out, in, sizeof in);

  /* u4 [1,2,3,4,5] (0x21 0x43 0x05) backwards [5,4,3,2,1]: 0x45 0x23 0x01,
     the unused nibble cleared. */
  const uint8_t u4_in[3] = {0x21, 0x43, 0x05};
  uint8_t u4_out[3] = {0xFF, 0xFF, 0xFF};
  const int64_t d5[] = {5};
  const bool yes[] = {true};
  mc_shape s5 = mc_shape_make(1, d5);
  mc_reverse(MC_U4, &s5, u4_in, yes, u4_out);
  const uint8_t u4_want[3] = {0x45, 0x23, 0x01};
  CHECK_MEM(u4_out, u4_want, 3);

  /* u1 [1,0,1,1,0,0,0,0,1] (0xB0 0x80) backwards [1,0,0,0,0,1,1,0,1]:
     1000 0110 1 -> 0x86 0x80. */
  const uint8_t u1_in[2] = {0xB0, 0x80};
  uint8_t u1_out[2] = {0xFF, 0xFF};
  const int64_t d9[] = {9};
  mc_shape s9 = mc_shape_make(1, d9);
  mc_reverse(MC_U1, &s9, u1_in, yes, u1_out);
  CHECK(u1_out[0] == 0x86 && u1_out[1] == 0x80);

  /* Empty (huge other dims) writes nothing; a scalar is copied. */
  const int64_t huge[] = {0, (int64_t)1 << 40, (int64_t)1 << 40};
  const bool three[] = {true, true, true};
  mc_shape empty = mc_shape_make(3, huge), scalar = mc_shape_make(0, NULL);
  uint8_t sentinel[1] = {0xAB}, one_in[1] = {7};
  mc_reverse(MC_U8, &empty, one_in, three, sentinel);
  CHECK(sentinel[0] == 0xAB);
  mc_reverse(MC_U8, &scalar, one_in, NULL, sentinel);
  CHECK(sentinel[0] == 7);
}

static void test_strided_crop(void) {
  /* i32 3x4 of 0..11, begin [0,1], step [2,2], out 2x2: rows 0 and 2,
     columns 1 and 3: [[1,3],[9,11]]. */
  uint8_t in[12 * 4], out[4 * 4];
  for (int i = 0; i < 12; i++) {
    put_i32(in, i, i);
  }
  const int64_t d34[] = {3, 4}, d22[] = {2, 2}, d11[] = {1, 1}, begin01[] = {0, 1};
  const int64_t begin23[] = {2, 3};
  const uint64_t step22[] = {2, 2}, huge_step[] = {UINT64_C(1) << 63, UINT64_C(1) << 63};
  mc_shape s34 = mc_shape_make(2, d34), s22 = mc_shape_make(2, d22), s11 = mc_shape_make(2, d11);
  mc_strided_crop(MC_I32, &s34, in, begin01, step22, &s22, out);
  CHECK(get_i32(out, 0) == 1 && get_i32(out, 1) == 3 && get_i32(out, 2) == 9 &&
        get_i32(out, 3) == 11);
  /* Step 2^63 (|INT64_MIN|) on one-element axes: only in[2][3] = 11. */
  mc_strided_crop(MC_I32, &s34, in, begin23, huge_step, &s11, out);
  CHECK_EQ_I64(get_i32(out, 0), 11);

  /* u4 [1..7] (0x21 0x43 0x65 0x07): from odd index 1 step 3, 2 elements
     [2,5] -> 0x52; from 2 step 2, 3 elements [3,5,7] -> 0x53 0x07. */
  const uint8_t u4_in[4] = {0x21, 0x43, 0x65, 0x07};
  uint8_t u4_out[2] = {0xFF, 0xFF};
  const int64_t d7[] = {7}, d2[] = {2}, d3[] = {3}, one[] = {1}, two[] = {2};
  const uint64_t three_step[] = {3}, two_step[] = {2};
  mc_shape s7 = mc_shape_make(1, d7), s2 = mc_shape_make(1, d2), s3 = mc_shape_make(1, d3);
  mc_strided_crop(MC_U4, &s7, u4_in, one, three_step, &s2, u4_out);
  CHECK(u4_out[0] == 0x52);
  mc_strided_crop(MC_U4, &s7, u4_in, two, two_step, &s3, u4_out);
  CHECK(u4_out[0] == 0x53 && u4_out[1] == 0x07);

  /* An empty output reads nothing, whatever begin says. */
  const int64_t d0[] = {0}, far[] = {99};
  mc_shape s0 = mc_shape_make(1, d0);
  uint8_t sentinel[1] = {0xAB};
  mc_strided_crop(MC_U4, &s7, u4_in, far, two_step, &s0, sentinel);
  CHECK(sentinel[0] == 0xAB);
}

int main(void) {
  test_shapes();
  test_perms();
  test_transpose_2x3();
  test_transpose_3d();
  test_transpose_identity_and_edges();
  test_transpose_packed();
  test_window_crop();
  test_window_pad();
  test_window_mixed();
  test_empty_with_huge_dimensions();
  test_broken_invariants_abort();
  test_reverse();
  test_strided_crop();
  test_reverse_and_strided_crop_abort();
  return check_report();
}
