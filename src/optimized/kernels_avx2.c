/* The kernels once more, compiled for AVX2 (and what comes with it: SSSE3's
   byte shuffles, 256-bit registers), so that the compiler's vectorized
   weaves move twice the bytes per instruction and byte-sized ones get
   shuffles at all. run_kernel (optimized.c) calls them when the CPU has
   AVX2, unless MOVCONF_SIMD=sse2 asks for the baseline. Same sources (the
   kernel part of each operation's file): every fix, and every mutant, is in
   both. The target applies before the first
   include, so that the row primitives of rows.h are compiled for it too. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

#define MC_KERNELS_AVX2 1
#include "batch_to_space_2.c"
#include "depth_to_space_1.c"
#include "extract_image_patches_3.c"
#include "space_to_batch_2.c"
#include "space_to_depth_1.c"
#include "shuffle_channels_1.c"
#include "slice_8.c"

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else
/* Not x86-64: the baseline kernels are the only ones. */
typedef int mc_kernels_avx2_unused;
#endif
