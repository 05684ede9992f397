/* Public entry of the optimized kernels: validate (validate.c), then run the
   operation's kernel over the thread pool. */
#include "movconf/optimized.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "optimized/kernels.h"

extern char **environ;

/* The tuning variables a kernel call reads. They are read at every call,
   so that tests may change them between calls, and in one pass over the
   environment: a getenv each scanned it up to four times, some 840 of the
   7,800 instructions of a [1,8,8,8] call. */
typedef struct tuning_env {
  const char *threads;      /* MOVCONF_THREADS */
  const char *parallel_min; /* MOVCONF_PARALLEL_MIN_BYTES */
  const char *stream_min;   /* MOVCONF_STREAM_MIN_BYTES */
  const char *simd;         /* MOVCONF_SIMD */
} tuning_env;

/* value of entry ("NAME=value") into *slot when NAME is name and *slot is
   still empty (getenv's first match). */
static void take_entry(const char *entry, const char *name, const char **slot) {
  size_t n = strlen(name);
  if (!*slot && strncmp(entry, name, n) == 0 && entry[n] == '=')
    *slot = entry + n + 1;
}

static tuning_env read_tuning_env(void) {
  tuning_env e = {0};
  for (char **p = environ; p && *p; p++) {
    const char *entry = *p;
    if (entry[0] != 'M' || strncmp(entry, "MOVCONF_", 8) != 0) /* most entries: one compare */
      continue;
    take_entry(entry, "MOVCONF_THREADS", &e.threads);
    take_entry(entry, "MOVCONF_PARALLEL_MIN_BYTES", &e.parallel_min);
    take_entry(entry, "MOVCONF_STREAM_MIN_BYTES", &e.stream_min);
    take_entry(entry, "MOVCONF_SIMD", &e.simd);
  }
  return e;
}

/* MOVCONF_THREADS's value when it is a count from 1 to 1024, else the
   online CPUs. */
