/* Fuzz bytes (src/cases/bytes/fuzz_bytes.c), the producer and its encoder:
   - every seed of corpus/diff/ decodes to exactly the request of the
     conformance case it was made from (fuzz_corpus writes them);
   - every conformance case, regressions and generated ones included,
     encodes to bytes that decode to exactly its request, thread count, cap
     and fill, and so does every request the decoder makes from random bytes;
   - the encoder refuses, with a reason, what the layout cannot express;
   - an empty input decodes to a valid request;
   - random inputs decode mostly to valid requests of every operation, reach
     every validity error and the hostile limits (MC-T1, MC-L1 to MC-L4), and
     the oracle and the optimized kernels agree on every one of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/bytes/case_seeds.h"
#include "cases/bytes/fuzz_bytes.h"
#include "cases/bytes/fuzz_bytes_ops.h" /* mc_bytes_side_value */
#include "cases/cases.h"
#include "cases/cases_internal.h" /* the loader's fills, to compare with */
#include "check.h"                /* tests/check.h */
#include "fuzz_common.h"
#include "movconf/optimized.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

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

static bool same_attr(const mc_attrs *a, const mc_attrs *b, mc_attr id) {
  if (mc_attrs_present(a, id) != mc_attrs_present(b, id))
    return false;
  if (!mc_attrs_present(a, id))
    return true;
  switch (mc_attr_kind_of(id)) {
  case MC_ATTR_KIND_INT:
    return mc_attrs_int(a, id) == mc_attrs_int(b, id);
  case MC_ATTR_KIND_STRING:
    return same_string(mc_attrs_string(a, id), mc_attrs_string(b, id));
  case MC_ATTR_KIND_INT_LIST:
    return same_list(mc_attrs_list(a, id), mc_attrs_list(b, id));
  }
  return false;
}

static bool same_request(const mc_request *want, const mc_request *got) {
  if (want->op != got->op || want->n_inputs != got->n_inputs)
    return false;
  for (int i = 0; i < want->n_inputs; i++)
    if (!mc_tensor_same(want->inputs[i], got->inputs[i]))
      return false;
  for (int a = 0; a < MC_ATTR_COUNT; a++)
    if (!same_attr(&want->attrs, &got->attrs, (mc_attr)a))
      return false;
  return true;
}

/* The request and everything around it: threads, cap, class, and the fill
   (its parameter but for raw bytes; none for data of no type). */
static bool same_input(const mc_fuzz_input *want, const mc_fuzz_input *got) {
  bool typed = mc_type_get(want->req.inputs[0]->type) != NULL;
  bool fill =
      !typed ||
      (got->data_fill == want->data_fill &&
       (want->data_fill == MC_FUZZ_FILL_BYTES || got->data_fill_param == want->data_fill_param));
  return same_request(&want->req, &got->req) && want->threads == got->threads &&
         want->max_output_bytes == got->max_output_bytes && want->large == got->large && fill;
}

/* Encodes in and decodes the bytes again: true when that gives the same
   input; else why says what happened (the encoder's refusal included). */
static bool encode_round_trip(const mc_fuzz_input *in, char *why, size_t whylen) {
  mc_fuzz_bytes bytes;
  if (!mc_fuzz_encode(in, &bytes, why, whylen))
    return false;
  mc_fuzz_input back;
  bool decoded = mc_fuzz_decode(bytes.data, bytes.size, &back);
  bool same = decoded && same_input(in, &back);
  if (!same)
    snprintf(why, whylen, "%s", decoded ? "decodes to another input" : "does not decode");
  if (decoded)
    mc_fuzz_input_free(&back);
  mc_fuzz_bytes_free(&bytes);
  return same;
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
      continue; /* fuzz_corpus takes neither */
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
        printf("seeds: none for case %s (fuzz_corpus leaves large ones out)\n", k->id);
        missing++;
        continue;
      }
      mc_fuzz_input in;
      bool decoded = mc_fuzz_decode(bytes, size, &in);
      CHECK(decoded);
      if (decoded) {
        mc_request want = mc_request_of_case(k);
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
  CHECK(missing <= 4); /* eip, pad, sc xml examples; Gather-8's IR example (1344 indices) */
  CHECK_EQ_I64(matched, cases - missing);
}

/* Every conformance case (regressions and generated ones too) through the
   encoder and back. Only cases too large for the layout are refused. */
