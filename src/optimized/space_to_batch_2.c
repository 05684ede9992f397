/* SpaceToBatch-2: validation from the output formula (S2B-O1) and the
   kernel, without intermediates. Along the last axis, one input row
   unweaves into B_last rows of the batch side, pads becoming zeros. Loops
   are driven by the input, read whole and once. */
#include "common/checked.h"
#include "common/error.h"
#include "optimized/batch_space_common.h"
#include "optimized/kernels.h"

/* ---- Validation: compiled once (kernels_avx2.c includes this file again,
   for the kernel alone) ---- */
#ifndef MC_KERNELS_AVX2

static const mc_batch_space_rules s2b_rules = {
    "S2B-V1", "S2B-V2", "S2B-V3", "S2B-V4",          "S2B-V5",
    "S2B-V6", "S2B-V7", "S2B-V8", MC_E_PAD_NEGATIVE, MC_E_PAD_FIRST_NOT_ZERO,
    "pad"};

mc_status mc_opt_validate_space_to_batch_2(const mc_request *req, mc_opt_plan *plan,
                                           mc_error *err) {
  mc_status s = mc_opt_check_batch_space(req, plan, &s2b_rules, err);
  if (s != MC_OK)
    return s;
  int n = plan->rank;
  for (int i = 1; i < n; i++) {
    int64_t padded;
    if (!mc_add_i64(plan->in_shape[i], plan->begin[i], &padded) ||
        !mc_add_i64(padded, plan->end[i], &padded))
      return mc_opt_overflow(err, "D_i + pads_begin[i] + pads_end[i]");
    if (padded % plan->block[i] != 0)
      return mc_fail(err, MC_E_PADDED_NOT_DIVISIBLE, "S2B-V9",
                     "axis %d: padded length %lld is not a multiple of block %lld", i,
                     (long long)padded, (long long)plan->block[i]);
    plan->out_shape[i] = padded / plan->block[i];
  }
  /* Left to right from the batch, so a batch of 0 stays 0 (S2B-V9). */
  int64_t out_batch = plan->in_shape[0];
  for (int i = 1; i < n; i++)
    if (!mc_mul_i64(out_batch, plan->block[i], &out_batch))
      return mc_opt_overflow(err, "the output batch");
  plan->out_shape[0] = out_batch;
  return MC_OK;
}

#endif /* MC_KERNELS_AVX2 */

/* ---- Kernel ---- */

/* SpaceToBatch, first pass: output rows whose outer axes fall into the
   padding of some axis 1..N-2 have no input row; they are all zeros. Rows
   are taken a run at a time, a run being the rows along axis N-2 under one
   outer index: its block offsets and the outer axes are decoded once, and
   the rows before and after its inside span, contiguous in the output, are
   zeroed in one go each. */
static void s2b_zero_rows(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *j = ctx;
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1, inner = last - 1; /* inner >= 1 (s2b_has_zero_rows) */
  const int64_t width = p->out_shape[last], batch = p->in_shape[0];
  for (int64_t row = begin; row < end;) {
    mc_row_walk w;
    mc_row_walk_start(&w, last, p->out_shape, row);
    int64_t o[MC_MAX_RANK], offsets = w.idx[0] / batch / p->block[last];
    for (int i = last - 1; i >= 1; i--) {
      o[i] = offsets % p->block[i];
      offsets /= p->block[i];
    }
    bool inside = true;
    for (int i = 1; i < inner && inside; i++) {
      int64_t x = w.idx[i] * p->block[i] + o[i] - p->begin[i];
      inside = x >= 0 && x < p->in_shape[i];
    }
    const int64_t y = w.idx[inner], rows = p->out_shape[inner] - y;
    const int64_t run = rows < end - row ? rows : end - row;
    int64_t lo = y + run, hi = y + run; /* the inside span: none when outside */
    if (inside)
      mc_strided_inside(o[inner] - p->begin[inner], p->block[inner], p->in_shape[inner],
                        p->out_shape[inner], &lo, &hi);
    lo = lo < y ? y : lo > y + run ? y + run : lo;
    hi = hi < lo ? lo : hi > y + run ? y + run : hi;
    mc_row_zero(&j->io, j->out, row * width, 1, (lo - y) * width);
    mc_row_zero(&j->io, j->out, (row + hi - y) * width, 1, (y + run - hi) * width);
    row += run;
  }
}

/* Output row o of an input row: elements y with x = y*B + o - PB; those
   inside [0, D) outside the whole groups [f_lo, f_hi) are copied here, the
   rest of the row is zero padding. */
