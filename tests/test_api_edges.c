/* The edges of the oracle's and the optimized kernels' API that no case file
   can reach: a missing output tensor, an input whose byte size overflows,
   a caller's output buffer that does not fit (mc_optimized_run_into), the
   MOVCONF_THREADS and MOVCONF_PARALLEL_MIN_BYTES variables, empty and
   unaligned pool ranges, and allocation failures — out of memory is made
   real in a child process with a small address-space limit (RLIMIT_AS),
   which sanitizer runtimes do not survive, so those checks are skipped
   under ASan/TSan/MSan. */
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "movconf/optimized.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"
#include "optimized/pool.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#ifndef UNDER_SANITIZER
#define UNDER_SANITIZER 0
#endif

#define CAP MC_DEFAULT_MAX_OUTPUT_BYTES
#define MIB ((size_t)1 << 20)

static mc_tensor make(mc_type type, int rank, const int64_t *shape) {
  mc_tensor t;
  CHECK_EQ_I64(mc_tensor_alloc(&t, type, rank, shape, SIZE_MAX), MC_OK);
  return t;
}

static mc_tensor side(int n, const int64_t *values) {
  int64_t shape[1] = {n};
  mc_tensor t = make(MC_I64, 1, shape);
  memcpy(t.data, values, (size_t)n * sizeof *values);
  return t;
}

/* A SpaceToDepth request (the op can be switched to DepthToSpace). */
static mc_request depth_request(const mc_tensor *data, int64_t block_size) {
  mc_request req = {.op = MC_OP_SPACE_TO_DEPTH, .n_inputs = 1, .inputs = {data}};
  req.attrs = mc_attrs_none();
  mc_attrs_set_int(&req.attrs, MC_ATTR_BLOCK_SIZE, block_size);
  mc_attrs_set_string(&req.attrs, MC_ATTR_MODE, "blocks_first");
  return req;
}

typedef struct b2s_like {
  mc_tensor block, begin, end;
  mc_request req;
} b2s_like;

/* A rank-2 BatchToSpace or SpaceToBatch request: block [1, 1], no crops or
   pads at the start, end_last crops or pads at the end of axis 1. */
static void make_rank2(b2s_like *r, mc_op op, const mc_tensor *data, int64_t end_last) {
  r->block = side(2, (const int64_t[]){1, 1});
  r->begin = side(2, (const int64_t[]){0, 0});
  r->end = side(2, (const int64_t[]){0, end_last});
  r->req = (mc_request){.op = op, .n_inputs = 4, .inputs = {data, &r->block, &r->begin, &r->end}};
  r->req.attrs = mc_attrs_none();
}

static void free_rank2(b2s_like *r) {
  mc_tensor_free(&r->block);
  mc_tensor_free(&r->begin);
  mc_tensor_free(&r->end);
}

static void test_missing_output(void) {
  int64_t shape[4] = {1, 1, 2, 2};
  mc_tensor data = make(MC_F32, 4, shape);
  mc_request req = depth_request(&data, 2);
  mc_error err;
  CHECK_EQ_I64(mc_oracle_run(&req, CAP, NULL, &err), MC_E_INVALID_ARGUMENT);
  CHECK_STR(err.message, "no output tensor given");
  CHECK_EQ_I64(mc_optimized_run(&req, CAP, 1, NULL, &err), MC_E_INVALID_ARGUMENT);
  CHECK_STR(err.message, "no output tensor given");
  mc_tensor_free(&data);
}

/* 2^62 f64 elements: the count fits int64, the bytes do not fit size_t. */
static void test_byte_size_overflow(void) {
  mc_tensor data = {.type = MC_F64, .rank = 4, .shape = {1, 1, (int64_t)1 << 31, (int64_t)1 << 31}};
  mc_request req = depth_request(&data, 1);
  mc_tensor out;
  mc_error err;
  CHECK_EQ_I64(mc_oracle_run(&req, CAP, &out, &err), MC_E_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "does not match its type and shape") != NULL);
  CHECK_EQ_I64(mc_optimized_run(&req, CAP, 1, &out, &err), MC_E_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "its type and shape need another size") != NULL);
}

/* mc_optimized_run_into writes only into an output of exactly the
   operation's type, shape and size. SpaceToDepth of [1,1,2,2] f32 with
   block 2 is [1,4,1,1]: element k of the output is data element k. */
