/* The movconf fuzz engine's random numbers (fuzz_random.h). */
#include "fuzz/fuzz_random.h"

#include "cases/payload.h"

uint64_t mc_rng_next(mc_rng *g) {
  return mc_splitmix64(g->seed, g->index++);
}

uint64_t mc_rng_below(mc_rng *g, uint64_t n) {
  return n ? mc_rng_next(g) % n : 0;
}