static void s2b_row_ends(const mc_kernel_job *j, int64_t dst, int64_t src, int64_t o, int64_t f_lo,
                         int64_t f_hi) {
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1;
  const int64_t width = p->out_shape[last], block = p->block[last];
  const int64_t pad = p->begin[last];
  const int64_t shift = o - pad, in_width = p->in_shape[last];
  int64_t lo, hi;
  mc_strided_inside(shift, block, in_width, width, &lo, &hi);
  mc_row_zero(&j->io, j->out, dst, 1, lo);
  if (f_lo >= f_hi) {
    mc_row_copy(&j->io, j->out, dst + lo, 1, j->in, src + lo * block + shift, block, hi - lo);
  } else {
    mc_row_copy(&j->io, j->out, dst + lo, 1, j->in, src + lo * block + shift, block, f_lo - lo);
    mc_row_copy(&j->io, j->out, dst + f_hi, 1, j->in, src + f_hi * block + shift, block, hi - f_hi);
  }
  mc_row_zero(&j->io, j->out, dst + hi, 1, width - hi);
}

/* The B_last output rows of the input row starting at element src, the
   rows starting at out0[o]: padding, partial groups at the ends, and the
   whole groups [f_lo, f_hi) unwoven in one pass. block <= MC_MAX_WAYS. */
static void s2b_split_row(const mc_kernel_job *j, const int64_t *out0, int64_t src, int64_t f_lo,
                          int64_t f_hi) {
  const mc_opt_plan *p = j->plan;
  const int64_t block = p->block[p->rank - 1], pad = p->begin[p->rank - 1];
  int64_t dst[MC_MAX_WAYS];
  for (int64_t o = 0; o < block; o++) {
    s2b_row_ends(j, out0[o], src, o, f_lo, f_hi);
    dst[o] = out0[o] + f_lo;
  }
  if (f_hi > f_lo)
    mc_rows_deinterleave(&j->io, j->out, dst, j->in, src + f_lo * block - pad, block, f_hi - f_lo);
}

/* With the stage: the input row is laid out with its pads in the stage, so
   that one unweave of whole groups makes the B_last rows, ends included. */
static void s2b_split_padded_row(const mc_row_stage *stage, const mc_kernel_job *j,
                                 const int64_t *staged0, int64_t src) {
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1;
  const int64_t block = p->block[last], width = p->out_shape[last], esize = (int64_t)j->io.esize;
  const int64_t pad = p->begin[last], in_width = p->in_shape[last];
  if (in_width == block * width) { /* no pads on this axis: unweave the input itself */
    mc_rows_deinterleave(&stage->job.io, stage->job.out, staged0, j->in, src, block, width);
    return;
  }
  uint8_t *padded = (uint8_t *)stage->bytes + block * width * esize;
  memset(padded, 0, (size_t)(pad * esize));
  memcpy(padded + pad * esize, j->in + src * esize, (size_t)(in_width * esize));
  int64_t pad_end = block * width - pad - in_width;
  memset(padded + (pad + in_width) * esize, 0, (size_t)(pad_end * esize));
  mc_rows_deinterleave(&stage->job.io, stage->job.out, staged0, padded, 0, block, width);
}

#ifdef MC_KERNELS_AVX2
/* in[x0 .. x0+32) of a 4-byte row of in_width elements into step, the
   elements outside the row as zeros (the pads). */
static void s2b_padded_step(uint8_t *step, const uint8_t *in, int64_t x0, int64_t in_width) {
  const int64_t lo = x0 > 0 ? x0 : 0, hi = x0 + 32 < in_width ? x0 + 32 : in_width;
  memset(step, 0, 128);
  if (hi > lo)
    memcpy(step + (lo - x0) * 4, in + lo * 4, (size_t)(hi - lo) * 4);
}

/* The 8-group step g of s2b_split_row4_avx2, way o's 8 elements in v[o]:
   unwoven from the input row in itself, or from a padded copy of its 32
   elements when it reaches into the pads. */
static inline void s2b_step4_avx2(const uint8_t *in, int64_t g, int64_t pad, int64_t in_width,
                                  __m256i *v) {
  const int64_t x0 = 4 * g - pad; /* the step's first input element */
  if (x0 >= 0 && x0 + 32 <= in_width) {
    mc_avx2_unweave4_32_step(in + x0 * 4, v);
    return;
  }
  _Alignas(32) uint8_t padded[128];
  s2b_padded_step(padded, in, x0, in_width);
  mc_avx2_unweave4_32_step(padded, v);
}

/* Block 4 of 4-byte elements: the 4 output rows of an input row are made 8
   groups at a time in registers (weave_avx2.h) and stored straight into the
   rows, streamed when the output streams: no stage, no padded copy of the
   row. Two steps make a 64-byte line of each row, stored one row after the
   other, so that each streamed line is written whole at once (four rows'
   half lines open at a time ran slower than the stage). Needs rows of whole
   steps (width % 8 == 0, checked by the caller) and, to stream, rows on
   32-byte boundaries: false otherwise. */
