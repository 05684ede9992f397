/* The case-file loader (spec/case-format.md): every payload form and type
   with bytes worked out by hand, the checks of check-cases, SHA-256, and
   malformed files that must fail with a message naming the problem. */
#include "cases/cases.h"
#include "check.h"
#include "movconf/tensor.h"

#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#define FILE_HEAD "{\"format\": \"movconf-cases/1\", "

/* ---- helpers ---- */

static bool parse_text(const char *text, size_t len, mc_case_file *f, char *err, size_t n) {
  return mc_case_file_parse(text, len, "t.json", f, err, n);
}

/* A SpaceToDepth-1 file whose one case has `tensor` as data. */
static char *data_case(const char *tensor) {
  static const char *fmt = FILE_HEAD "\"op\": \"SpaceToDepth-1\", \"cases\": [{\"id\": \"s2d/t\", "
                                     "\"origin\": \"test\", \"clauses\": [\"S2D-V2\"], "
                                     "\"inputs\": {\"data\": %s}, \"expect\": {\"error\": "
                                     "\"mode_missing\"}}]}";
  size_t n = strlen(fmt) + strlen(tensor) + 1;
  char *text = malloc(n);
  snprintf(text, n, fmt, tensor);
  return text;
}

/* Loads a data tensor and compares its bytes with the expected hex. */
static void expect_bytes(const char *tensor, const char *hex) {
  char *text = data_case(tensor);
  mc_case_file f;
  char err[512] = "";
  bool ok = parse_text(text, strlen(text), &f, err, sizeof err);
  CHECK(ok);
  if (!ok) {
    fprintf(stderr, "  tensor %s: %s\n", tensor, err);
    free(text);
    return;
  }
  size_t n = strlen(hex) / 2;
  uint8_t want[256];
  for (size_t i = 0; i < n; i++) {
    unsigned b;
    sscanf(hex + 2 * i, "%2x", &b);
    want[i] = (uint8_t)b;
  }
  const mc_tensor *t = &f.cases[0].inputs[0].tensor;
  CHECK_EQ_I64(t->nbytes, n);
  bool same = t->nbytes == n && memcmp(t->data, want, n) == 0;
  CHECK(same);
  if (!same) {
    fprintf(stderr, "  tensor %s: got", tensor);
    for (size_t i = 0; i < t->nbytes && i < 64; i++)
      fprintf(stderr, " %02x", t->data[i]);
    fprintf(stderr, ", want %s\n", hex);
  }
  mc_case_file_free(&f);
  free(text);
}

static void expect_error_len(const char *what, const char *text, size_t len, const char *needle) {
  mc_case_file f;
  char err[512] = "";
  bool ok = parse_text(text, len, &f, err, sizeof err);
  CHECK(!ok);
  if (ok) {
    fprintf(stderr, "  %s: loaded, but must fail\n", what);
    mc_case_file_free(&f);
    return;
  }
  /* A failed parse leaves nothing behind. */
  CHECK(f.cases == NULL && f.n_cases == 0 && f.path == NULL);
  CHECK(strncmp(err, "t.json: ", 8) == 0);
  bool named = strstr(err, needle) != NULL;
  CHECK(named);
  if (!named)
    fprintf(stderr, "  %s: message \"%s\" does not contain \"%s\"\n", what, err, needle);
}

static void expect_error(const char *what, const char *text, const char *needle) {
  expect_error_len(what, text, strlen(text), needle);
}

static void expect_tensor_error(const char *what, const char *tensor, const char *needle) {
  char *text = data_case(tensor);
  expect_error(what, text, needle);
  free(text);
}

/* ---- SHA-256 (FIPS 180-4 examples and padding boundaries) ---- */

static void expect_digest(const void *data, size_t len, const char *hex) {
  uint8_t d[32];
  char got[65];
  mc_sha256(data, len, d);
  for (int i = 0; i < 32; i++)
    snprintf(got + 2 * i, 3, "%02x", d[i]);
  CHECK_STR(got, hex);
}

