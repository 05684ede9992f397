/* The data producer (fuzz/producer.c):
   - every seed of corpus/diff/ decodes to exactly the request of the
     conformance case it was made from (tools/make_corpus.py writes the
     layout, the producer reads it);
   - an empty input decodes to a valid request;
   - random inputs decode mostly to valid requests of every operation, reach
     every validity error and the hostile limits (MC-T1, MC-L1 to MC-L4), and
     the oracle and the optimized kernels agree on every one of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/check.h"
#include "cases/cases.h"
#include "cases/cases_internal.h" /* the loader's fills, to compare with */
#include "fuzz_common.h"
#include "movconf/optimized.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"
#include "cases/fuzz_bytes.h"

#ifndef MOVCONF_SOURCE_DIR
#define MOVCONF_SOURCE_DIR "."
#endif

static bool same_string(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool same_list(const mc_int_list *a, const mc_int_list *b) {
  if (a->count != b->count)
    return false;
  for (int i = 0; i < a->count && i < MC_MAX_ATTR_LEN; i++)
    if (a->v[i] != b->v[i])
      return false;
  return true;
}

static bool same_request(const mc_request *want, const mc_request *got) {
  if (want->op != got->op || want->n_inputs != got->n_inputs)
    return false;
  for (int i = 0; i < want->n_inputs; i++)
    if (!mc_tensor_same(want->inputs[i], got->inputs[i]))
      return false;
  const mc_attrs *a = &want->attrs, *b = &got->attrs;
  return a->has_block_size == b->has_block_size &&
         (!a->has_block_size || a->block_size == b->block_size) && same_string(a->mode, b->mode) &&
         same_string(a->auto_pad, b->auto_pad) && same_list(&a->sizes, &b->sizes) &&
         same_list(&a->strides, &b->strides) && same_list(&a->rates, &b->rates);
}

/* Each corpus/diff seed against its case. */
static void test_seeds_decode_to_their_cases(void) {
  const char *root = MOVCONF_SOURCE_DIR "/conformance";
  mc_path_list files = {0};
  char err[512];
  CHECK(mc_find_case_files(&root, 1, &files, err, sizeof err));
  int matched = 0, cases = 0, missing = 0;
  for (int f = 0; f < files.count; f++) {
    if (strstr(files.paths[f], "/regressions/") || strstr(files.paths[f], "/generated/"))
      continue; /* tools/make_corpus.py takes neither */
    mc_case_file file;
    CHECK(mc_case_file_load(files.paths[f], &file, err, sizeof err));
    for (int c = 0; c < file.n_cases; c++) {
      const mc_case *k = &file.cases[c];
      cases++;
      char path[1024];
      int n = snprintf(path, sizeof path, "%s/corpus/diff/", MOVCONF_SOURCE_DIR);
      for (const char *p = k->id; *p && n < (int)sizeof path - 1; p++)
        path[n++] = *p == '/' ? '_' : *p;
      path[n] = '\0';
      uint8_t *bytes;
      size_t size;
      if (!mc_fuzz_read_file(path, &bytes, &size)) {
        printf("seeds: none for case %s (tools/make_corpus.py leaves large ones out)\n", k->id);
        missing++;
        continue;
      }
      mc_fuzz_input in;
      bool decoded = mc_fuzz_decode(bytes, size, &in);
      CHECK(decoded);
      if (decoded) {
        mc_request want = mc_case_request(k);
        bool same = same_request(&want, &in.req);
        if (!same)
          fprintf(stderr, "seed %s does not decode to case %s\n", path, k->id);
        CHECK(same);
        CHECK(in.threads >= 1 && in.threads <= MC_FUZZ_MAX_THREADS);
        /* Under the seed's cap the oracle does what the case expects. */
        mc_tensor out;
        mc_error run_err;
        mc_status s = mc_oracle_run(&in.req, in.max_output_bytes, &out, &run_err);
        mc_tensor_free(&out);
        bool as_expected = k->expect_error ? s == k->expected_error : s == MC_OK;
        if (!as_expected)
          fprintf(stderr, "seed %s: the oracle says %s under the cap of %zu bytes\n", path,
                  mc_status_name(s), in.max_output_bytes);
        CHECK(as_expected);
        matched += same && as_expected;
        mc_fuzz_input_free(&in);
      }
      free(bytes);
    }
    mc_case_file_free(&file);
  }
  mc_path_list_free(&files);
  printf("seeds: %d of %d conformance cases decode to their requests\n", matched, cases);
  CHECK(cases >= 200);
  CHECK(missing <= 3);
  CHECK_EQ_I64(matched, cases - missing);
}

/* The producer's fills are the loader's, for every type. */
static void test_fills(void) {
  static const uint64_t params[] = {0, 7, 250, UINT64_C(0xFFFFFFFFFFFFFFFE), 42};
  for (int t = 0; t < MC_TYPE_COUNT; t++) {
    for (size_t p = 0; p < sizeof params / sizeof params[0]; p++) {
      for (int fill = 0; fill < 2; fill++) {
        int64_t shape[1] = {37};
        mc_tensor a, b;
        CHECK_EQ_I64(mc_tensor_alloc(&a, (mc_type)t, 1, shape, 1 << 20), MC_OK);
        CHECK_EQ_I64(mc_tensor_alloc(&b, (mc_type)t, 1, shape, 1 << 20), MC_OK);
        mc_fuzz_fill_data(&a, 37, fill ? MC_FUZZ_FILL_PRNG : MC_FUZZ_FILL_COUNTER, params[p]);
        if (fill)
          mc_fill_prng(&b, 37, params[p]);
        else
          mc_fill_counter(&b, 37, (int64_t)params[p]);
        CHECK_MEM(a.data, b.data, a.nbytes);
        mc_tensor_free(&a);
        mc_tensor_free(&b);
      }
    }
  }
  /* spec/case-format.md 7.4: u8 counter from 250 is FA FB FC FD FE FF 00 01;
     f32 prng from 42 starts with the pattern 0x2FEB6E95. */
  int64_t shape[1] = {8};
  mc_tensor u8;
  mc_tensor_alloc(&u8, MC_U8, 1, shape, 64);
  mc_fuzz_fill_data(&u8, 8, MC_FUZZ_FILL_COUNTER, 250);
  static const uint8_t want[8] = {0xFA, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF, 0x00, 0x01};
  CHECK_MEM(u8.data, want, 8);
  mc_tensor_free(&u8);
  mc_tensor f32;
  mc_tensor_alloc(&f32, MC_F32, 1, shape, 64);
  mc_fuzz_fill_data(&f32, 8, MC_FUZZ_FILL_PRNG, 42);
  CHECK_EQ_I64(mc_load_bits(f32.data, MC_F32, 0), 0x2FEB6E95);
  mc_tensor_free(&f32);
}

/* Nothing to read: every field takes its natural value, a valid request. */
static void test_empty_input(void) {
  mc_fuzz_input in;
  CHECK(mc_fuzz_decode(NULL, 0, &in));
  CHECK_EQ_I64(in.req.op, MC_OP_BATCH_TO_SPACE);
  CHECK_EQ_I64(in.req.n_inputs, 4);
  CHECK_EQ_I64(in.threads, 1);
  CHECK(in.data_fill == MC_FUZZ_FILL_COUNTER);
  mc_tensor out;
  mc_error err;
  CHECK_EQ_I64(mc_oracle_run(&in.req, in.max_output_bytes, &out, &err), MC_OK);
  mc_tensor_free(&out);
  mc_fuzz_input_free(&in);
}

/* Hand-written inputs that pin parts of the layout (fuzz/README.md). */
static void test_layout_examples(void) {
  /* SpaceToDepth, f32, 3 threads, natural cap, small, rank 4 (literal),
     mode depth_first (literal), block_size 2, dims 1 2 4 6 (literal), data
     as counter fill from 7. */
  static const uint8_t s2d[] = {2,    9,   0xC1, 0,   0,    0xFE, 4,    0xFE, 11,   'd',
                                'e',  'p', 't',  'h', '_',  'f',  'i',  'r',  's',  't',
                                0xFE, 2,   0xFE, 1,   0xFE, 2,    0xFE, 4,    0xFE, 6,
                                0xFA, 7,   0,    0,   0,    0,    0,    0,    0};
  mc_fuzz_input in;
  CHECK(mc_fuzz_decode(s2d, sizeof s2d, &in));
  CHECK_EQ_I64(in.req.op, MC_OP_SPACE_TO_DEPTH);
  CHECK_EQ_I64(in.tensors[0].type, MC_F32);
  CHECK_EQ_I64(in.threads, 3);
  CHECK_STR(in.req.attrs.mode, "depth_first");
  CHECK(in.req.attrs.has_block_size);
  CHECK_EQ_I64(in.req.attrs.block_size, 2);
  CHECK_EQ_I64(in.tensors[0].rank, 4);
  CHECK_EQ_I64(in.tensors[0].shape[3], 6);
  CHECK_EQ_I64(in.tensors[0].nbytes, 48 * 4);
  /* counter from 7: element 1 has the bits 8 */
  CHECK_EQ_I64(mc_load_bits(in.tensors[0].data, MC_F32, 1), 8);
  mc_fuzz_input_free(&in);

  /* SpaceToBatch with block_shape in u64 holding 2^63 through the hostile
     table (entry 17 is INT64_MIN, bits 0x8000000000000000): MC-L2. */
  static const uint8_t s2b[] = {1,    0,  0,    0, 0, 0xFE, 2, /* u8 data, rank 2 */
                                0xFE, 10, 0,                   /* block_shape: u64, [N] */
                                0,    0,  0,    0,             /* crops: natural */
                                0xFE, 1,  0xFD, 17};
  CHECK(mc_fuzz_decode(s2b, sizeof s2b, &in));
  CHECK_EQ_I64(in.tensors[1].type, MC_U64);
  CHECK_EQ_I64(mc_load_bits(in.tensors[1].data, MC_U64, 1), (int64_t)(UINT64_C(1) << 63));
  mc_tensor out;
  mc_error err;
  CHECK_EQ_I64(mc_oracle_run(&in.req, in.max_output_bytes, &out, &err), MC_E_VALUE_OUT_OF_RANGE);
  mc_fuzz_input_free(&in);

  /* A side input of 2^32 elements is refused, not allocated. */
  static const uint8_t huge[] = {0, 0, 0, 0, 0, 0xFE, 2, 0, 0xFE, 1, 0xFF, 0, 0, 0, 0, 1, 0, 0, 0};
  CHECK(!mc_fuzz_decode(huge, sizeof huge, &in));
}

/* A deterministic stream of pseudo-random bytes (splitmix64). */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static void test_random_inputs(void) {
  enum { INPUTS = 40000 };
  uint64_t state = 12345;
  uint8_t buf[160];
  int decoded = 0, small = 0, valid[MC_OP_COUNT] = {0}, seen[MC_OP_COUNT] = {0};
  int status_count[MC_STATUS_COUNT] = {0};
  int disagree = 0;
  for (int i = 0; i < INPUTS; i++) {
    size_t len = next_random(&state) % sizeof buf;
    for (size_t j = 0; j < len; j++)
      buf[j] = (uint8_t)next_random(&state);
    mc_fuzz_input in;
    if (!mc_fuzz_decode(buf, len, &in))
      continue;
    decoded++;
    int64_t elements = 0;
    mc_shape_elements(in.tensors[0].rank, in.tensors[0].shape, &elements);
    small += elements <= 4096;
    mc_tensor want, got;
    mc_error e1, e2;
    mc_status s = mc_oracle_run(&in.req, in.max_output_bytes, &want, &e1);
    mc_status t = mc_optimized_run(&in.req, in.max_output_bytes, in.threads, &got, &e2);
    if (s != t || (s == MC_OK && (want.nbytes != got.nbytes ||
                                  (want.nbytes && memcmp(want.data, got.data, want.nbytes))))) {
      if (disagree++ < 5)
        fprintf(stderr, "input %d: %s %s: oracle %s, optimized %s\n", i, mc_op_name(in.req.op),
                mc_type_name(in.tensors[0].type), mc_status_name(s), mc_status_name(t));
    }
    seen[in.req.op]++;
    valid[in.req.op] += s == MC_OK;
    status_count[s]++;
    mc_tensor_free(&want);
    mc_tensor_free(&got);
    mc_fuzz_input_free(&in);
  }
  printf("random: %d of %d decoded, %d with at most 4096 data elements\n", decoded, INPUTS, small);
  CHECK(decoded > INPUTS * 9 / 10);
  CHECK(small > decoded * 9 / 10);
  CHECK_EQ_I64(disagree, 0);
  for (int op = 0; op < MC_OP_COUNT; op++) {
    printf("random: %s valid %d of %d\n", mc_op_name((mc_op)op), valid[op], seen[op]);
    CHECK(valid[op] * 4 > seen[op]); /* more than a quarter valid */
  }
  /* Every error a case file can provoke (all but invalid_argument and
     out_of_memory), unsupported_type through the invalid type codes. */
  for (int s = 0; s < MC_STATUS_COUNT; s++) {
    if (s == MC_E_INVALID_ARGUMENT || s == MC_E_OUT_OF_MEMORY)
      continue;
    if (status_count[s] == 0)
      fprintf(stderr, "random: no input reached %s\n", mc_status_name((mc_status)s));
    CHECK(status_count[s] > 0);
  }
}

int main(void) {
  test_seeds_decode_to_their_cases();
  test_fills();
  test_empty_input();
  test_layout_examples();
  test_random_inputs();
  return check_report();
}
