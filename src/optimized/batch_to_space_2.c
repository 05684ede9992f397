/* BatchToSpace-2: validation from the output formula (B2S-O1) and the
   kernel, without intermediates. Along the last axis, B_last rows of the
   batch side interleave into one row of the output, crops trimming the
   ends. Loops are driven by the output, read whole and once. */
#include "common/checked.h"
#include "common/error.h"
#include "optimized/batch_space_common.h"
#include "optimized/kernels.h"

/* ---- Validation: compiled once (kernels_avx2.c includes this file again,
   for the kernel alone) ---- */
#ifndef MC_KERNELS_AVX2

static const mc_batch_space_rules b2s_rules = {
    "B2S-V1", "B2S-V2", "B2S-V3", "B2S-V4",           "B2S-V5",
    "B2S-V6", "B2S-V7", "B2S-V8", MC_E_CROP_NEGATIVE, MC_E_CROP_FIRST_NOT_ZERO,
    "crop"};

/* crops_begin + crops_end <= extent, exactly: both are >= 0, so compare
   without forming a sum that might not fit (errata E19). */
static bool crops_fit(int64_t crop_begin, int64_t crop_end, int64_t extent) {
  return crop_begin <= extent && crop_end <= extent - crop_begin;
}

mc_status mc_opt_validate_batch_to_space_2(const mc_request *req, mc_opt_plan *plan,
                                           mc_error *err) {
  mc_status s = mc_opt_check_batch_space(req, plan, &b2s_rules, err);
  if (s != MC_OK)
    return s;
  int n = plan->rank;
  int64_t cells;
  if (!mc_product_i64(plan->block, n, &cells))
    return mc_opt_overflow(err, "the product of block_shape");
  int64_t batch = plan->in_shape[0];
  if (batch % cells != 0)
    return mc_fail(err, MC_E_BATCH_NOT_DIVISIBLE, "B2S-V9",
                   "batch %lld is not a multiple of the %lld block cells", (long long)batch,
                   (long long)cells);
  plan->out_shape[0] = batch / cells;
  for (int i = 1; i < n; i++) {
    int64_t extent;
    if (!mc_mul_i64(plan->in_shape[i], plan->block[i], &extent))
      return mc_opt_overflow(err, "D_i * block_shape[i]");
    if (!crops_fit(plan->begin[i], plan->end[i], extent))
      return mc_fail(err, MC_E_CROP_EXCEEDS, "B2S-V10",
                     "axis %d: crops %lld + %lld exceed the extent %lld", i,
                     (long long)plan->begin[i], (long long)plan->end[i], (long long)extent);
    plan->out_shape[i] = extent - plan->begin[i] - plan->end[i];
  }
  return MC_OK;
}

#endif /* MC_KERNELS_AVX2 */

/* ---- Kernel ---- */

/* Copies the elements x in [lo, hi) of the crop window [crop, crop + width)
   one at a time: element x of the uncropped row comes from source row x % B
   at x / B. Used for the partial groups at the ends of a row. */
static void b2s_partial(const mc_kernel_job *j, int64_t out0, const int64_t *src, int64_t block,
                        int64_t crop, int64_t lo, int64_t hi) {
  for (int64_t x = lo; x < hi; x++)
    mc_row_copy(&j->io, j->out, out0 + x - crop, 1, j->in, src[x % block] + x / block, 1, 1);
}

/* out[b, y_1..y_{N-1}]: x_i = y_i + CB_i splits into d_i = x_i / B_i (the
   input's spatial index) and o_i = x_i % B_i (the block offset, which selects
   the input batch ((o_1*B_2 + o_2)... + o_{N-1}) * batch' + b). Writes the
   output row at w into j->out from element out0 on. */