static void test_sha256(void) {
  expect_digest("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  expect_digest("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  static const char two_blocks[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  expect_digest(two_blocks, 56, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  char *a = malloc(1000000);
  memset(a, 'a', 1000000);
  expect_digest(a, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  /* Around the one-or-two-final-blocks boundary. */
  expect_digest(a, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  expect_digest(a, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  expect_digest(a, 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
  expect_digest(a, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  expect_digest(a, 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb");
  free(a);
}

/* ---- values: every type ---- */

static void test_values_integers(void) {
  expect_bytes("{\"type\": \"u8\", \"shape\": [3], \"values\": [0, 255, \"7\"]}", "00ff07");
  expect_bytes("{\"type\": \"i8\", \"shape\": [2], \"values\": [-128, 127]}", "807f");
  /* 65535 = ff ff; 258 = 0x0102 little-endian 02 01 */
  expect_bytes("{\"type\": \"u16\", \"shape\": [2], \"values\": [65535, 258]}", "ffff0201");
  expect_bytes("{\"type\": \"i16\", \"shape\": [1], \"values\": [-2]}", "feff");
  expect_bytes("{\"type\": \"u32\", \"shape\": [1], \"values\": [4294967295]}", "ffffffff");
  expect_bytes("{\"type\": \"i32\", \"shape\": [2], \"values\": [-1, 16909060]}",
               "ffffffff04030201");
  expect_bytes("{\"type\": \"u64\", \"shape\": [1], \"values\": [\"18446744073709551615\"]}",
               "ffffffffffffffff");
  expect_bytes("{\"type\": \"i64\", \"shape\": [2], \"values\": [\"-9223372036854775808\", "
               "9007199254740992]}",
               "0000000000000080"
               "0000000000002000");
  /* Integral JSON numbers in any notation: 1e2 = 100, 1.0 = 1, -0 = 0. */
  expect_bytes("{\"type\": \"i8\", \"shape\": [3], \"values\": [1e2, 1.0, -0]}", "640100");
  /* u4 [1,2,3]: byte 0 = high 2, low 1 -> 0x21; byte 1 = low 3 -> 0x03 */
  expect_bytes("{\"type\": \"u4\", \"shape\": [3], \"values\": [1, 2, 3]}", "2103");
  /* i4 [-1, 7]: low nibble 0xF, high nibble 0x7 */
  expect_bytes("{\"type\": \"i4\", \"shape\": [2], \"values\": [-1, 7]}", "7f");
  expect_bytes("{\"type\": \"i4\", \"shape\": [3], \"values\": [-8, 0, 5]}", "0805");
  /* u1: element 0 in bit 7: 1011 0000, then 1 in bit 7 */
  expect_bytes("{\"type\": \"u1\", \"shape\": [9], \"values\": [1,0,1,1,0,0,0,0,1]}", "b080");
  expect_bytes("{\"type\": \"boolean\", \"shape\": [4], \"values\": [true, false, 1, 0]}",
               "01000100");
  /* A boolean number is 1 or 0 in any notation (case-format.md 7.1.2); -0 is 0. */
  expect_bytes("{\"type\": \"boolean\", \"shape\": [7], \"values\": [1.0, 1e0, 1E+0, -0, "
               "0.0, 0e5, -0.0]}",
               "01010100000000");
  /* Rank 0 has one element; a zero dimension has none. */
  expect_bytes("{\"type\": \"u8\", \"shape\": [], \"values\": [9]}", "09");
  expect_bytes("{\"type\": \"u8\", \"shape\": [2, 0, 3], \"values\": []}", "");
}

static void test_values_floats(void) {
  /* f16: 1 = 0x3C00, -2 = 0xC000, 0.5 = 0x3800, 65504 = 0x7BFF (max),
     -0 = 0x8000, 2^-24 = 0x0001 (smallest subnormal), little-endian. */
  expect_bytes("{\"type\": \"f16\", \"shape\": [6], \"values\": [1, -2, 0.5, 65504, -0, "
               "5.960464477539063e-08]}",
               "003c00c00038ff7b00800100");
  /* inf = 0x7C00, -nan = 0xFE00, nan = 0x7E00 */
  expect_bytes("{\"type\": \"f16\", \"shape\": [3], \"values\": [\"inf\", \"-nan\", \"nan\"]}",
               "007c00fe007e");
  /* bf16 = top half of f32: 1 = 0x3F80, -2.5 = 0xC020, 2^-133 = 0x0001,
     max 0x7F7F, -inf = 0xFF80, nan = 0x7FC0 */
  expect_bytes("{\"type\": \"bf16\", \"shape\": [6], \"values\": [1, -2.5, "
               "9.183549615799121e-41, 3.3895313892515355e+38, \"-inf\", \"nan\"]}",
               "803f20c001007f7f80ffc07f");
  /* f32: 2^-149 = 0x00000001, nan = 0x7FC00000, -0 = 0x80000000, max 0x7F7FFFFF */
  expect_bytes("{\"type\": \"f32\", \"shape\": [4], \"values\": [1.401298464324817e-45, "
               "\"nan\", -0.0, 3.4028234663852886e+38]}",
               "01000000"
               "0000c07f"
               "00000080"
               "ffff7f7f");
  /* f64: 0.1 is its nearest binary64 0x3FB999999999999A; 2.5 = 0x4004000000000000 */
  expect_bytes("{\"type\": \"f64\", \"shape\": [3], \"values\": [0.1, 2.5, \"-nan\"]}",
               "9a9999999999b93f"
               "0000000000000440"
               "000000000000f8ff");
  /* The one rounding is to binary64 (7.1.3): 2^53 + 1 reads as 2^53 in f64;
     in f32, binary64's exact 16777217 is not a value (test_malformed_values). */
  expect_bytes("{\"type\": \"f64\", \"shape\": [1], \"values\": [9007199254740993]}",
               "0000000000004043");
  /* f8e4m3 (bias 7, no inf): 448 = 0 1111 110 = 0x7E; 2^-9 = 0x01;
     nan = 0x7F; 1 = 0 0111 000 = 0x38; 0.875 = 1.75 * 2^-1 = 0 0110 110 = 0x36 */
  expect_bytes("{\"type\": \"f8e4m3\", \"shape\": [7], \"values\": [448, -448, 0.001953125, "
               "\"nan\", \"-nan\", 1, 0.875]}",
               "7efe017fff3836");
  /* f8e5m2 (bias 15): 57344 = 1.75 * 2^15 = 0 11110 11 = 0x7B; inf = 0x7C;
     nan = 0x7E; 2^-16 = 0x01; -1.5 = 1 01111 10 = 0xBE */
  expect_bytes("{\"type\": \"f8e5m2\", \"shape\": [6], \"values\": [57344, \"inf\", \"-inf\", "
               "\"nan\", 1.52587890625e-05, -1.5]}",
               "7b7cfc7e01be");
}

/* ---- hex, base64, fill ---- */

static void test_bytes_forms(void) {
  expect_bytes("{\"type\": \"f16\", \"shape\": [2], \"hex\": \"003C00c0\"}", "003c00c0");
  /* NaN payloads beyond the canonical ones come through hex unchanged. */
  expect_bytes("{\"type\": \"f32\", \"shape\": [1], \"hex\": \"0100807f\"}", "0100807f");
  expect_bytes("{\"type\": \"u4\", \"shape\": [3], \"hex\": \"2103\"}", "2103");
  expect_bytes("{\"type\": \"u1\", \"shape\": [9], \"hex\": \"b080\"}", "b080");
  /* base64 of 00 3c 00 c0 00 38 ff 7b 00 80 01 00 (RFC 4648 alphabet) */
  expect_bytes("{\"type\": \"f16\", \"shape\": [6], \"base64\": \"ADwAwAA4/3sAgAEA\"}",
               "003c00c00038ff7b00800100");
  /* 01 02 03 04 05: "AQID" "BAU=" */
  expect_bytes("{\"type\": \"u8\", \"shape\": [5], \"base64\": \"AQIDBAU=\"}", "0102030405");
  expect_bytes("{\"type\": \"u8\", \"shape\": [1], \"base64\": \"/w==\"}", "ff");
  expect_bytes("{\"type\": \"u8\", \"shape\": [0], \"base64\": \"\"}", "");
}

static void test_fill_forms(void) {
  /* iota: element i = S + i, as values would give it */
  expect_bytes("{\"type\": \"u8\", \"shape\": [6], \"fill\": {\"iota\": 250}}", "fafbfcfdfeff");
  expect_bytes("{\"type\": \"f32\", \"shape\": [2, 2], \"fill\": {\"iota\": 0}}", "00000000"
                                                                                  "0000803f"
                                                                                  "00000040"
                                                                                  "00004040");
  expect_bytes("{\"type\": \"i16\", \"shape\": [3], \"fill\": {\"iota\": -1}}", "ffff00000100");
  /* i4 from -8: nibbles 8 9 A B C D E F 0 1 2 3 4 5 6 7, low nibble first */
  expect_bytes("{\"type\": \"i4\", \"shape\": [16], \"fill\": {\"iota\": -8}}", "98badcfe10325476");
  expect_bytes("{\"type\": \"f16\", \"shape\": [2], \"fill\": {\"iota\": 2047}}", "ff670068");
  /* f64: 2^53 - 1 and 2^53; 2^63 - 1024 is the largest start of one element. */
  expect_bytes("{\"type\": \"f64\", \"shape\": [2], \"fill\": {\"iota\": "
               "\"9007199254740991\"}}",
               "ffffffffffff3f43"
               "0000000000004043");
  expect_bytes("{\"type\": \"f64\", \"shape\": [1], \"fill\": {\"iota\": "
               "\"9223372036854774784\"}}",
               "ffffffffffffdf43");
  /* counter: raw bits (S + i) mod 2^bits; u8 from 250 wraps to 0 */
  expect_bytes("{\"type\": \"u8\", \"shape\": [8], \"fill\": {\"counter\": 250}}",
               "fafbfcfdfeff0001");
  expect_bytes("{\"type\": \"boolean\", \"shape\": [3], \"fill\": {\"counter\": 254}}", "feff00");
  /* u4 counter from 14: 14 15 0 1 -> bytes 0xFE 0x10 */
  expect_bytes("{\"type\": \"u4\", \"shape\": [4], \"fill\": {\"counter\": 14}}", "fe10");
  expect_bytes("{\"type\": \"i16\", \"shape\": [2], \"fill\": {\"counter\": \"-1\"}}", "ffff0000");
  /* f16 counter 0x7C00 = 31744: inf, then NaN payloads 0x7C01 */
  expect_bytes("{\"type\": \"f16\", \"shape\": [2], \"fill\": {\"counter\": 31744}}", "007c017c");
}

/* splitmix64 written from the definition in spec/case-format.md. */
static uint64_t reference_splitmix64(uint64_t seed, uint64_t i) {
  uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15u;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static void test_fill_prng(void) {
  /* Seed 0: the first outputs of splitmix64 are well known. */
  CHECK(reference_splitmix64(0, 0) == 0xe220a8397b1dcdafu);
  CHECK(reference_splitmix64(0, 1) == 0x6e789e6aa1b965f4u);
  CHECK(reference_splitmix64(0, 2) == 0x06c45d188009454fu);
  const char *text_u64 = "{\"type\": \"u64\", \"shape\": [3], \"fill\": {\"prng\": {\"seed\": 0}}}";
  expect_bytes(text_u64, "afcd1d7b39a820e2"
                         "f465b9a16a9e786e"
                         "4f450980185dc406");
  /* Narrow types keep the low bits: u8 af f4 4f; u4 low nibbles f 4 f. */
  expect_bytes("{\"type\": \"u8\", \"shape\": [3], \"fill\": {\"prng\": {\"seed\": 0}}}", "aff44f");
  expect_bytes("{\"type\": \"u4\", \"shape\": [3], \"fill\": {\"prng\": {\"seed\": 0}}}", "4f0f");
  /* u1 low bits 1 0 1 -> 101 in bits 7..5 */
  expect_bytes("{\"type\": \"u1\", \"shape\": [3], \"fill\": {\"prng\": {\"seed\": 0}}}", "a0");
  /* The seed-42 vectors of spec/case-format.md, section 7.4. */
  CHECK(reference_splitmix64(42, 0) == 0xbdd732262feb6e95u);
  expect_bytes("{\"type\": \"f32\", \"shape\": [3], \"fill\": {\"prng\": {\"seed\": 42}}}",
               "956eeb2f03f166b2529f0f13");
  expect_bytes("{\"type\": \"u8\", \"shape\": [4], \"fill\": {\"prng\": {\"seed\": 42}}}",
               "95035294");
  expect_bytes("{\"type\": \"u4\", \"shape\": [4], \"fill\": {\"prng\": {\"seed\": 42}}}", "3542");
  expect_bytes("{\"type\": \"u1\", \"shape\": [10], \"fill\": {\"prng\": {\"seed\": 42}}}", "c280");

  /* A larger seed given as a decimal string, checked element by element. */
  char *text = data_case("{\"type\": \"u32\", \"shape\": [5, 7], \"fill\": {\"prng\": "
                         "{\"seed\": \"18446744073709551615\"}}}");
  mc_case_file f;
  char err[512];
  bool ok = parse_text(text, strlen(text), &f, err, sizeof err);
  CHECK(ok);
  if (ok) {
    const mc_case_tensor *ct = &f.cases[0].inputs[0];
    CHECK(ct->kind == MC_PAYLOAD_FILL_PRNG);
    int mismatches = 0;
    for (uint64_t i = 0; i < 35; i++) {
      uint64_t want = reference_splitmix64(UINT64_MAX, i) & 0xffffffffu;
      uint64_t got = mc_load_bits(ct->tensor.data, MC_U32, (int64_t)i);
      mismatches += want != got;
    }
    CHECK_EQ_I64(mismatches, 0);
    mc_case_file_free(&f);
  }
  free(text);
}

/* ---- whole cases ---- */

static const char *b2s_file = FILE_HEAD
    "\"op\": \"BatchToSpace-2\", \"description\": \"test file\", \"cases\": [\n"
    "{\"id\": \"b2s/ok\", \"origin\": \"worked by hand\", \"clauses\": [\"B2S-S1\", "
    "\"MC-S1\"],\n"
    " \"inputs\": {\"data\": {\"type\": \"u8\", \"shape\": [4, 1, 1], \"fill\": "
    "{\"iota\": 1}},\n"
    "  \"block_shape\": {\"type\": \"i64\", \"shape\": [3], \"values\": [1, 2, 2]},\n"
    "  \"crops_begin\": {\"type\": \"u8\", \"shape\": [3], \"hex\": \"000000\"},\n"
    "  \"crops_end\": {\"type\": \"i32\", \"shape\": [3], \"base64\": "
    "\"AAAAAAAAAAAAAAAA\"}},\n"
    " \"attributes\": {},\n"
    " \"expect\": {\"output\": {\"type\": \"u8\", \"shape\": [1, 2, 2], \"sha256\": "
    "\"9F64A747E1B97F131FABB6B447296C9B6F0201E79FB3C5356E6C77E89B6A806A\"}}},\n"
    "{\"id\": \"b2s/bad\", \"origin\": \"B2S-V9\", \"clauses\": [\"B2S-V9\"],\n"
    " \"inputs\": {\"crops_end\": {\"type\": \"i64\", \"shape\": [2], \"values\": [0, 0]},\n"
    "  \"data\": {\"type\": \"f32\", \"shape\": [3, 1], \"values\": [1, 2, 3]},\n"
    "  \"block_shape\": {\"type\": \"i64\", \"shape\": [2], \"values\": [1, 2]},\n"
    "  \"crops_begin\": {\"type\": \"i64\", \"shape\": [2], \"values\": [0, 0]}},\n"
    " \"expect\": {\"error\": \"batch_not_divisible\"}}]}\n";

static void test_b2s_file(void) {
  mc_case_file f;
  char err[512] = "";
  bool ok = parse_text(b2s_file, strlen(b2s_file), &f, err, sizeof err);
  CHECK(ok);
  if (!ok) {
    fprintf(stderr, "  %s\n", err);
    return;
  }
  CHECK(f.op == MC_OP_BATCH_TO_SPACE);
  CHECK_EQ_I64(f.n_cases, 2);
  CHECK_STR(f.path, "t.json");
  const mc_case *c = &f.cases[0];
  CHECK_STR(c->id, "b2s/ok");
  CHECK_STR(c->origin, "worked by hand");
  CHECK_EQ_I64(c->n_clauses, 2);
  CHECK_STR(c->clauses[1], "MC-S1");
  CHECK_EQ_I64(c->n_inputs, 4);
  CHECK(c->inputs[0].kind == MC_PAYLOAD_FILL_IOTA);
  CHECK_EQ_I64(c->inputs[0].fill_start, 1);
  CHECK(c->inputs[1].kind == MC_PAYLOAD_VALUES);
  CHECK(c->inputs[2].kind == MC_PAYLOAD_HEX);
  CHECK(c->inputs[3].kind == MC_PAYLOAD_BASE64);
  CHECK_EQ_I64(c->inputs[3].tensor.nbytes, 12);
  CHECK(!c->expect_error);
  CHECK(c->expected.kind == MC_PAYLOAD_SHA256);
  CHECK(c->expected.tensor.data == NULL);
  CHECK_EQ_I64(c->expected.tensor.nbytes, 4);
  CHECK_EQ_I64(c->expected.tensor.rank, 3);
  CHECK_EQ_I64(c->expected.sha256[0], 0x9f);
  CHECK_EQ_I64(c->expected.sha256[31], 0x6a);
  /* Inputs are stored in the op's order whatever order the file uses. */
  const mc_case *bad = &f.cases[1];
  CHECK(bad->expect_error);
  CHECK(bad->expected_error == MC_E_BATCH_NOT_DIVISIBLE);
  CHECK(bad->inputs[0].tensor.type == MC_F32);
  CHECK(bad->inputs[3].tensor.type == MC_I64);

  mc_request r = mc_request_of_case(c);
  CHECK(r.op == MC_OP_BATCH_TO_SPACE);
  CHECK_EQ_I64(r.n_inputs, 4);
  CHECK(r.inputs[0] == &c->inputs[0].tensor && r.inputs[3] == &c->inputs[3].tensor);
  CHECK(mc_attrs_string(&r.attrs, MC_ATTR_MODE) == NULL &&
        mc_attrs_list(&r.attrs, MC_ATTR_SIZES)->count == -1 &&
        !mc_attrs_present(&r.attrs, MC_ATTR_BLOCK_SIZE));
  mc_case_file_free(&f);
  CHECK(f.cases == NULL && f.path == NULL);
}

static void test_attributes(void) {
  const char *s2d = FILE_HEAD
      "\"op\": \"DepthToSpace-1\", \"cases\": [{\"id\": \"d2s/a\", \"origin\": \"o\", "
      "\"clauses\": [\"D2S-V3\"], \"inputs\": {\"data\": {\"type\": \"u8\", \"shape\": [1, 4, "
      "1, 1], \"values\": [1, 2, 3, 4]}}, \"attributes\": {\"mode\": \"sideways\", "
      "\"block_size\": \"-9223372036854775808\"}, \"expect\": {\"error\": \"mode_invalid\"}}]}";
  mc_case_file f;
  char err[512] = "";
  bool ok = parse_text(s2d, strlen(s2d), &f, err, sizeof err);
  CHECK(ok);
  if (ok) {
    const mc_attrs *a = &f.cases[0].attrs;
    CHECK_STR(mc_attrs_string(a, MC_ATTR_MODE), "sideways");
    CHECK(mc_attrs_present(a, MC_ATTR_BLOCK_SIZE) &&
          mc_attrs_int(a, MC_ATTR_BLOCK_SIZE) == INT64_MIN);
    mc_request r = mc_request_of_case(&f.cases[0]);
    CHECK(mc_attrs_string(&r.attrs, MC_ATTR_MODE) == mc_attrs_string(a, MC_ATTR_MODE) &&
          r.n_inputs == 1);
    mc_case_file_free(&f);
  } else {
    fprintf(stderr, "  %s\n", err);
  }

  const char *eip = FILE_HEAD
      "\"op\": \"ExtractImagePatches-3\", \"cases\": [{\"id\": \"eip/a\", \"origin\": \"o\", "
      "\"clauses\": [\"EIP-V3\"], \"inputs\": {\"data\": {\"type\": \"u8\", \"shape\": [1, 1, "
      "1, 1], \"values\": [1]}}, \"attributes\": {\"sizes\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "
      "\"strides\": [], \"rates\": [\"3\"], \"auto_pad\": \"valid\"}, \"expect\": {\"error\": "
      "\"attribute_length\"}}]}";
  ok = parse_text(eip, strlen(eip), &f, err, sizeof err);
  CHECK(ok);
  if (ok) {
    const mc_attrs *a = &f.cases[0].attrs;
    CHECK_EQ_I64(mc_attrs_list(a, MC_ATTR_SIZES)->count, 10); /* the true count, all kept */
    CHECK_EQ_I64(mc_attrs_list(a, MC_ATTR_SIZES)->v[0], 1);
    CHECK_EQ_I64(mc_attrs_list(a, MC_ATTR_SIZES)->v[9], 10);
    CHECK_EQ_I64(mc_attrs_list(a, MC_ATTR_STRIDES)->count, 0);
    CHECK_EQ_I64(mc_attrs_list(a, MC_ATTR_RATES)->count, 1);
    CHECK_EQ_I64(mc_attrs_list(a, MC_ATTR_RATES)->v[0], 3);
    CHECK_STR(mc_attrs_string(a, MC_ATTR_AUTO_PAD), "valid");
    CHECK(mc_attrs_string(a, MC_ATTR_MODE) == NULL && !mc_attrs_present(a, MC_ATTR_BLOCK_SIZE));
    mc_case_file_free(&f);
  } else {
    fprintf(stderr, "  %s\n", err);
  }
}

/* ---- check-cases ---- */

typedef struct collected {
  int n;
  char text[2048];
} collected;

static void collect(void *ctx, const char *msg) {
  collected *c = ctx;
  c->n++;
  size_t used = strlen(c->text);
  snprintf(c->text + used, sizeof c->text - used, "%s\n", msg);
}

static void test_check(void) {
  mc_case_file f;
  char err[512] = "";
  bool ok = parse_text(b2s_file, strlen(b2s_file), &f, err, sizeof err);
  CHECK(ok);
  if (ok) {
    collected got = {0, ""};
    CHECK_EQ_I64(mc_case_file_check(&f, collect, &got), 0);
    CHECK_EQ_I64(got.n, 0);
    mc_case_file_free(&f);
  }

  const char *bad = FILE_HEAD
      "\"op\": \"SpaceToBatch-2\", \"cases\": [\n"
      "{\"id\": \"s2b/x\", \"origin\": \"o\", \"clauses\": [\"S2B-V1\", \"S2B-V99\", "
      "\"B2S-V1\", \"S2B-V1\"], \"inputs\": {\"data\": {\"type\": \"u8\", \"shape\": [1], "
      "\"values\": [0]}, \"block_shape\": {\"type\": \"u8\", \"shape\": [1], \"values\": [1]}, "
      "\"pads_begin\": {\"type\": \"u8\", \"shape\": [1], \"values\": [0]}, \"pads_end\": "
      "{\"type\": \"u8\", \"shape\": [1], \"values\": [0]}}, \"expect\": {\"error\": "
      "\"data_rank\"}},\n"
      "{\"id\": \"b2s/y\", \"origin\": \"o\", \"clauses\": [\"MC-L1\"], \"inputs\": {\"data\": "
      "{\"type\": \"u8\", \"shape\": [1], \"values\": [0]}, \"block_shape\": {\"type\": \"u8\", "
      "\"shape\": [1], \"values\": [1]}, \"pads_begin\": {\"type\": \"u8\", \"shape\": [1], "
      "\"values\": [0]}, \"pads_end\": {\"type\": \"u8\", \"shape\": [1], \"values\": [0]}}, "
      "\"expect\": {\"error\": \"data_rank\"}},\n"
      "{\"id\": \"s2b/x\", \"origin\": \"o\", \"clauses\": [\"S2B-V1\"], \"inputs\": {\"data\": "
      "{\"type\": \"u8\", \"shape\": [1], \"values\": [0]}, \"block_shape\": {\"type\": \"u8\", "
      "\"shape\": [1], \"values\": [1]}, \"pads_begin\": {\"type\": \"u8\", \"shape\": [1], "
      "\"values\": [0]}, \"pads_end\": {\"type\": \"u8\", \"shape\": [1], \"values\": [0]}}, "
      "\"expect\": {\"error\": \"data_rank\"}}]}";
  ok = parse_text(bad, strlen(bad), &f, err, sizeof err);
  CHECK(ok);
  if (!ok) {
    fprintf(stderr, "  %s\n", err);
    return;
  }
  collected got = {0, ""};
  int problems = mc_case_file_check(&f, collect, &got);
  /* S2B-V99 unknown, B2S-V1 foreign, S2B-V1 twice, b2s/ prefix, s2b/x twice */
  CHECK_EQ_I64(problems, 5);
  CHECK_EQ_I64(got.n, 5);
  CHECK(strstr(got.text, "t.json: case 's2b/x': clause 'S2B-V99' is not in the clause registry"));
  CHECK(strstr(got.text, "clause 'B2S-V1' belongs to another operation"));
  CHECK(strstr(got.text, "clause 'S2B-V1' is listed twice"));
  CHECK(strstr(got.text, "case 'b2s/y': id must start with 's2b/'"));
  CHECK(strstr(got.text, "id is not unique: cases[0] and cases[2]"));
  CHECK_EQ_I64(mc_case_file_check(&f, NULL, NULL), 5);
  mc_case_file_free(&f);
}

/* ---- malformed files ---- */

static void test_malformed_json(void) {
  expect_error("empty file", "", "empty file");
  expect_error("only spaces", "   \n", "invalid JSON");
  expect_error("truncated", FILE_HEAD "\"op\"", "invalid JSON");
  expect_error("non-object root", "[1, 2]", "expected an object, got an array");
  expect_error("number root", "42", "expected an object, got a number");
  static const char nul_in_string[] = FILE_HEAD "\"op\": \"Space\0ToDepth-1\"}";
  static const char nul_outside[] = "{\"format\":\0 1}";
  expect_error_len("NUL in a string", nul_in_string, sizeof nul_in_string - 1,
                   "NUL byte inside a string");
  expect_error_len("NUL outside", nul_outside, sizeof nul_outside - 1, "NUL byte in the file");
  expect_error("escaped NUL", FILE_HEAD "\"op\": \"SpaceToDepth-1\\u0000x\"}", "\\u0000");
  expect_error("raw control character", FILE_HEAD "\"op\": \"a\tb\"}", "control character 0x09");
  expect_error("invalid UTF-8", FILE_HEAD "\"description\": \"\xC3\x28\"}", "invalid UTF-8");
  expect_error("overlong UTF-8", FILE_HEAD "\"description\": \"\xC0\xAF\"}", "invalid UTF-8");
  expect_error("byte order mark", "\xEF\xBB\xBF{}", "byte order mark");
  expect_error("plus sign", "{\"a\": +1}", "unexpected character '+'");
  expect_error("leading zero", "{\"a\": 01}", "malformed number '01'");
  expect_error("bare point", "{\"a\": 1.}", "malformed number '1.'");
  expect_error("long number",
               "{\"a\": 1234567890123456789012345678901234567890123456789012345678901234}",
               "longer than 63 characters");
  expect_error("bad literal", "{\"a\": tru}", "unexpected character 't'");
  expect_error("trailing text", "{} {}", "text after the end");
  expect_error("trailing word", "{} x", "unexpected character 'x'");
  expect_error("trailing comma", "{\"a\": [1, 2,]}", "invalid JSON near line 1");
  /* A syntax error names its reason, not only where it is. */
  expect_error("trailing comma named", "{\"a\": [1, 2,]}", "trailing comma before ']'");
  expect_error("missing comma", "{\"a\": 1 \"b\": 2}", "missing comma before '\"'");
  expect_error("missing colon", "{\"a\" 1}", "expected ':' after the member name");
  expect_error("unclosed", "{\"a\": [1, 2", "not closed");
  expect_error("mismatched close", "{\"a\": [1}", "'}' closes a '['");
  expect_error("bad escape", "{\"a\": \"\\q\"}", "invalid escape sequence '\\q'");
  expect_error("unterminated string", "{\"a\": \"abc", "unterminated string");

  /* 2000 levels: beyond cJSON's own limit and ours. */
  size_t depth = 2000;
  char *deep = malloc(2 * depth + 32);
  strcpy(deep, "{\"format\": ");
  size_t at = strlen(deep);
  memset(deep + at, '[', depth);
  memset(deep + at + depth, ']', depth);
  strcpy(deep + at + 2 * depth, "}");
  expect_error("deep nesting", deep, "nesting deeper than 32 levels");
  free(deep);

  /* Too many values for a JSON tree of bounded size: refused before cJSON
     builds anything. */
  size_t zeros = 8000001;
  char *wide = malloc(2 * zeros + 64);
  char *end = wide + sprintf(wide, "{\"a\": [0");
  for (size_t i = 1; i < zeros; i++) {
    memcpy(end, ",0", 2);
    end += 2;
  }
  strcpy(end, "]}");
  expect_error("too many values", wide, "more than 8000000 values and member names");
  free(wide);
}

static void test_malformed_structure(void) {
  expect_error("unknown top-level key",
               FILE_HEAD "\"op\": \"SpaceToDepth-1\", \"formats\": 1, \"cases\": []}",
               "unknown key 'formats'");
  expect_error("duplicate key", FILE_HEAD "\"format\": \"movconf-cases/1\", \"cases\": []}",
               "key 'format' appears twice");
  expect_error("missing cases", FILE_HEAD "\"op\": \"SpaceToDepth-1\"}", "missing key 'cases'");
  expect_error("missing format", "{\"op\": \"SpaceToDepth-1\", \"cases\": []}",
               "missing key 'format'");
  expect_error("wrong format", "{\"format\": \"movconf-cases/2\", \"op\": \"x\", \"cases\": []}",
               "format: \"movconf-cases/2\" is not \"movconf-cases/1\"");
  expect_error("format not string", "{\"format\": 1, \"cases\": []}",
               "format: expected a string, got a number");
  expect_error("unknown op", FILE_HEAD "\"op\": \"space_to_depth_1\", \"cases\": []}",
               "unknown operation \"space_to_depth_1\"");
  expect_error("description type",
               FILE_HEAD "\"op\": \"SpaceToDepth-1\", \"description\": [], \"cases\": []}",
               "description: expected a string, got an array");
  expect_error("cases not array", FILE_HEAD "\"op\": \"SpaceToDepth-1\", \"cases\": {}}",
               "cases: expected an array of cases, got an object");
  expect_error("no cases", FILE_HEAD "\"op\": \"SpaceToDepth-1\", \"cases\": []}",
               "the file has no cases");
  expect_error("case not object", FILE_HEAD "\"op\": \"SpaceToDepth-1\", \"cases\": [7]}",
               "t.json: cases[0]: expected an object, got a number");

  const char *head = FILE_HEAD "\"op\": \"SpaceToDepth-1\", \"cases\": [{";
  const char *data = "\"inputs\": {\"data\": {\"type\": \"u8\", \"shape\": [1], \"values\": [1]}}";
  char text[1024];
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "%s, \"expected\": {\"error\": \"data_rank\"}}]}",
           head, data);
  expect_error("unknown case key", text, "case 's2d/a': unknown key 'expected'");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"clauses\": [\"S2D-V1\"], %s, \"expect\": "
           "{\"error\": \"data_rank\"}}]}",
           head, data);
  expect_error("missing origin", text, "case 's2d/a': missing key 'origin'");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"\", \"clauses\": [\"S2D-V1\"], "
           "%s, \"expect\": {\"error\": \"data_rank\"}}]}",
           head, data);
  expect_error("empty origin", text, "origin: must say where");
  snprintf(text, sizeof text,
           "%s\"id\": \"S2D/A\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "%s, \"expect\": {\"error\": \"data_rank\"}}]}",
           head, data);
  expect_error("bad id", text, "cases[0]: id: \"S2D/A\" does not match");
  snprintf(text, sizeof text,
           "%s\"id\": 5, \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "%s, \"expect\": {\"error\": \"data_rank\"}}]}",
           head, data);
  expect_error("id not string", text, "cases[0]: id: expected a string, got a number");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [], "
           "%s, \"expect\": {\"error\": \"data_rank\"}}]}",
           head, data);
  expect_error("no clauses", text, "clauses: must name at least one clause");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\", "
           "3], %s, \"expect\": {\"error\": \"data_rank\"}}]}",
           head, data);
  expect_error("clause not string", text, "clauses[1]: expected a string, got a number");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "\"inputs\": {}, \"expect\": {\"error\": \"data_rank\"}}]}",
           head);
  expect_error("missing input", text, "inputs: missing input 'data'");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "\"inputs\": {\"dat\": 1}, \"expect\": {\"error\": \"data_rank\"}}]}",
           head);
  expect_error("unknown input", text, "unknown input 'dat' (expected one of: data)");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "%s, \"expect\": {\"error\": \"not_a_status\"}}]}",
           head, data);
  expect_error("unknown error name", text, "expect.error: \"not_a_status\" is not an error");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "%s, \"expect\": {\"error\": \"ok\"}}]}",
           head, data);
  expect_error("ok as error", text, "\"ok\" is not an error status name");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "%s, \"expect\": {}}]}",
           head, data);
  expect_error("empty expect", text, "give exactly one of 'output' and 'error'");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "%s, \"expect\": {\"error\": \"data_rank\", \"output\": {}}}]}",
           head, data);
  expect_error("output and error", text, "give exactly one of 'output' and 'error'");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "%s, \"attributes\": {\"block_size\": 2.5}, \"expect\": {\"error\": "
           "\"data_rank\"}}]}",
           head, data);
  expect_error("fractional block_size", text, "attributes.block_size: 2.5 is not an integer");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "%s, \"attributes\": {\"mode\": 3}, \"expect\": {\"error\": "
           "\"data_rank\"}}]}",
           head, data);
  expect_error("mode not string", text, "attributes.mode: expected a string, got a number");
  snprintf(text, sizeof text,
           "%s\"id\": \"s2d/a\", \"origin\": \"o\", \"clauses\": [\"S2D-V1\"], "
           "%s, \"attributes\": {\"sizes\": [1, 1]}, \"expect\": {\"error\": "
           "\"data_rank\"}}]}",
           head, data);
  expect_error("foreign attribute", text,
               "unknown attribute 'sizes' (expected one of: "
               "block_size, mode)");

  const char *b2s_attr =
      FILE_HEAD "\"op\": \"BatchToSpace-2\", \"cases\": [{\"id\": \"b2s/a\", \"origin\": \"o\", "
                "\"clauses\": [\"B2S-V1\"], \"inputs\": {}, \"attributes\": {\"mode\": \"x\"}, "
                "\"expect\": {\"error\": \"data_rank\"}}]}";
  expect_error("B2S empty inputs", b2s_attr, "inputs: missing input 'data'");

  char eip[1024];
  char list[400] = "";
  for (int i = 0; i < 65; i++)
    strcat(list, i ? ",1" : "1");
  snprintf(eip, sizeof eip,
           FILE_HEAD "\"op\": \"ExtractImagePatches-3\", \"cases\": [{\"id\": \"eip/a\", "
                     "\"origin\": \"o\", \"clauses\": [\"EIP-V3\"], \"inputs\": {\"data\": "
                     "{\"type\": \"u8\", \"shape\": [1], \"values\": [1]}}, \"attributes\": "
                     "{\"rates\": [%s]}, \"expect\": {\"error\": \"attribute_length\"}}]}",
           list);
  expect_error("65 rates", eip, "attributes.rates: 65 values; at most 64");
  snprintf(eip, sizeof eip,
           FILE_HEAD "\"op\": \"ExtractImagePatches-3\", \"cases\": [{\"id\": \"eip/a\", "
                     "\"origin\": \"o\", \"clauses\": [\"EIP-V3\"], \"inputs\": {\"data\": "
                     "{\"type\": \"u8\", \"shape\": [1], \"values\": [1]}}, \"attributes\": "
                     "{\"strides\": 2}, \"expect\": {\"error\": \"attribute_length\"}}]}");
  expect_error("strides not array", eip, "attributes.strides: expected an array of integers");
}

