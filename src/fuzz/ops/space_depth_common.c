/* What SpaceToDepth-1 and DepthToSpace-1 share in movconf fuzz: their
   large requests' block_size, mode and extents, and a shrinking move. */
#include <string.h>

#include "fuzz/fuzz_ops.h"

bool mc_fuzz_large_depth(mc_rng *g, mc_owned_request *r, int64_t target, int64_t *bs,
                         int64_t nchw[4]) {
  static const char *const modes[] = {"blocks_first", "depth_first"};
  *bs = mc_fuzz_pick(g, MC_FUZZ_BLOCK);
  int64_t n = mc_fuzz_pick(g, MC_FUZZ_OUTER), c = mc_fuzz_pick(g, MC_FUZZ_CHANNELS),
          w = mc_fuzz_pick(g, MC_FUZZ_INNER);
  int64_t h = mc_fuzz_rows_for(target, n, c * *bs * *bs, w);
  mc_attrs_set_int(&r->req.attrs, MC_ATTR_BLOCK_SIZE, *bs);
  r->req.n_inputs = 1;
  nchw[0] = n, nchw[1] = c, nchw[2] = h, nchw[3] = w;
  r->strings[MC_ATTR_MODE] = strdup(modes[mc_rng_below(g, 2)]);
  return r->strings[MC_ATTR_MODE] != NULL;
}

/* Spatial axes k + 2 and k + 3 merged into one: one rank less, as many
   elements, still valid (a spatial extent divisible by the block stays
   so multiplied; DepthToSpace's channels divisible by bs^(rank - 2) stay
   so at a rank less). A failure above some element count then shrinks
   below rank 4, where dropping an axis would lose it (issue 39: one
   finding, not one per rank). */
static bool merge_spatial_axes(const mc_owned_request *cur, int k, mc_owned_request *cand) {
  const mc_tensor *d = &cur->tensors[0];
  const int a = k + 2;
  if (a + 1 >= d->rank || d->rank <= mc_fuzz_op_of(cur->req.op)->min_rank)
    return false;
  int64_t shape[MC_TENSOR_MAX_RANK];
  int rank = 0;
  for (int i = 0; i < d->rank; i++)
    if (i != a + 1)
      shape[rank++] = i == a ? d->shape[a] * d->shape[a + 1] : d->shape[i];
  return mc_fuzz_clone(cur, cand) && mc_fuzz_refill(cand, d->type, rank, shape);
}

const mc_fuzz_move mc_fuzz_depth_moves[] = {{merge_spatial_axes, MC_TENSOR_MAX_RANK}, {NULL, 0}};