static void b2s_row(const mc_kernel_job *j, const mc_row_walk *w, int64_t out0) {
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1;
  const int64_t width = p->out_shape[last], block = p->block[last], crop = p->begin[last];
  int64_t blocks = 0, spatial = 0;
  for (int i = 1; i < last; i++) {
    int64_t x = w->idx[i] + p->begin[i];
    blocks = blocks * p->block[i] + x % p->block[i];
    spatial += x / p->block[i] * j->in_stride[i];
  }
  if (block > MC_MAX_WAYS) {
    for (int64_t o = 0; o < block; o++) {
      /* first y with (y + crop) % B == o */
      int64_t y0 = ((o - crop) % block + block) % block;
      int64_t batch = (blocks * block + o) * p->out_shape[0] + w->idx[0];
      mc_row_copy(&j->io, j->out, out0 + y0, block, j->in,
                  batch * j->in_stride[0] + spatial + (y0 + crop) / block, 1,
                  mc_count_below(y0, block, width));
    }
    return;
  }
  int64_t src[MC_MAX_WAYS];
  for (int64_t o = 0; o < block; o++) {
    const int64_t cell = blocks * block + o;
    int64_t in_batch = cell * p->out_shape[0] + w->idx[0];
    src[o] = in_batch * j->in_stride[0] + spatial;
  }
  /* Whole groups g (x = g*B + o for every o inside the window), then the ends. */
  int64_t g_lo = mc_ceil_div(crop, block);
  int64_t g_hi = (crop + width) / block;
  if (g_hi <= g_lo) {
    b2s_partial(j, out0, src, block, crop, crop, crop + width);
    return;
  }
  int64_t first[MC_MAX_WAYS];
  for (int64_t o = 0; o < block; o++)
    first[o] = src[o] + g_lo;
  mc_rows_interleave(&j->io, j->out, out0 + g_lo * block - crop, j->in, first, block, g_hi - g_lo);
  b2s_partial(j, out0, src, block, crop, crop, g_lo * block);
  b2s_partial(j, out0, src, block, crop, g_hi * block, crop + width);
}

/* Output rows made of whole lines stream by themselves (no stage needed),
   so their order is free: then the rows of each block of the axis before
   the last are taken by block offset, each reading B_last input rows at a
   time where output order reads B_{last-1} * B_last of them, 4 MiB apart
   in the bench's workload, which the memory system serves worse. */
static bool b2s_by_offset(const mc_kernel_job *j) {
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1;
  const int64_t row_bytes = p->out_shape[last] * (int64_t)j->io.esize;
  return last >= 2 && p->block[last - 1] > 1 && (!j->io.stream || row_bytes % MC_STREAM_LINE == 0);
}

/* Rows [begin, end), whole blocks of the axis before the last, by offset. */
static void b2s_rows_by_offset(const mc_kernel_job *j, int64_t begin, int64_t end) {
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1;
  const int64_t height = p->out_shape[last - 1], block = p->block[last - 1];
  const int64_t crop = p->begin[last - 1], width = p->out_shape[last];
  mc_row_walk w;
  for (int64_t first = begin; first < end; first += height) {
    mc_row_walk_start(&w, last, p->out_shape, first);
    for (int64_t o = 0; o < block; o++)
      for (int64_t y = ((o - crop) % block + block) % block; y < height; y += block) {
        w.idx[last - 1] = y;
        b2s_row(j, &w, (first + y) * width);
      }
  }
}

static void b2s_rows(void *ctx, int64_t begin, int64_t end) {
  const mc_kernel_job *j = ctx;
  const mc_opt_plan *p = j->plan;
  const int last = p->rank - 1;
  const int64_t width = p->out_shape[last];
  if (b2s_by_offset(j)) {
    b2s_rows_by_offset(j, begin, end);
    return;
  }
  mc_row_stage stage;
  mc_row_stage_init(&stage, j, width);
  mc_row_walk w;
  mc_row_walk_start(&w, last, p->out_shape, begin);
  for (int64_t row = begin; row < end; row++, mc_row_walk_next(&w)) {
    if (stage.active)
      b2s_row(&stage.job, &w, mc_row_stage_claim(&stage, j, row * width, width));
    else
      b2s_row(j, &w, row * width);
  }
  if (stage.active)
    mc_row_stage_flush(&stage, j);
}

void MC_KERNEL(mc_kernel_batch_to_space_2)(const mc_kernel_job *job) {
  const mc_opt_plan *p = job->plan;
  const int last = p->rank - 1;
  /* By offset, a range holds whole blocks of the axis before the last. */
  const int64_t align = b2s_by_offset(job) ? p->out_shape[last - 1] : 1;
  mc_parallel_for(job->threads, mc_kernel_rows(p->out_shape, last), align, b2s_rows, (void *)job);
}