static void test_no_attributes_for_b2s(void) {
  const char *text =
      FILE_HEAD "\"op\": \"BatchToSpace-2\", \"cases\": [{\"id\": \"b2s/a\", \"origin\": \"o\", "
                "\"clauses\": [\"B2S-V1\"], \"inputs\": {\"data\": {\"type\": \"u8\", \"shape\": "
                "[1], \"values\": [0]}, \"block_shape\": {\"type\": \"u8\", \"shape\": [1], "
                "\"values\": [1]}, \"crops_begin\": {\"type\": \"u8\", \"shape\": [1], \"values\": "
                "[0]}, \"crops_end\": {\"type\": \"u8\", \"shape\": [1], \"values\": [0]}}, "
                "\"attributes\": {\"block_size\": 2}, \"expect\": {\"error\": \"data_rank\"}}]}";
  expect_error("B2S has no attributes", text,
               "attributes: unknown attribute 'block_size' (BatchToSpace-2 takes none)");
}

static void test_malformed_tensors(void) {
  expect_tensor_error("tensor not object", "[1]", "inputs.data: expected an object, got an array");
  expect_tensor_error("unknown tensor key", "{\"type\": \"u8\", \"shape\": [1], \"value\": [1]}",
                      "unknown key 'value'");
  expect_tensor_error("missing type", "{\"shape\": [1], \"values\": [1]}", "missing key 'type'");
  expect_tensor_error("unknown type", "{\"type\": \"f128\", \"shape\": [1], \"values\": [1]}",
                      "inputs.data.type: unknown element type \"f128\"");
  expect_tensor_error("shape not array", "{\"type\": \"u8\", \"shape\": 3, \"values\": [1]}",
                      "expected an array of dimensions");
  expect_tensor_error("negative dimension",
                      "{\"type\": \"u8\", \"shape\": [2, -1], \"values\": []}",
                      "inputs.data.shape[1]: dimension -1 is negative");
  expect_tensor_error("fractional dimension",
                      "{\"type\": \"u8\", \"shape\": [1.5], \"values\": []}",
                      "shape[0]: 1.5 is not an integer");
  expect_tensor_error("overflowing shape",
                      "{\"type\": \"u8\", \"shape\": [1099511627776, 1099511627776, "
                      "1099511627776], \"fill\": {\"iota\": 0}}",
                      "overflows int64");
  expect_tensor_error("byte overflow",
                      "{\"type\": \"f64\", \"shape\": [\"4611686018427387904\"], \"fill\": "
                      "{\"counter\": 0}}",
                      "byte size of f64 [4611686018427387904] overflows");
  expect_tensor_error("too large",
                      "{\"type\": \"u8\", \"shape\": [300000000], \"fill\": {\"counter\": 0}}",
                      "takes 300000000 bytes, more than the limit of 268435456");
  char rank33[512] = "{\"type\": \"u8\", \"shape\": [1";
  for (int i = 1; i < 33; i++)
    strcat(rank33, ",1");
  strcat(rank33, "], \"values\": [1]}");
  expect_tensor_error("rank 33", rank33, "rank 33 is above the format's limit of 32");
  expect_tensor_error("no payload", "{\"type\": \"u8\", \"shape\": [1]}", "no payload");
  expect_tensor_error("two payloads",
                      "{\"type\": \"u8\", \"shape\": [1], \"values\": [1], \"hex\": \"01\"}",
                      "payload forms 'values' and 'hex' are exclusive");
  expect_tensor_error("values length", "{\"type\": \"u8\", \"shape\": [2], \"values\": [1, 2, 3]}",
                      "inputs.data.values: 3 values, but the shape has 2 elements");
  /* Many more values than the shape says: rejected before anything is decoded. */
  size_t n = 5000;
  char *many = malloc(n * 2 + 64);
  char *end = many + sprintf(many, "{\"type\": \"u8\", \"shape\": [1], \"values\": [0");
  for (size_t i = 1; i < n; i++)
    end += sprintf(end, ",0");
  strcpy(end, "]}");
  expect_tensor_error("huge values count", many, "5000 values, but the shape has 1 elements");
  free(many);
  expect_tensor_error("values not array", "{\"type\": \"u8\", \"shape\": [1], \"values\": 1}",
                      "values: expected an array, got a number");
}

