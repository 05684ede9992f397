/* Confirms, outside movconf, the oneDNN bug docs/conformance-matrix.md
   explains for the onednn plugin: a float16 reorder between two identical
   dense layouts changes bits, while the same bf16 reorder copies them.
   Direct calls of oneDNN's C API, no movconf code.

   Reorders every one of the 65,536 16-bit patterns as f16 and as bf16 and
   prints what changed. Exit status: 0 when exactly -0.0 and the 1,022
   float16 signaling NaNs change and no bf16 pattern does (the explanation
   holds), 1 otherwise (the explanation is stale: the library changed), 2
   when oneDNN fails. */
#include <inttypes.h>
#include <stdio.h>

#include <oneapi/dnnl/dnnl.h>

enum { COUNT = 65536 };

/* Reorders count 16-bit elements of type from a dense [count] tensor into
   another dense one; returns 0, or 2 when a call fails. */
static int reorder16(dnnl_engine_t engine, dnnl_stream_t stream, dnnl_data_type_t type,
                     const uint16_t *in, uint16_t *out, const char **impl) {
  dnnl_dims_t dims = {COUNT}, strides = {1};
  dnnl_memory_desc_t md;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_primitive_t reorder = NULL;
  dnnl_memory_t src = NULL, dst = NULL;
  int ok =
      dnnl_memory_desc_init_by_strides(&md, 1, dims, type, strides) == dnnl_success &&
      dnnl_reorder_primitive_desc_create(&pd, &md, engine, &md, engine, NULL) == dnnl_success &&
      dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, impl) == dnnl_success &&
      dnnl_primitive_create(&reorder, pd) == dnnl_success &&
      dnnl_memory_create(&src, &md, engine, (void *)in) == dnnl_success &&
      dnnl_memory_create(&dst, &md, engine, out) == dnnl_success;
  if (ok) {
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    ok = dnnl_primitive_execute(reorder, stream, 2, args) == dnnl_success &&
         dnnl_stream_wait(stream) == dnnl_success;
  }
  dnnl_memory_destroy(src);
  dnnl_memory_destroy(dst);
  dnnl_primitive_destroy(reorder);
  dnnl_primitive_desc_destroy(pd);
  return ok ? 0 : 2;
}

/* A float16 signaling NaN: exponent all ones, quiet bit clear, payload. */
static int f16_signaling_nan(uint16_t bits) {
  return (bits & 0x7C00) == 0x7C00 && !(bits & 0x0200) && (bits & 0x01FF);
}

/* Prints the patterns the reorder changed; returns how many. With expected
   set, also counts in *unexpected those expected() does not name. */
static long report(const char *name, const char *impl, const uint16_t *in, const uint16_t *out,
                   int (*expected)(uint16_t), long *unexpected) {
  long changed = 0, shown = 0;
  printf("%s reorder (implementation %s):", name, impl);
  for (long i = 0; i < COUNT; i++) {
    if (in[i] == out[i])
      continue;
    changed++;
    if (!expected || !expected(in[i]))
      ++*unexpected;
    if (shown++ < 4)
      printf(" 0x%04" PRIx16 "->0x%04" PRIx16, in[i], out[i]);
  }
  printf("%s %ld of %d patterns changed\n", shown > 4 ? " ..." : "", changed, COUNT);
  return changed;
}

static int negative_zero_or_signaling_nan(uint16_t bits) {
  return bits == 0x8000 || f16_signaling_nan(bits);
}

int main(void) {
  static uint16_t in[COUNT], f16_out[COUNT], bf16_out[COUNT];
  const char *f16_impl = "?", *bf16_impl = "?";
  for (long i = 0; i < COUNT; i++)
    in[i] = (uint16_t)i;
  dnnl_engine_t engine;
  dnnl_stream_t stream;
  if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success ||
      dnnl_stream_create(&stream, engine, dnnl_stream_default_flags) != dnnl_success ||
      reorder16(engine, stream, dnnl_f16, in, f16_out, &f16_impl) ||
      reorder16(engine, stream, dnnl_bf16, in, bf16_out, &bf16_impl)) {
    fprintf(stderr, "onednn_f16_reorder: a oneDNN call failed\n");
    return 2;
  }
  long unexpected = 0;
  long f16 = report("f16", f16_impl, in, f16_out, negative_zero_or_signaling_nan, &unexpected);
  long bf16 = report("bf16", bf16_impl, in, bf16_out, NULL, &unexpected);
  if (f16 == 1 + 1022 && bf16 == 0 && unexpected == 0) {
    printf("as documented: f16 loses the sign of -0.0 and quiets every signaling NaN\n");
    return 0;
  }
  printf("not as documented: update docs/conformance-explanations.json (onednn)\n");
  return 1;
}
