/* movconf fuzz: Slice-8's large requests and shrinking moves. Placeholder
   of the registration commit: the fuzz helper replaces it. */
#include "fuzz/engine/fuzz_ops.h"

const mc_fuzz_op_desc mc_fuzz_slice_8 = {0};