static void test_malformed_values(void) {
  char *text = data_case("{\"type\": \"u8\", \"shape\": [8], \"values\": [0,1,2,3,4,5,6,300]}");
  mc_case_file f;
  char err[512] = "";
  CHECK(!parse_text(text, strlen(text), &f, err, sizeof err));
  CHECK_STR(err,
            "t.json: case 's2d/t': inputs.data.values[7]: 300 is out of range for u8 (0..255)");
  free(text);

  expect_tensor_error("negative u16", "{\"type\": \"u16\", \"shape\": [1], \"values\": [-1]}",
                      "values[0]: -1 is out of range for u16 (0..65535)");
  expect_tensor_error("i4 range", "{\"type\": \"i4\", \"shape\": [2], \"values\": [0, 8]}",
                      "values[1]: 8 is out of range for i4 (-8..7)");
  expect_tensor_error("u1 range", "{\"type\": \"u1\", \"shape\": [1], \"values\": [2]}",
                      "2 is out of range for u1 (0..1)");
  expect_tensor_error("i64 string range",
                      "{\"type\": \"i64\", \"shape\": [1], \"values\": [\"9223372036854775808\"]}",
                      "\"9223372036854775808\" is out of range for i64");
  expect_tensor_error("beyond 64 bits",
                      "{\"type\": \"u64\", \"shape\": [1], \"values\": [\"18446744073709551616\"]}",
                      "is beyond 64 bits");
  expect_tensor_error("beyond 2^53",
                      "{\"type\": \"i64\", \"shape\": [1], \"values\": [9007199254740993]}",
                      "9007199254740993 is beyond 2^53; write it as a decimal string");
  expect_tensor_error("fraction in integer",
                      "{\"type\": \"i32\", \"shape\": [1], \"values\": [1.5]}",
                      "values[0]: 1.5 is not an integer");
  expect_tensor_error("bad decimal string",
                      "{\"type\": \"i32\", \"shape\": [1], \"values\": [\"12a\"]}",
                      "\"12a\" is not a decimal integer");
  expect_tensor_error("leading zero string",
                      "{\"type\": \"i32\", \"shape\": [1], \"values\": [\"007\"]}",
                      "\"007\" is not a decimal integer");
  expect_tensor_error("bool for integer", "{\"type\": \"u8\", \"shape\": [1], \"values\": [true]}",
                      "expected an integer (a number or a decimal string), got a boolean");
  expect_tensor_error("boolean 2", "{\"type\": \"boolean\", \"shape\": [1], \"values\": [2]}",
                      "values[0]: 2 is not a boolean");
  expect_tensor_error("boolean -1", "{\"type\": \"boolean\", \"shape\": [1], \"values\": [-1]}",
                      "values[0]: -1 is not a boolean");
  expect_tensor_error("boolean 0.5",
                      "{\"type\": \"boolean\", \"shape\": [2], \"values\": [1, 0.5]}",
                      "values[1]: 0.5 is not a boolean");
  /* A double reader sees 1; the text is not an integer. */
  expect_tensor_error("boolean near 1",
                      "{\"type\": \"boolean\", \"shape\": [1], \"values\": "
                      "[1.0000000000000001]}",
                      "values[0]: 1.0000000000000001 is not a boolean");
  expect_tensor_error("boolean string",
                      "{\"type\": \"boolean\", \"shape\": [1], \"values\": [\"1\"]}",
                      "values[0]: \"1\" is not a boolean");
  expect_tensor_error("inexact f16", "{\"type\": \"f16\", \"shape\": [2], \"values\": [1, 0.1]}",
                      "values[1]: 0.1 is not exactly representable in f16");
  expect_tensor_error("f16 overflow", "{\"type\": \"f16\", \"shape\": [1], \"values\": [65536]}",
                      "65536 is not exactly representable in f16");
  expect_tensor_error("f16 half subnormal",
                      "{\"type\": \"f16\", \"shape\": [1], \"values\": [2.9802322387695312e-08]}",
                      "not exactly representable in f16");
  expect_tensor_error("f32 odd integer",
                      "{\"type\": \"f32\", \"shape\": [1], \"values\": [16777217]}",
                      "16777217 is not exactly representable in f32");
  expect_tensor_error("e4m3 480", "{\"type\": \"f8e4m3\", \"shape\": [1], \"values\": [480]}",
                      "480 is not exactly representable in f8e4m3");
  expect_tensor_error("e4m3 inf", "{\"type\": \"f8e4m3\", \"shape\": [1], \"values\": [\"inf\"]}",
                      "f8e4m3 has no infinity");
  expect_tensor_error("e5m2 61440", "{\"type\": \"f8e5m2\", \"shape\": [1], \"values\": [61440]}",
                      "61440 is not exactly representable in f8e5m2");
  expect_tensor_error("f64 overflow", "{\"type\": \"f64\", \"shape\": [1], \"values\": [1e400]}",
                      "1e400 overflows binary64");
  expect_tensor_error("f64 underflow", "{\"type\": \"f64\", \"shape\": [1], \"values\": [1e-400]}",
                      "1e-400 is nonzero but rounds to zero");
  expect_tensor_error("float word",
                      "{\"type\": \"f32\", \"shape\": [1], \"values\": [\"Infinity\"]}",
                      "\"Infinity\" is not a float value");
  expect_tensor_error("float decimal string",
                      "{\"type\": \"f32\", \"shape\": [1], \"values\": [\"1.5\"]}",
                      "\"1.5\" is not a float value");
  expect_tensor_error("null float", "{\"type\": \"f32\", \"shape\": [1], \"values\": [null]}",
                      "expected a number for f32, got null");
}

