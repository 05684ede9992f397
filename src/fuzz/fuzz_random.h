/* The movconf fuzz engine's random numbers: a reproducible stream
   (splitmix64 of a seed), from which a campaign draws its fuzz bytes and
   its large requests (fuzz_random.c). */
#ifndef MOVCONF_FUZZ_FUZZ_RANDOM_H
#define MOVCONF_FUZZ_FUZZ_RANDOM_H

#include <stdint.h>

/* A reproducible stream of random numbers (splitmix64 of a seed). */
typedef struct mc_rng {
  uint64_t seed, index;
} mc_rng;

uint64_t mc_rng_next(mc_rng *g);
/* Uniform in [0, n); 0 when n is 0. */
uint64_t mc_rng_below(mc_rng *g, uint64_t n);

#endif
