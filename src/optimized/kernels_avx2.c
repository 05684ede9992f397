/* The kernels once more, compiled for AVX2 (and what comes with it: SSSE3's
   byte shuffles, 256-bit registers), so that the compiler's vectorized
   weaves move twice the bytes per instruction and byte-sized ones get
   shuffles at all. run_kernel (optimized.c) calls them when the CPU has
   AVX2, unless MOVCONF_SIMD=sse2 asks for the baseline. Same sources (the
   kernel part of each operation's file): every fix, and every mutant, is in
   both. The target applies before the include, so that the row
   primitives of rows.h are compiled for it too. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

#define MC_KERNELS_AVX2 1
/* One operation's file: CMakeLists.txt compiles this file once per row of
   movconf/op_list.h (generated/movconf_optimized/avx2/<slug>_avx2.c), so a
   new operation's kernel gets its AVX2 build from its row alone. */
#include MC_AVX2_OP_SOURCE

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else
/* Not x86-64: the baseline kernels are the only ones. */
typedef int mc_kernels_avx2_unused;
#endif