static void test_malformed_payloads(void) {
  expect_tensor_error("bad hex digit", "{\"type\": \"u8\", \"shape\": [2], \"hex\": \"0g00\"}",
                      "inputs.data.hex: 'g' at position 1 is not a hex digit");
  expect_tensor_error("odd hex", "{\"type\": \"u8\", \"shape\": [2], \"hex\": \"abc\"}",
                      "odd number of hex digits (3)");
  expect_tensor_error("hex length", "{\"type\": \"u16\", \"shape\": [2], \"hex\": \"0102\"}",
                      "2 bytes of hex, the tensor needs 4");
  expect_tensor_error("hex not string", "{\"type\": \"u8\", \"shape\": [1], \"hex\": 1}",
                      "hex: expected a string, got a number");
  expect_tensor_error("u4 tail bits", "{\"type\": \"u4\", \"shape\": [1], \"hex\": \"f1\"}",
                      "unused bits of the last byte must be zero");
  expect_tensor_error("u1 tail bits", "{\"type\": \"u1\", \"shape\": [9], \"hex\": \"ffc0\"}",
                      "unused bits of the last byte must be zero");
  expect_tensor_error("base64 tail bits",
                      "{\"type\": \"i4\", \"shape\": [3], \"base64\": \"/48=\"}",
                      "unused bits of the last byte must be zero");
  expect_tensor_error("bad base64 char", "{\"type\": \"u8\", \"shape\": [3], \"base64\": \"AQ*D\"}",
                      "'*' at position 2 is not in the base64 alphabet");
  expect_tensor_error("base64 length", "{\"type\": \"u8\", \"shape\": [3], \"base64\": \"AQI\"}",
                      "3 base64 characters; 3 bytes take exactly 4");
  expect_tensor_error("base64 missing padding",
                      "{\"type\": \"u8\", \"shape\": [2], \"base64\": "
                      "\"AQID\"}",
                      "'D' at position 3: expected '=' padding");
  expect_tensor_error("base64 padding bits",
                      "{\"type\": \"u8\", \"shape\": [2], \"base64\": "
                      "\"AQJ=\"}",
                      "nonzero padding bits");
  expect_tensor_error("base64 inner padding",
                      "{\"type\": \"u8\", \"shape\": [3], \"base64\": "
                      "\"A=ID\"}",
                      "'=' at position 1 is not in the base64 alphabet");
  expect_tensor_error("sha256 in input",
                      "{\"type\": \"u8\", \"shape\": [1], \"sha256\": "
                      "\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"}",
                      "inputs.data.sha256: sha256 is allowed only in expect.output");
  expect_tensor_error("fill two generators",
                      "{\"type\": \"u8\", \"shape\": [1], \"fill\": {\"iota\": 0, \"counter\": 0}}",
                      "give exactly one of iota, counter, prng (got 2)");
  expect_tensor_error("fill unknown generator",
                      "{\"type\": \"u8\", \"shape\": [1], \"fill\": {\"random\": 0}}",
                      "unknown fill 'random'");
  expect_tensor_error("iota out of range",
                      "{\"type\": \"u8\", \"shape\": [10], \"fill\": {\"iota\": 250}}",
                      "fill.iota: element 9 would be 259, out of range for u8 (0..255)");
  expect_tensor_error("iota below range",
                      "{\"type\": \"u8\", \"shape\": [2], \"fill\": {\"iota\": -1}}",
                      "element 0 would be -1, out of range for u8");
  expect_tensor_error("iota boolean",
                      "{\"type\": \"boolean\", \"shape\": [3], \"fill\": {\"iota\": 0}}",
                      "element 2 would be 2, out of range for boolean (0..1)");
  expect_tensor_error("iota f16 inexact",
                      "{\"type\": \"f16\", \"shape\": [3], \"fill\": {\"iota\": 2047}}",
                      "element 2 would be 2049, not exactly representable in f16");
  /* iota is exact: no rounding to binary64 either (case-format.md 7.4.1). */
  expect_tensor_error("iota f64 above 2^53",
                      "{\"type\": \"f64\", \"shape\": [3], \"fill\": {\"iota\": "
                      "\"9007199254740991\"}}",
                      "element 2 would be 9007199254740993, not exactly representable in f64");
  expect_tensor_error("iota f64 below INT64_MAX",
                      "{\"type\": \"f64\", \"shape\": [1], \"fill\": {\"iota\": "
                      "\"9223372036854775807\"}}",
                      "not exactly representable in f64");
  expect_tensor_error("iota int64 overflow",
                      "{\"type\": \"i64\", \"shape\": [2], \"fill\": {\"iota\": "
                      "\"9223372036854775807\"}}",
                      "overflows int64");
  expect_tensor_error("counter beyond int64",
                      "{\"type\": \"u64\", \"shape\": [1], \"fill\": {\"counter\": "
                      "\"9223372036854775808\"}}",
                      "fill.counter: \"9223372036854775808\" is outside the int64 range");
  expect_tensor_error("prng negative seed",
                      "{\"type\": \"u8\", \"shape\": [1], \"fill\": {\"prng\": {\"seed\": -1}}}",
                      "fill.prng.seed: a seed is in 0..18446744073709551615");
  expect_tensor_error("prng unknown key",
                      "{\"type\": \"u8\", \"shape\": [1], \"fill\": {\"prng\": {\"seed\": 1, "
                      "\"algo\": 2}}}",
                      "fill.prng: unknown key 'algo'");
  expect_tensor_error("prng missing seed",
                      "{\"type\": \"u8\", \"shape\": [1], \"fill\": {\"prng\": {}}}",
                      "fill.prng: missing key 'seed'");
}