static void test_run_into_fit(void) {
  int64_t shape[4] = {1, 1, 2, 2};
  mc_tensor data = make(MC_F32, 4, shape);
  const float values[4] = {1.5f, -2.0f, 3.25f, 4.0f};
  memcpy(data.data, values, sizeof values);
  mc_request req = depth_request(&data, 2);
  float buffer[4] = {0};
  mc_tensor good = {.type = MC_F32,
                    .rank = 4,
                    .shape = {1, 4, 1, 1},
                    .data = (uint8_t *)buffer,
                    .nbytes = sizeof buffer};
  mc_error err;
  CHECK_EQ_I64(mc_optimized_run_into(&req, 1, &good, &err), MC_OK);
  CHECK_MEM(buffer, values, sizeof values);

  CHECK_EQ_I64(mc_optimized_run_into(&req, 1, NULL, &err), MC_E_INVALID_ARGUMENT);
  mc_tensor bad = good;
  bad.type = MC_I32;
  CHECK_EQ_I64(mc_optimized_run_into(&req, 1, &bad, &err), MC_E_INVALID_ARGUMENT);
  bad = good;
  bad.rank = 3;
  CHECK_EQ_I64(mc_optimized_run_into(&req, 1, &bad, &err), MC_E_INVALID_ARGUMENT);
  bad = good;
  bad.nbytes = 8;
  CHECK_EQ_I64(mc_optimized_run_into(&req, 1, &bad, &err), MC_E_INVALID_ARGUMENT);
  bad = good;
  bad.data = NULL;
  CHECK_EQ_I64(mc_optimized_run_into(&req, 1, &bad, &err), MC_E_INVALID_ARGUMENT);
  bad = good;
  bad.shape[1] = 1;
  bad.shape[3] = 4; /* [1,1,1,4]: same size, another shape */
  CHECK_EQ_I64(mc_optimized_run_into(&req, 1, &bad, &err), MC_E_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "does not match") != NULL);
  /* An invalid request is rejected before the output is looked at. */
  mc_attrs_set_int(&req.attrs, MC_ATTR_BLOCK_SIZE, 3);
  CHECK_EQ_I64(mc_optimized_run_into(&req, 1, &good, &err), MC_E_SPATIAL_NOT_DIVISIBLE);
  mc_tensor_free(&data);

  /* An empty output needs no buffer: [0,1,2,2] gives [0,4,1,1]. */
  int64_t empty_shape[4] = {0, 1, 2, 2};
  mc_tensor empty = make(MC_F32, 4, empty_shape);
  req = depth_request(&empty, 2);
  mc_tensor none = {.type = MC_F32, .rank = 4, .shape = {0, 4, 1, 1}};
  CHECK_EQ_I64(mc_optimized_run_into(&req, 2, &none, &err), MC_OK);
  mc_tensor_free(&empty);
}

static int online_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n >= 1 && n <= 1024 ? (int)n : 1;
}

/* MOVCONF_THREADS: a number from 1 to 1024, anything else means the
   online CPUs. */
static void test_default_threads(void) {
  unsetenv("MOVCONF_THREADS");
  CHECK_EQ_I64(mc_default_threads(), online_cpus());
  setenv("MOVCONF_THREADS", "3", 1);
  CHECK_EQ_I64(mc_default_threads(), 3);
  setenv("MOVCONF_THREADS", "1024", 1);
  CHECK_EQ_I64(mc_default_threads(), 1024);
  const char *ignored[] = {"", "0", "-2", "1025", "3x", "x"};
  for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++) {
    setenv("MOVCONF_THREADS", ignored[i], 1);
    CHECK_EQ_I64(mc_default_threads(), online_cpus());
  }
  unsetenv("MOVCONF_THREADS");
}

/* A MOVCONF_PARALLEL_MIN_BYTES that is not a number is ignored: the result
   is the same bytes either way (DepthToSpace [1,8,2,2] block 2 on 3
   threads, against the oracle). */
static void test_parallel_min_bytes_ignored(void) {
  int64_t shape[4] = {1, 8, 2, 2};
  mc_tensor data = make(MC_U8, 4, shape);
  for (size_t i = 0; i < data.nbytes; i++)
    data.data[i] = (uint8_t)(i * 7 + 1);
  mc_request req = depth_request(&data, 2);
  req.op = MC_OP_DEPTH_TO_SPACE;
  mc_tensor expected, got;
  mc_error err;
  CHECK_EQ_I64(mc_oracle_run(&req, CAP, &expected, &err), MC_OK);
  const char *values[] = {"", "12kB", "0"};
  for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
    setenv("MOVCONF_PARALLEL_MIN_BYTES", values[i], 1);
    CHECK_EQ_I64(mc_optimized_run(&req, CAP, 3, &got, &err), MC_OK);
    CHECK(got.nbytes == expected.nbytes && memcmp(got.data, expected.data, got.nbytes) == 0);
    mc_tensor_free(&got);
  }
  unsetenv("MOVCONF_PARALLEL_MIN_BYTES");
  mc_tensor_free(&expected);
  mc_tensor_free(&data);
}