static int threads_from(const char *env) {
  if (env && *env) {
    char *end;
    long n = strtol(env, &end, 10);
    if (*end == '\0' && n > 0 && n <= 1024)
      return (int)n;
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  return cpus > 0 && cpus <= 1024 ? (int)cpus : 1;
}

int mc_default_threads(void) {
  return threads_from(getenv("MOVCONF_THREADS"));
}

int64_t mc_kernel_rows(const int64_t *dims, int n) {
  int64_t rows = 1;
  for (int i = 0; i < n; i++)
    rows *= dims[i];
  return rows;
}

void mc_row_stage_init(mc_row_stage *stage, const mc_kernel_job *job, int64_t elements) {
  /* io.stream implies whole-byte elements (mc_rowio_make). */
  stage->active = job->io.stream && elements <= MC_ROW_STAGE_BYTES / (int64_t)job->io.esize;
  if (!stage->active)
    return;
  stage->job = *job;
  stage->job.io.stream = false;
  stage->job.out = stage->bytes;
  stage->capacity = MC_ROW_STAGE_BYTES / (int64_t)job->io.esize;
  stage->filled = 0;
  stage->to = 0;
}

static void row_major_strides(const int64_t *shape, int rank, int64_t *stride) {
  int64_t running = 1;
  for (int a = rank - 1; a >= 0; a--) {
    stride[a] = running;
    running *= shape[a] ? shape[a] : 1;
  }
}

/* A byte count from an environment variable's value, or `otherwise` when
   unset or not a plain decimal number. */
static size_t env_bytes(const char *env, size_t otherwise) {
  if (env && *env >= '0' && *env <= '9') {
    char *end;
    unsigned long long v = strtoull(env, &end, 10);
    if (*end == '\0')
      return (size_t)v; /* strtoull saturates; size_t is 64 bits here */
  }
  return otherwise;
}

/* Below this many output bytes waking the pool costs more than the copy.
   MOVCONF_PARALLEL_MIN_BYTES overrides it, so that tests can split even tiny
   requests over threads. */
static size_t parallel_min_bytes(const tuning_env *e) {
  return env_bytes(e->parallel_min, (size_t)1 << 18);
}

/* From this many bytes on (streamed_bytes), the output is written with
   streaming stores (stream.h): it would not stay in the caches anyway. The
   default is the size of a large L3; MOVCONF_STREAM_MIN_BYTES overrides it,
   so that tests can take the streaming paths on small requests. */
static size_t stream_min_bytes(const tuning_env *e) {
  return env_bytes(e->stream_min, (size_t)32 << 20);
}

/* The bytes weighed against the streaming threshold: the output's, and as
   many again read when the operation's plan says its reads count
   (Slice-8's, src/optimized/slice_8.c). Most kernels count their output
   only: ShuffleChannels' 1-byte weaves, for one, stream through the stage
   and lose to ordinary stores below the threshold. */
static size_t streamed_bytes(const mc_opt_plan *plan, size_t out_bytes) {
  if (plan->stream_counts_reads)
    return out_bytes > SIZE_MAX / 2 ? SIZE_MAX : 2 * out_bytes;
  return out_bytes;
}

/* Whether the kernel writes with streaming stores: never where its plan
   says it cannot (ExtractImagePatches' column strides but 1). */
static bool streams(const mc_opt_plan *plan, size_t out_bytes, const tuning_env *e) {
  return !plan->never_streams && streamed_bytes(plan, out_bytes) >= stream_min_bytes(e);
}

/* AVX2 kernels (kernels_avx2.c) when the CPU has AVX2, unless
   MOVCONF_SIMD=sse2 asks for the baseline ones: tests run both. */
static bool use_avx2(const char *simd_env) {
#if MC_HAVE_AVX2_KERNELS
  return !(simd_env && strcmp(simd_env, "sse2") == 0) && __builtin_cpu_supports("avx2");
#else
  (void)simd_env;
  return false;
#endif
}

const char *mc_optimized_simd(void) {
  return use_avx2(getenv("MOVCONF_SIMD")) ? "avx2" : MC_HAVE_AVX2_KERNELS ? "sse2" : "baseline";
}

typedef void (*kernel_fn)(const mc_kernel_job *);

/* A row per operation of movconf/op_list.h in each table: mc_kernel_<slug>
   and mc_kernel_<slug>_avx2 (kernels.h); a missing one fails the link. */
static const kernel_fn baseline_kernels[] = {
#define MC_OP(NAME, slug) [MC_OP_##NAME] = mc_kernel_##slug,
#include "movconf/op_list.h"
#undef MC_OP
};
_Static_assert(sizeof baseline_kernels / sizeof baseline_kernels[0] == MC_OP_COUNT,
               "baseline_kernels: a row per operation");

#if MC_HAVE_AVX2_KERNELS
static const kernel_fn avx2_kernels[] = {
#define MC_OP(NAME, slug) [MC_OP_##NAME] = mc_kernel_##slug##_avx2,
#include "movconf/op_list.h"
#undef MC_OP
};
_Static_assert(sizeof avx2_kernels / sizeof avx2_kernels[0] == MC_OP_COUNT,
               "avx2_kernels: a row per operation");
#endif

const char *mc_opt_missing_kernel(mc_op op) {
#if MC_HAVE_AVX2_KERNELS
  const bool avx2_missing = !avx2_kernels[op];
#else
  const bool avx2_missing = false;
#endif
  return avx2_missing ? "avx2 kernel" : baseline_kernels[op] ? NULL : "baseline kernel";
}

static kernel_fn kernel_of(mc_op op, const tuning_env *e) {
#if MC_HAVE_AVX2_KERNELS
  if (use_avx2(e->simd))
    return avx2_kernels[op];
#else
  (void)e;
#endif
  return baseline_kernels[op];
}

/* Packed types share bytes between neighbouring elements, so their rows
   cannot be split over threads; the unused tail bits end up zero. Small
   requests run on the calling thread. */
static void run_kernel(const mc_opt_plan *plan, const uint8_t *in, int threads, mc_tensor *out) {
  if (plan->out_elements == 0)
    return;
  const tuning_env env = read_tuning_env();
  mc_kernel_job job = {.plan = plan,
                       .io = mc_rowio_make(plan->type, streams(plan, out->nbytes, &env)),
                       .in = in,
                       .out = out->data};
  job.threads = threads > 0 ? threads : threads_from(env.threads);
  if (job.io.esize == 0 || out->nbytes < parallel_min_bytes(&env))
    job.threads = 1;
  row_major_strides(plan->in_shape, plan->rank, job.in_stride);
  row_major_strides(plan->out_shape, plan->out_rank, job.out_stride);
  kernel_of(plan->op, &env)(&job);
  mc_stream_fence();
  /* Phantom elements after the last one in its byte: all bits zero. */
  int64_t capacity = (int64_t)(out->nbytes * 8 / mc_type_bits(plan->type));
  for (int64_t i = plan->out_elements; i < capacity; i++)
    mc_store_bits(out->data, plan->type, i, 0);
}

int mc_opt_output_rank(const mc_opt_plan *plan) {
  return plan->view ? plan->view_rank : plan->out_rank;
}

const int64_t *mc_opt_output_shape(const mc_opt_plan *plan) {
  return plan->view ? plan->view_shape : plan->out_shape;
}

mc_status mc_optimized_output_shape(const mc_request *req, size_t max_output_bytes, mc_type *type,
                                    int *rank, int64_t *shape, mc_error *err) {
  mc_opt_plan plan;
  mc_status s = mc_opt_validate(req, max_output_bytes, &plan, err);
  if (s != MC_OK)
    return s;
  *type = plan.type;
  *rank = mc_opt_output_rank(&plan);
  memcpy(shape, mc_opt_output_shape(&plan), (size_t)*rank * sizeof *shape);
  return MC_OK;
}

mc_status mc_optimized_run(const mc_request *req, size_t max_output_bytes, int threads,
                           mc_tensor *out, mc_error *err) {
  mc_error_clear(err);
  if (!out)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL, "no output tensor given");
  memset(out, 0, sizeof *out);
  mc_opt_plan plan;
  mc_status s = mc_opt_validate(req, max_output_bytes, &plan, err);
  if (s != MC_OK)
    return s;
  s = mc_tensor_alloc(out, plan.type, mc_opt_output_rank(&plan), mc_opt_output_shape(&plan),
                      max_output_bytes);
  if (s != MC_OK)
    return mc_fail(err, s, NULL, "cannot allocate the output (%zu bytes)", plan.out_bytes);
  run_kernel(&plan, req->inputs[0]->data, threads, out);
  return MC_OK;
}

mc_status mc_optimized_run_into(const mc_request *req, int threads, mc_tensor *out, mc_error *err) {
  mc_error_clear(err);
  mc_opt_plan plan;
  mc_status s = mc_opt_validate(req, SIZE_MAX, &plan, err);
  if (s != MC_OK)
    return s;
  bool fits = out && out->type == plan.type && out->rank == mc_opt_output_rank(&plan) &&
              out->nbytes == plan.out_bytes && (out->data || plan.out_bytes == 0);
  for (int a = 0; fits && a < mc_opt_output_rank(&plan); a++)
    fits = out->shape[a] == mc_opt_output_shape(&plan)[a];
  if (!fits)
    return mc_fail(err, MC_E_INVALID_ARGUMENT, NULL,
                   "the output tensor's type, shape or size does not match the operation's");
  run_kernel(&plan, req->inputs[0]->data, threads, out);
  return MC_OK;
}
