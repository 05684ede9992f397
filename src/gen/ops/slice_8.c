/* movconf gen: Slice-8's parameters and builder. Placeholder of the
   registration commit: the generator helper replaces it. */
#include "gen/gen_build.h"

const mc_gen_op_desc mc_gen_slice_8 = {0};