/* Ranges are disjoint, so each part marks its own elements. */
static void mark_range(void *ctx, int64_t begin, int64_t end) {
  int *marks = ctx;
  for (int64_t i = begin; i < end; i++)
    marks[i]++;
}

static bool each_marked_once(const int *marks, int n) {
  for (int i = 0; i < n; i++)
    if (marks[i] != 1)
      return false;
  return true;
}

static void test_pool_ranges(void) {
  int marks[100] = {0};
  mc_parallel_for(4, 0, 1, mark_range, marks); /* nothing to do */
  mc_parallel_for(4, -5, 1, mark_range, marks);
  CHECK(each_marked_once(marks, 0) && marks[0] == 0);
  mc_parallel_for(3, 100, 0, mark_range, marks); /* align 0 counts as 1 */
  CHECK(each_marked_once(marks, 100));
  int few[10] = {0};
  mc_parallel_for(1 << 20, 10, 1, mark_range, few); /* more threads than the pool has */
  CHECK(each_marked_once(few, 10));
  int alone[10] = {0};
  mc_parallel_for(0, 10, 1, mark_range, alone); /* no thread count: the caller's thread */
  CHECK(each_marked_once(alone, 10));
}

/* ---- out of memory, for real, in a child process ---- */

static size_t address_space_in_use(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (f) {
    if (fscanf(f, "%lu", &pages) != 1)
      pages = 0;
    fclose(f);
  }
  return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* Runs check() in a child whose address space may grow by `extra` bytes
   only; true when it returned true. The limit is lifted again before the
   child exits, so that it can write its coverage counters. */
static bool with_address_limit(size_t extra, bool (*check)(void *), void *ctx) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    struct rlimit old;
    getrlimit(RLIMIT_AS, &old);
    struct rlimit tight = old;
    tight.rlim_cur = address_space_in_use() + extra;
    bool ok = setrlimit(RLIMIT_AS, &tight) == 0 && check(ctx);
    setrlimit(RLIMIT_AS, &old);
    fflush(NULL);
    exit(ok ? 0 : 1);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

static bool fails_for_memory(mc_status s, const mc_error *err, const char *what) {
  bool ok = s == MC_E_OUT_OF_MEMORY && strstr(err->message, what) != NULL;
  if (!ok)
    fprintf(stderr, "  expected out_of_memory (%s), got %s: %s\n", what, mc_status_name(s),
            err->message);
  return ok;
}

/* A pool that cannot start threads (no room for their stacks) runs the
   whole range on the calling thread. Must run before this process first
   starts pool workers: the child would inherit a pool whose threads it
   does not have. */
static bool pool_without_threads(void *ctx) {
  (void)ctx;
  static int marks[1000];
  mc_parallel_for(4, 1000, 1, mark_range, marks);
  return each_marked_once(marks, 1000);
}

/* SpaceToBatch [1,1] u8 padded to [1, 1 GiB]: the output cannot be allocated. */
static bool output_allocation_fails(void *ctx) {
  const mc_request *req = ctx;
  mc_tensor out;
  mc_error err;
  bool oracle = fails_for_memory(mc_oracle_run(req, SIZE_MAX, &out, &err), &err,
                                 "cannot allocate the output");
  bool optimized = fails_for_memory(mc_optimized_run(req, SIZE_MAX, 1, &out, &err), &err,
                                    "cannot allocate the output");
  return oracle && optimized;
}

/* The oracle's intermediate is the output's size again: room for one. */
static bool oracle_intermediate_fails(void *ctx) {
  const mc_request *req = ctx;
  mc_tensor out;
  mc_error err;
  mc_status s = mc_oracle_run(req, SIZE_MAX, &out, &err);
  return fails_for_memory(s, &err,
                          req->op == MC_OP_SPACE_TO_BATCH
                              ? "cannot allocate the padded intermediate"
                          : req->op == MC_OP_SLICE ? "cannot allocate the reversed intermediate"
                          : req->op == MC_OP_PAD   ? "cannot allocate a padded intermediate"
                                                   : "cannot allocate the transposed intermediate");
}

static void test_out_of_memory(void) {
  if (UNDER_SANITIZER) {
    printf("out-of-memory checks skipped under a sanitizer\n");
    return;
  }
  CHECK(with_address_limit(MIB, pool_without_threads, NULL));

  int64_t one[2] = {1, 1};
  mc_tensor tiny = make(MC_U8, 2, one);
  b2s_like huge;
  make_rank2(&huge, MC_OP_SPACE_TO_BATCH, &tiny, ((int64_t)1 << 30) - 1);
  CHECK(with_address_limit(64 * MIB, output_allocation_fails, &huge.req));
  free_rank2(&huge);

  b2s_like padded;
  make_rank2(&padded, MC_OP_SPACE_TO_BATCH, &tiny, (int64_t)(32 * MIB) - 1);
  CHECK(with_address_limit(48 * MIB, oracle_intermediate_fails, &padded.req));
  free_rank2(&padded);
  mc_tensor_free(&tiny);

  /* BatchToSpace [1, 32 MiB] u8, block [1, 1]: output and transposed copy
     are 32 MiB each (the data is never written, so it costs no memory). */
  int64_t wide[2] = {1, (int64_t)(32 * MIB)};
  mc_tensor data = make(MC_U8, 2, wide);
  b2s_like b2s;
  make_rank2(&b2s, MC_OP_BATCH_TO_SPACE, &data, 0);
  CHECK(with_address_limit(48 * MIB, oracle_intermediate_fails, &b2s.req));
  free_rank2(&b2s);
  mc_tensor_free(&data);

  /* Slice-8 of a 32 MiB u8 vector backwards (start -1, stop INT64_MIN,
     step -1): the output and the reversed copy are 32 MiB each. */
  int64_t length = (int64_t)(32 * MIB);
  data = make(MC_U8, 1, &length);
  mc_tensor start = side(1, (const int64_t[]){-1}), stop = side(1, (const int64_t[]){INT64_MIN}),
            step = side(1, (const int64_t[]){-1});
  mc_request slice = {.op = MC_OP_SLICE, .n_inputs = 4, .inputs = {&data, &start, &stop, &step}};
  slice.attrs = mc_attrs_none();
  CHECK(with_address_limit(48 * MIB, oracle_intermediate_fails, &slice));
  mc_tensor_free(&start);
  mc_tensor_free(&stop);
  mc_tensor_free(&step);

  /* Pad-12 of the same vector by one element, constant: the output and
     the padded copy are 32 MiB each. */
  mc_tensor one_pad = side(1, (const int64_t[]){1}), no_pad = side(1, (const int64_t[]){0});
  mc_request pad = {.op = MC_OP_PAD, .n_inputs = 3, .inputs = {&data, &one_pad, &no_pad}};
  pad.attrs = mc_attrs_none();
  mc_attrs_set_string(&pad.attrs, MC_ATTR_PAD_MODE, "constant");
  CHECK(with_address_limit(48 * MIB, oracle_intermediate_fails, &pad));
  mc_tensor_free(&one_pad);
  mc_tensor_free(&no_pad);
  mc_tensor_free(&data);
}

/* The bench's yardstick copies: every byte arrives, with ordinary and with
   streaming stores, on one thread and split over several, whatever the
   length's alignment (an empty copy included). */
static void test_optimized_copy(void) {
  static const size_t lengths[] = {0, 1, 63, 4096, 4097, 300001};
  static const int threads[] = {1, 2, 3};
  for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++) {
    size_t n = lengths[l];
    uint8_t *src = malloc(n + 1), *dst = malloc(n + 1);
    CHECK(src && dst);
    for (size_t i = 0; i < n; i++)
      src[i] = (uint8_t)(i * 131 + 7);
    for (int m = 0; m < 2; m++)
      for (size_t k = 0; k < sizeof threads / sizeof *threads; k++) {
        memset(dst, 0xA5, n + 1);
        mc_optimized_copy(dst, src, n, threads[k], m ? MC_COPY_STREAMING : MC_COPY_MEMCPY);
        CHECK(memcmp(dst, src, n) == 0);
        CHECK(dst[n] == 0xA5); /* nothing past the end */
      }
    free(src);
    free(dst);
  }
}

int main(void) {
  test_out_of_memory(); /* first: before any pool worker exists */
  test_missing_output();
  test_byte_size_overflow();
  test_run_into_fit();
  test_default_threads();
  test_parallel_min_bytes_ignored();
  test_pool_ranges();
  test_optimized_copy();
  return check_report();
}