static void test_cases_encode(void) {
  const char *root = MOVCONF_SOURCE_DIR "/conformance";
  mc_path_list files = {0};
  char err[512];
  CHECK(mc_find_case_files(&root, 1, &files, err, sizeof err));
  int cases = 0, same = 0, refused = 0;
  for (int f = 0; f < files.count; f++) {
    mc_case_file file;
    CHECK(mc_case_file_load(files.paths[f], &file, err, sizeof err));
    for (int c = 0; c < file.n_cases; c++, cases++) {
      mc_fuzz_input in;
      mc_fuzz_input_of_case(&file.cases[c], &in);
      char why[256];
      if (encode_round_trip(&in, why, sizeof why)) {
        same++;
      } else if (strstr(why, "more than")) {
        refused++;
      } else {
        fprintf(stderr, "case %s: %s\n", file.cases[c].id, why);
        CHECK(false);
      }
    }
    mc_case_file_free(&file);
  }
  mc_path_list_free(&files);
  printf("encode: %d of %d cases round-trip, %d too large for the layout\n", same, cases, refused);
  CHECK(cases > 2000);
  CHECK(refused * 100 < cases);
  CHECK_EQ_I64(same + refused, cases);
}

/* What the layout cannot express is refused with a reason. */
static void check_refused(const mc_fuzz_input *in, const char *reason) {
  mc_fuzz_bytes bytes;
  char why[256];
  bool encoded = mc_fuzz_encode(in, &bytes, why, sizeof why);
  if (encoded || !strstr(why, reason))
    fprintf(stderr, "encode: expected a refusal with '%s', got '%s'\n", reason,
            encoded ? "bytes" : why);
  CHECK(!encoded && strstr(why, reason));
  CHECK(bytes.data == NULL && bytes.size == 0);
  if (encoded)
    mc_fuzz_bytes_free(&bytes);
}