static void test_bad_sha256(void) {
  const char *text =
      FILE_HEAD "\"op\": \"SpaceToDepth-1\", \"cases\": [{\"id\": \"s2d/a\", \"origin\": \"o\", "
                "\"clauses\": [\"S2D-S1\"], \"inputs\": {\"data\": {\"type\": \"u8\", \"shape\": "
                "[1], \"values\": [1]}}, \"expect\": {\"output\": {\"type\": \"u8\", \"shape\": "
                "[1], \"sha256\": \"abc\"}}}]}";
  expect_error("short sha256", text, "expect.output.sha256: a sha256 is 64 hex digits");
}

/* Every prefix of a good file fails cleanly; byte mutations never crash
   (the sanitizer build turns any memory error into a failure). */
static void test_truncations_and_mutations(void) {
  size_t len = strlen(b2s_file);
  int clean = 0;
  for (size_t cut = 0; cut < len - 1; cut++) {
    mc_case_file f;
    char err[512] = "";
    bool ok = parse_text(b2s_file, cut, &f, err, sizeof err);
    clean += !ok && strncmp(err, "t.json: ", 8) == 0;
    if (ok)
      mc_case_file_free(&f);
  }
  CHECK_EQ_I64(clean, (int64_t)len - 1);

  char *copy = malloc(len);
  static const char replacements[] = {'\0', '"', '{', ']', '9', '-', 'e', ',', '\\', (char)0xff};
  int loaded = 0, rejected = 0;
  for (size_t at = 0; at < len; at++) {
    for (size_t r = 0; r < sizeof replacements; r++) {
      memcpy(copy, b2s_file, len);
      copy[at] = replacements[r];
      mc_case_file f;
      char err[512] = "";
      if (parse_text(copy, len, &f, err, sizeof err)) {
        loaded++;
        mc_case_file_free(&f);
      } else {
        rejected += err[0] != '\0';
      }
    }
  }
  CHECK(rejected > 0);
  CHECK_EQ_I64(loaded + rejected, (int64_t)(len * sizeof replacements));
  free(copy);
}