static bool s2b_split_row4_avx2(const mc_kernel_job *j, const int64_t *out0, int64_t src) {
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1;
  const int64_t width = p->out_shape[last], pad = p->begin[last], in_width = p->in_shape[last];
  uint8_t *row[4];
  for (int o = 0; o < 4; o++) {
    row[o] = j->out + out0[o] * 4;
    if (j->io.stream && ((uintptr_t)row[o] & 31) != 0)
      return false;
  }
  const uint8_t *in = j->in + src * 4;
  __m256i v[4], w[4];
  int64_t g = 0;
  for (; g + 16 <= width; g += 16) {
    s2b_step4_avx2(in, g, pad, in_width, v);
    s2b_step4_avx2(in, g + 8, pad, in_width, w);
    for (int o = 0; o < 4; o++) {
      mc_avx2_put_32(row[o] + g * 4, v[o], j->io.stream);
      mc_avx2_put_32(row[o] + g * 4 + 32, w[o], j->io.stream);
    }
  }
  if (g < width) { /* a last half line */
    s2b_step4_avx2(in, g, pad, in_width, v);
    for (int o = 0; o < 4; o++)
      mc_avx2_put_32(row[o] + g * 4, v[o], j->io.stream);
  }
  return true;
}
#endif

/* SpaceToBatch, second pass: input row (b, x_1..x_{N-2}) goes to the B_last
   output rows (((o_1..o_{N-2}, o) in mixed radix) * batch + b, y_1..y_{N-2})
   where x_i + PB_i = y_i*B_i + o_i. */
static void s2b_input_rows(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *j = ctx;
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1;
  const int64_t block = p->block[last], pad = p->begin[last], in_width = p->in_shape[last];
  const int64_t width = p->out_shape[last], esize = (int64_t)j->io.esize;
  /* Groups g whose B elements x = g*B + o - PB all lie inside the row. */
  const int64_t f_lo = mc_ceil_div(pad, block), f_hi = (in_width + pad) / block;
  const bool woven = block <= MC_MAX_WAYS;
#ifdef MC_KERNELS_AVX2
  const bool by_steps = block == 4 && j->io.esize == 4 && width % 8 == 0;
#endif
  mc_row_stage stage;
  /* Staged: the B_last output rows, then the input row padded to width*B. */
  mc_row_stage_init(&stage, j, woven ? 2 * block * width : INT64_MAX);
  int64_t out0[MC_MAX_WAYS], staged0[MC_MAX_WAYS];
  for (int64_t o = 0; stage.active && o < block; o++)
    staged0[o] = o * width;
  mc_row_walk w;
  mc_row_walk_start(&w, last, p->in_shape, begin);
  for (int64_t row = begin; row < end; row++, mc_row_walk_next(&w)) {
    int64_t offsets = 0, spatial = 0;
    for (int i = 1; i < last; i++) {
      int64_t x = w.idx[i] + p->begin[i];
      offsets = offsets * p->block[i] + x % p->block[i];
      spatial += x / p->block[i] * j->out_stride[i];
    }
    const int64_t src = row * in_width;
    for (int64_t o = 0; o < block; o++) {
      const int64_t cell = offsets * block + o, batch = w.idx[0];
      int64_t out_batch = cell * p->in_shape[0] + batch;
      int64_t at = out_batch * j->out_stride[0] + spatial;
      if (woven)
        out0[o] = at;
      else
        s2b_row_ends(j, at, src, o, f_lo, f_lo); /* every element by strided copies */
    }
#ifdef MC_KERNELS_AVX2
    if (by_steps && s2b_split_row4_avx2(j, out0, src))
      continue;
#endif
    if (stage.active) { /* the B_last rows are far apart: one run each */
      s2b_split_padded_row(&stage, j, staged0, src);
      for (int64_t o = 0; o < block; o++)
        mc_stream_copy(j->out + out0[o] * esize, stage.bytes + staged0[o] * esize,
                       (size_t)(width * esize));
    } else if (woven) {
      s2b_split_row(j, out0, src, f_lo, f_hi);
    }
  }
}

/* Whole zero rows exist only when an axis between batch and last is padded. */
static bool s2b_has_zero_rows(const mc_opt_plan *p) {
  for (int i = 1; i < p->rank - 1; i++)
    if (p->begin[i] != 0 || p->end[i] != 0)
      return true;
  return false;
}

void MC_KERNEL(mc_kernel_space_to_batch_2)(const mc_kernel_job *job) {
  const mc_opt_plan *p = job->plan;
  if (s2b_has_zero_rows(p))
    mc_parallel_for(job->threads, mc_kernel_rows(p->out_shape, p->rank - 1), 1, s2b_zero_rows,
                    (void *)job);
  mc_parallel_for(job->threads, mc_kernel_rows(p->in_shape, p->rank - 1), 1, s2b_input_rows,
                  (void *)job);
}