static void test_encoder_refuses(void) {
  static const uint8_t s2d[] = {2,    9,   0xC1, 0,   0,    0xFE, 4,    0xFE, 11,   'd',
                                'e',  'p', 't',  'h', '_',  'f',  'i',  'r',  's',  't',
                                0xFE, 2,   0xFE, 1,   0xFE, 2,    0xFE, 4,    0xFE, 6,
                                0xFA, 7,   0,    0,   0,    0,    0,    0,    0};
  mc_fuzz_input in;
  CHECK(mc_fuzz_decode(s2d, sizeof s2d, &in));
  char why[256];
  CHECK(encode_round_trip(&in, why, sizeof why));
  mc_fuzz_input bad = in;
  bad.threads = MC_FUZZ_MAX_THREADS + 1;
  check_refused(&bad, "threads");
  bad = in;
  bad.max_output_bytes = 12345;
  check_refused(&bad, "output cap");
  bad = in;
  mc_attrs_set_string(&bad.req.attrs, MC_ATTR_MODE,
                      "depth_first_and_then_some_more_words_to_pass_sixty_four_bytes_xxxxx");
  check_refused(&bad, "mode");
  mc_attrs_set_string(&bad.req.attrs, MC_ATTR_MODE, "\xC3(");
  check_refused(&bad, "UTF-8");
  bad = in;
  mc_attrs_set_string(&bad.req.attrs, MC_ATTR_AUTO_PAD, "valid");
  check_refused(&bad, "no attribute auto_pad");
  bad = in;
  bad.data_fill = MC_FUZZ_FILL_PRNG;
  check_refused(&bad, "fill");
  bad = in;
  bad.req.n_inputs = 2;
  check_refused(&bad, "inputs");
  mc_tensor data = in.tensors[0];
  data.type = (mc_type)40;
  bad = in;
  bad.req.inputs[0] = &data;
  check_refused(&bad, "type code 40");
  data = in.tensors[0];
  data.shape[0] = 100000; /* 100000 * 2 * 4 * 6 elements: beyond the small class */
  bad.req.inputs[0] = &data;
  check_refused(&bad, "more than 16384 elements");
  mc_fuzz_input_free(&in);

  /* Lists: 65 values are more than the layout's count field keeps. */
  static const uint8_t eip[] = {4, 9, 0, 0, 0};
  CHECK(mc_fuzz_decode(eip, sizeof eip, &in));
  CHECK(encode_round_trip(&in, why, sizeof why));
  bad = in;
  mc_attrs_list_slot(&bad.req.attrs, MC_ATTR_SIZES)->count = MC_FUZZ_MAX_LIST + 1;
  check_refused(&bad, "sizes has 65 values");
  mc_fuzz_input_free(&in);

  /* A side input of 65 elements; u4 raw data with the unused nibble set. */
  static const uint8_t b2s[] = {0, 16, 0, 0, 0, 0xFE, 3, 0, 0, 0, 0, 0, 0};
  CHECK(mc_fuzz_decode(b2s, sizeof b2s, &in));
  CHECK(encode_round_trip(&in, why, sizeof why));
  mc_tensor side = in.tensors[2];
  side.shape[0] = 65;
  bad = in;
  bad.req.inputs[2] = &side;
  check_refused(&bad, "crops_begin has more than 64 elements");
  data = in.tensors[0];
  int64_t count = mc_tensor_elements(&data);
  CHECK(count % 2 == 1); /* so that the last byte has an unused nibble */
  if (count % 2 == 1) {
    data.data[data.nbytes - 1] |= 0xF0;
    bad = in;
    bad.data_fill = MC_FUZZ_FILL_BYTES;
    bad.req.inputs[0] = &data;
    check_refused(&bad, "unused bits");
  }
  mc_fuzz_input_free(&in);
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
  CHECK_STR(mc_attrs_string(&in.req.attrs, MC_ATTR_MODE), "depth_first");
  CHECK(mc_attrs_present(&in.req.attrs, MC_ATTR_BLOCK_SIZE));
  CHECK_EQ_I64(mc_attrs_int(&in.req.attrs, MC_ATTR_BLOCK_SIZE), 2);
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

/* Slice-8's layout (fuzz/README.md): edges picked by selector, repeated
   axes, axes absent; dimensions no tensor has do not crash the decoder. */
static void test_slice_layout(void) {
  enum { STEP0 = 28 }; /* index of step[0]'s selector below */
  uint8_t bytes[] = {MC_OP_SLICE,
                     MC_U8,
                     0,
                     0,
                     0,
                     0xFE,
                     2, /* u8 data, rank 2 */
                     0xFE,
                     2,
                     0x40, /* 2 entries, axes present */
                     0,
                     0,
                     0,
                     0,
                     0,
                     0,
                     0,
                     0, /* four i64 [2] side inputs */
                     2,
                     0xE6, /* axes: i - r = -2, then the same */
                     0xFE,
                     5,
                     0xFE,
                     3, /* dims 5 x 3 */
                     0xE7,
                     0xE9, /* start: INT64_MAX, i64's minimum */
                     0x85,
                     0, /* stop: edge 5 (d + 1), natural 0 */
                     0xE0,
                     0x83, /* step: edge 0, edge 3 (d) */
                     0};
  CHECK_EQ_I64(bytes[STEP0 - 1], 0);
  mc_fuzz_input in;
  CHECK(mc_fuzz_decode(bytes, sizeof bytes, &in));
  CHECK_EQ_I64(in.req.op, MC_OP_SLICE);
  CHECK_EQ_I64(in.req.n_inputs, 5);
  int64_t v = 0;
  CHECK(mc_side_value(&in.tensors[4], 0, &v) && v == -2);
  CHECK(mc_side_value(&in.tensors[4], 1, &v) && v == -2);
  CHECK(mc_side_value(&in.tensors[1], 0, &v) && v == INT64_MAX);
  CHECK(mc_side_value(&in.tensors[1], 1, &v) && v == INT64_MIN);
  CHECK(mc_side_value(&in.tensors[2], 0, &v) && v == 6); /* axis 0: d = 5 */
  CHECK(mc_side_value(&in.tensors[3], 0, &v) && v == 0);
  char why[256];
  CHECK(encode_round_trip(&in, why, sizeof why));
  mc_tensor out;
  mc_error err;
  CHECK_EQ_I64(mc_oracle_run(&in.req, in.max_output_bytes, &out, &err), MC_E_STEP_ZERO);
  mc_fuzz_input_free(&in);
  bytes[STEP0] = 1; /* natural step 1: the repeated axis is what is wrong */
  CHECK(mc_fuzz_decode(bytes, sizeof bytes, &in));
  CHECK_EQ_I64(mc_oracle_run(&in.req, in.max_output_bytes, &out, &err), MC_E_AXES_NOT_UNIQUE);
  mc_fuzz_input_free(&in);

  /* Axes absent; a dimension of -1 named by a natural bound: refused with
     the data (it once divided by d + 1 = 0). Then [0, INT64_MAX]: an empty
     tensor, whose bounds near d must not overflow. */
  uint8_t absent[] = {MC_OP_SLICE, MC_U8, 0,    0,    0,    0xFE, 1,    0xFE, 1,
                      0,           0,     0,    0,    0,    0,    0,    0xFF, 0xFF,
                      0xFF,        0xFF,  0xFF, 0xFF, 0xFF, 0xFF, 0xFF, /* dim -1 */
                      0x31,        0x71,  0x01, 0};
  CHECK(!mc_fuzz_decode(absent, sizeof absent, &in));
  static const uint8_t empty[] = {
      MC_OP_SLICE, MC_U8, 0,    0,    0,    0xFE, 2,    0xFE, 2,    0,
      0,           0,     0,    0,    0,    0,    0xFE, 0,    0xEE, /* dims 0, INT64_MAX */
      0x31,        0x71,  0x45, 0x85, 0x01, 0x81, 0x83, 0x85, 0};
  CHECK(mc_fuzz_decode(empty, sizeof empty, &in));
  CHECK_EQ_I64(in.req.n_inputs, 4);
  CHECK_EQ_I64(in.tensors[0].shape[1], INT64_MAX);
  CHECK_EQ_I64(mc_oracle_run(&in.req, in.max_output_bytes, &out, &err), MC_OK);
  mc_tensor_free(&out);
  mc_fuzz_input_free(&in);
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
  int disagree = 0, not_encoded = 0;
  for (int i = 0; i < INPUTS; i++) {
    size_t len = next_random(&state) % sizeof buf;
    for (size_t j = 0; j < len; j++)
      buf[j] = (uint8_t)next_random(&state);
    mc_fuzz_input in;
    if (!mc_fuzz_decode(buf, len, &in))
      continue;
    decoded++;
    /* Whatever the decoder makes, the encoder writes back. */
    char why[256];
    if (!encode_round_trip(&in, why, sizeof why) && not_encoded++ < 5)
      fprintf(stderr, "input %d: %s %s: %s\n", i, mc_op_name(in.req.op),
              mc_type_name(in.tensors[0].type), why);
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
  CHECK_EQ_I64(not_encoded, 0);
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

/* The layout reads side values of every integer type and boolean, as the
   operations will (a natural dimension follows a block of any type). */
static void test_side_values_of_any_type(void) {
  static const struct {
    mc_type type;
    uint8_t byte;
    int64_t value;
  } reads[] = {{MC_BOOLEAN, 0, 0}, {MC_BOOLEAN, 7, 1}, {MC_U4, 0x0B, 11}, {MC_I4, 0x0B, -5},
               {MC_U1, 0x80, 1},   {MC_I8, 0xFE, -2},  {MC_U8, 0xFE, 254}};
  const int64_t one[1] = {1};
  for (size_t i = 0; i < sizeof reads / sizeof *reads; i++) {
    mc_tensor t;
    CHECK(mc_tensor_alloc(&t, reads[i].type, 1, one, 64) == MC_OK);
    t.data[0] = reads[i].byte;
    int64_t v = 42;
    CHECK(mc_bytes_side_value(&t, 0, &v) && v == reads[i].value);
    if (v != reads[i].value)
      fprintf(stderr, "  side value of %s 0x%02x: %lld\n", mc_type_name(reads[i].type),
              reads[i].byte, (long long)v);
    int64_t positive = 42;
    CHECK_EQ_I64(mc_bytes_known_positive(&t, 0, &positive), reads[i].value >= 1);
    mc_tensor_free(&t);
  }
  mc_tensor f;
  CHECK(mc_tensor_alloc(&f, MC_F32, 1, one, 64) == MC_OK);
  int64_t v = 42;
  CHECK(!mc_bytes_side_value(&f, 0, &v) && v == 42);
  mc_tensor_free(&f);
}

int main(void) {
  test_side_values_of_any_type();
  test_seeds_decode_to_their_cases();
  test_cases_encode();
  test_encoder_refuses();
  test_fills();
  test_empty_input();
  test_layout_examples();
  test_slice_layout();
  test_random_inputs();
  return check_report();
}