/* ---- files on disk ---- */

static void test_load_from_disk(void) {
  char path[] = "/tmp/movconf_loader_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0)
    return;
  size_t len = strlen(b2s_file);
  CHECK_EQ_I64(write(fd, b2s_file, len), (int64_t)len);
  close(fd);
  mc_case_file f;
  char err[512] = "";
  bool ok = mc_case_file_load(path, &f, err, sizeof err);
  CHECK(ok);
  if (ok) {
    CHECK_STR(f.path, path);
    CHECK_EQ_I64(f.n_cases, 2);
    mc_case_file_free(&f);
  }
  unlink(path);
  CHECK(!mc_case_file_load(path, &f, err, sizeof err));
  CHECK(strstr(err, "No such file") != NULL);
  CHECK(!mc_case_file_load("/tmp", &f, err, sizeof err));
  CHECK(strncmp(err, "/tmp: ", 6) == 0);
}

/* Loads tensor as a case's data input both ways: a deferred load leaves
   it unmade exactly when deferred says, and once made it has the bytes of
   a plain load. */
static void expect_deferred(const char *tensor, bool deferred) {
  char path[] = "/tmp/movconf_deferred_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0)
    return;
  char *text = data_case(tensor);
  CHECK_EQ_I64(write(fd, text, strlen(text)), (int64_t)strlen(text));
  close(fd);
  free(text);
  mc_case_file plain, lazy;
  char err[512] = "";
  bool ok = mc_case_file_load(path, &plain, err, sizeof err) &&
            mc_case_file_load_deferred(path, &lazy, err, sizeof err);
  unlink(path);
  CHECK(ok);
  if (!ok) {
    fprintf(stderr, "  tensor %s: %s\n", tensor, err);
    return;
  }
  const mc_tensor *made = &plain.cases[0].inputs[0].tensor, *t = &lazy.cases[0].inputs[0].tensor;
  CHECK((t->data == NULL) == deferred);
  CHECK_EQ_I64((int64_t)t->nbytes, (int64_t)made->nbytes);
  CHECK(mc_case_materialize(&lazy.cases[0]));
  CHECK(t->data != NULL && memcmp(t->data, made->data, made->nbytes) == 0);
  mc_case_file_free(&plain);
  mc_case_file_free(&lazy);
}

