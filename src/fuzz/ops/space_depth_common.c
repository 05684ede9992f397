/* What SpaceToDepth-1 and DepthToSpace-1 share in movconf fuzz: their
   large requests' block_size, mode and extents. */
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