static void test_load_deferred(void) {
  /* Above MC_CASE_DEFER_FILL_BYTES (64 KiB): counter and prng wait. */
  expect_deferred("{\"type\": \"u8\", \"shape\": [2, 65537], \"fill\": {\"counter\": 7}}", true);
  expect_deferred("{\"type\": \"f32\", \"shape\": [16385, 2], \"fill\": {\"prng\": {\"seed\": "
                  "\"18446744073709551615\"}}}",
                  true);
  /* An iota is checked element by element, so it is made; small fills too. */
  expect_deferred("{\"type\": \"i32\", \"shape\": [65536], \"fill\": {\"iota\": -5}}", false);
  expect_deferred("{\"type\": \"u8\", \"shape\": [64], \"fill\": {\"counter\": 1}}", false);
}

/* Loads every case file under dir; with check, also runs the check-cases
   rules. Returns the number of files. */
static int load_tree(const char *dir, bool check) {
  mc_path_list files = {0};
  const char *roots[1] = {dir};
  CHECK(mc_find_case_files(roots, 1, &files, NULL, 0));
  for (int i = 0; i < files.count; i++) {
    mc_case_file f;
    char err[512] = "";
    bool ok = mc_case_file_load(files.paths[i], &f, err, sizeof err);
    CHECK(ok);
    if (!ok) {
      fprintf(stderr, "  %s\n", err);
      continue;
    }
    if (check)
      CHECK_EQ_I64(mc_case_file_check(&f, NULL, NULL), 0);
    mc_case_file_free(&f);
  }
  int count = files.count;
  mc_path_list_free(&files);
  return count;
}

static void test_repository_files(void) {
  int examples = load_tree(MOVCONF_SOURCE_DIR "/spec/examples", true);
  int conformance = load_tree(MOVCONF_SOURCE_DIR "/conformance", false);
  printf("loaded %d example file(s) from spec/examples and %d file(s) from conformance/\n",
         examples, conformance);
  CHECK(examples > 0);
}

int main(void) {
  test_sha256();
  test_values_integers();
  test_values_floats();
  test_bytes_forms();
  test_fill_forms();
  test_fill_prng();
  test_b2s_file();
  test_attributes();
  test_check();
  test_malformed_json();
  test_malformed_structure();
  test_no_attributes_for_b2s();
  test_malformed_tensors();
  test_malformed_values();
  test_malformed_payloads();
  test_bad_sha256();
  test_truncations_and_mutations();
  test_load_from_disk();
  test_load_deferred();
  test_repository_files();
  return check_report();
}
