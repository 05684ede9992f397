/* An optional trailing input (Slice-8's axes) through every representation
   of a request: a request has 4 inputs (axes absent) or 5, and each must
   arrive as it left, with nothing shifted and nothing invented. Case JSON
   (loader and writer), the adapter protocol (a real process adapter,
   tests/echo_inputs_adapter.py), the fork wire to a plugin of ABI version
   3 (tests/plugin_mock.c, echo-inputs) and the rule that plugins of
   versions 1 and 2 are never offered Slice-8. The oracle plays no part:
   each receiver says what it got. */
#include <stdlib.h>

#include "cases/bytes/fuzz_bytes.h"
#include "cases/case_writer.h"
#include "cases/cases.h"
#include "check.h"
#include "harness/harness.h"
#include "harness/impl/plugin/plugin_call.h"
#include "movconf/tensor.h"

/* ---- a Slice-8 request: data u8 [2,3], start 11, stop 22, step 33, axes 44 ---- */

typedef struct slice_request {
  mc_tensor t[MC_MAX_INPUTS];
  mc_request req;
} slice_request;

static void make_slice(slice_request *s, int n_inputs) {
  memset(s, 0, sizeof *s);
  const int64_t data_shape[2] = {2, 3}, side_shape[1] = {1};
  CHECK(mc_tensor_alloc(&s->t[0], MC_U8, 2, data_shape, 1 << 20) == MC_OK);
  for (size_t i = 0; i < s->t[0].nbytes; i++)
    s->t[0].data[i] = (uint8_t)i;
  for (int i = 1; i < MC_MAX_INPUTS; i++) {
    CHECK(mc_tensor_alloc(&s->t[i], MC_I64, 1, side_shape, 64) == MC_OK);
    mc_store_bits(s->t[i].data, MC_I64, 0, (uint64_t)(11 * i));
  }
  s->req = (mc_request){.op = MC_OP_SLICE, .n_inputs = n_inputs, .attrs = mc_attrs_none()};
  for (int i = 0; i < n_inputs; i++)
    s->req.inputs[i] = &s->t[i];
}

static void free_slice(slice_request *s) {
  for (int i = 0; i < MC_MAX_INPUTS; i++)
    mc_tensor_free(&s->t[i]);
}

/* Side inputs of other types (issue 34): stop a boolean [1] holding true,
   step a scalar of the data's type (u8, rank 0) holding 33, as Pad-12's
   pad_value will be. Slice-8 refuses both; every representation must
   still carry them as they are. */
static void other_side_types(slice_request *s) {
  const int64_t one[1] = {1};
  mc_tensor_free(&s->t[2]);
  mc_tensor_free(&s->t[3]);
  CHECK(mc_tensor_alloc(&s->t[2], MC_BOOLEAN, 1, one, 64) == MC_OK);
  CHECK(mc_tensor_alloc(&s->t[3], MC_U8, 0, NULL, 64) == MC_OK);
  s->t[2].data[0] = 1;
  s->t[3].data[0] = 33;
}

static bool contains(const char *what, const char *text, const char *needle) {
  bool found = strstr(text, needle) != NULL;
  if (!found)
    fprintf(stderr, "  %s: \"%s\" does not contain \"%s\"\n", what, text, needle);
  return found;
}

/* ---- case JSON: the loader ---- */

#define SIDE(v) "{\"type\": \"i64\", \"shape\": [1], \"values\": [" #v "]}"
#define DATA "\"data\": {\"type\": \"u8\", \"shape\": [2, 3], \"values\": [0, 1, 2, 3, 4, 5]}"

static bool load(const char *inputs, mc_case_file *f, char *err, size_t errlen) {
  char text[1024];
  snprintf(text, sizeof text,
           "{\"format\": \"movconf-cases/1\", \"op\": \"Slice-8\", \"cases\": [{\"id\": \"sl/t\", "
           "\"origin\": \"test\", \"clauses\": [\"SL-V5\"], \"inputs\": {%s}, \"expect\": "
           "{\"error\": \"step_zero\"}}]}",
           inputs);
  return mc_case_file_parse(text, strlen(text), "t.json", f, err, errlen);
}

static void expect_loaded(const char *what, const char *inputs, int n_inputs) {
  mc_case_file f;
  char err[512] = "";
  bool ok = load(inputs, &f, err, sizeof err);
  CHECK(ok);
  if (!ok) {
    fprintf(stderr, "  %s: %s\n", what, err);
    return;
  }
  const mc_case *c = &f.cases[0];
  CHECK_EQ_I64(c->n_inputs, n_inputs);
  for (int i = 1; i < c->n_inputs; i++)
    CHECK_EQ_I64((int64_t)mc_load_bits(c->inputs[i].tensor.data, MC_I64, 0), 11 * i);
  mc_request r = mc_request_of_case(c);
  CHECK_EQ_I64(r.n_inputs, n_inputs);
  /* The reports' summary of the request names the inputs given. */
  char *summary = mc_case_inputs_text(c);
  CHECK(contains(what, summary, "step [33] (i64 [1])"));
  CHECK_EQ_I64(strstr(summary, "axes") != NULL, n_inputs == 5);
  free(summary);
  mc_case_file_free(&f);
}

static void expect_refused(const char *what, const char *inputs, const char *needle) {
  mc_case_file f;
  char err[512] = "";
  bool ok = load(inputs, &f, err, sizeof err);
  CHECK(!ok);
  if (ok) {
    fprintf(stderr, "  %s: loaded, but must fail\n", what);
    mc_case_file_free(&f);
    return;
  }
  CHECK(contains(what, err, "case 'sl/t': inputs: "));
  CHECK(contains(what, err, needle));
}

static void test_loader(void) {
  expect_loaded("axes absent",
                DATA ", \"start\": " SIDE(11) ", \"stop\": " SIDE(22) ", \"step\": " SIDE(33), 4);
  /* In another order than the op's: stored in the op's order. */
  expect_loaded("axes given",
                "\"axes\": " SIDE(44) ", " DATA ", \"step\": " SIDE(33) ", \"start\": " SIDE(
                    11) ", \"stop\": " SIDE(22),
                5);
  expect_refused("a gap before axes",
                 DATA ", \"start\": " SIDE(11) ", \"stop\": " SIDE(22) ", \"axes\": " SIDE(44),
                 "missing input 'step'");
  expect_refused("a required input absent", DATA ", \"start\": " SIDE(11) ", \"step\": " SIDE(33),
                 "missing input 'stop'");
  expect_refused("an input Slice-8 does not have",
                 DATA ", \"start\": " SIDE(11) ", \"stop\": " SIDE(22) ", \"step\": " SIDE(
                     33) ", \"axis\": " SIDE(44),
                 "unknown input 'axis'");
}

/* ---- case JSON: the writer, read back by the loader ---- */

static void test_writer_round_trip(int n_inputs, void (*vary)(slice_request *)) {
  slice_request s;
  make_slice(&s, n_inputs);
  if (vary)
    vary(&s);
  mc_text t = {0};
  mc_case_out c = {.id = "sl/written",
                   .origin = "hand",
                   .clauses = {"SL-V5"},
                   .n_clauses = 1,
                   .req = &s.req,
                   .data_fill = MC_PAYLOAD_HEX,
                   .expect_error = true,
                   .error = MC_E_STEP_ZERO};
  mc_write_file_head(&t, MC_OP_SLICE, "optional inputs");
  mc_write_case(&t, &c);
  mc_text_printf(&t, "\n  ]\n}\n");
  mc_text_put(&t, "", 1);
  CHECK(!t.oom);
  /* An absent input is an absent key, never null or an empty tensor. */
  CHECK_EQ_I64(strstr(t.p, "\"axes\"") != NULL, n_inputs == 5);
  mc_case_file f;
  char err[512] = "";
  bool parsed = mc_case_file_parse(t.p, t.len - 1, "written.json", &f, err, sizeof err);
  CHECK(parsed);
  if (!parsed) {
    fprintf(stderr, "  %s\n%s\n", err, t.p);
  } else {
    const mc_case *back = &f.cases[0];
    CHECK_EQ_I64(back->n_inputs, n_inputs);
    for (int i = 0; i < back->n_inputs; i++) {
      CHECK(mc_tensor_same(&back->inputs[i].tensor, &s.t[i]));
    }
    mc_case_file_free(&f);
  }
  mc_text_free(&t);
  free_slice(&s);
}

/* ---- fuzz bytes: the encoder's check of the request's shape ---- */

/* A request of n inputs is refused for its count exactly when n is not
   4 or 5 (the Slice-8 layout itself belongs to the operation's take and
   put functions, so only the generic check is tested here). */
static void test_fuzz_bytes_count(void) {
  for (int n = 3; n <= MC_MAX_INPUTS + 1; n++) {
    slice_request s;
    make_slice(&s, n <= MC_MAX_INPUTS ? n : MC_MAX_INPUTS);
    s.req.n_inputs = n;
    mc_fuzz_input in;
    memset(&in, 0, sizeof in);
    in.req = s.req;
    in.threads = 1;
    in.max_output_bytes = mc_fuzz_natural_cap(MC_U8, false);
    in.data_fill = MC_FUZZ_FILL_BYTES;
    mc_fuzz_bytes bytes = {0};
    char why[256] = "";
    bool encoded = mc_fuzz_encode(&in, &bytes, why, sizeof why);
    bool refused_for_count = !encoded && strstr(why, "inputs where") != NULL;
    CHECK_EQ_I64(refused_for_count, n < 4 || n > 5);
    if (refused_for_count != (n < 4 || n > 5))
      fprintf(stderr, "  fuzz bytes, %d inputs: %s\n", n, encoded ? "encoded" : why);
    if (refused_for_count)
      CHECK(contains("fuzz bytes", why, "inputs where Slice-8 has 4 to 5"));
    if (encoded)
      mc_fuzz_bytes_free(&bytes);
    free_slice(&s);
  }
}

/* ---- the isolated implementations: what each receives ---- */

static mc_impl *open_impl(const char *spec) {
  mc_impl_options options = {.timeout_seconds = 120,
                             .handshake_timeout_seconds = 120,
                             .max_output_bytes = (size_t)1 << 20,
                             .payload = MC_ADAPTER_PAYLOAD_BASE64};
  char err[512] = "";
  mc_impl *impl = mc_impl_open(spec, &options, err, sizeof err);
  CHECK(impl != NULL);
  if (!impl)
    fprintf(stderr, "  cannot open %s: %s\n", spec, err);
  return impl;
}

static void run_one(mc_impl *impl, const mc_request *req, mc_impl_result *result) {
  memset(result, 0, sizeof *result);
  impl->calls++;
  impl->run(impl, req, result);
  if (result->outcome == MC_OUTCOME_OUTPUT)
    mc_tensor_free(&result->output);
}

/* Each request is rejected, the message saying what arrived. */
static void expect_received_varied(mc_impl *impl, int n_inputs, void (*vary)(slice_request *),
                                   const char *wanted) {
  slice_request s;
  make_slice(&s, n_inputs);
  if (vary)
    vary(&s);
  mc_impl_result result;
  run_one(impl, &s.req, &result);
  CHECK_EQ_I64(result.outcome, MC_OUTCOME_REJECTED);
  CHECK(contains(impl->name, result.message, wanted));
  free_slice(&s);
}

static void expect_received(mc_impl *impl, int n_inputs, const char *wanted) {
  expect_received_varied(impl, n_inputs, NULL, wanted);
}

/* What the implementation opened by spec reports for Slice-8 requests of
   4, 5 and 3 inputs (the last one Slice-8 cannot have: never sent). */
static void expect_transport(const char *spec, const char *four, const char *five,
                             const char *three) {
  mc_impl *impl = open_impl(spec);
  if (!impl)
    return;
  expect_received(impl, 4, four);
  expect_received(impl, 5, five);
  expect_received(impl, 3, three);
  mc_impl_close(impl);
}

#define ECHO_ADAPTER "exec:exec " PYTHON " " MOVCONF_SOURCE_DIR "/tests/echo_inputs_adapter.py"

static void test_adapter_protocol(void) {
  expect_transport(ECHO_ADAPTER, "inputs data,start,stop,step; start 11; stop 22; step 33",
                   "inputs data,start,stop,step,axes; start 11; stop 22; step 33; axes 44",
                   "malformed request: not sent to the adapter");
}

/* A boolean and a data-typed scalar side input reach the adapter and the
   plugin (over the fork wire) and are sent, not refused as malformed. */
static void test_other_side_types_sent(void) {
  mc_impl *impl = open_impl(ECHO_ADAPTER);
  if (impl) {
    expect_received_varied(impl, 4, other_side_types, "start 11; stop 1; step 33");
    mc_impl_close(impl);
  }
  impl = open_impl("plugin:" PLUGIN_MOCK);
  if (impl) {
    expect_received_varied(impl, 4, other_side_types, "4 inputs: data u8 [2,3]; start 11;");
    mc_impl_close(impl);
  }
  slice_request s;
  make_slice(&s, 4);
  other_side_types(&s);
  mc_plugin_call call;
  CHECK(mc_plugin_call_init(&call, &s.req, 1 << 20));
  CHECK_EQ_I64(call.query_v3.input_types[2], MC_BOOLEAN);
  CHECK_EQ_I64(call.query_v3.input_types[3], MC_U8);
  CHECK_EQ_I64(call.query_v3.input_ranks[3], 0);
  CHECK(call.request_v3.inputs[3].data == s.t[3].data);
  mc_plugin_call_free(&call);
  free_slice(&s);
}

static void test_plugin_v3(void) {
  expect_transport("plugin:" PLUGIN_MOCK, "4 inputs: data u8 [2,3]; start 11; stop 22; step 33;",
                   "5 inputs: data u8 [2,3]; start 11; stop 22; step 33; axes 44;",
                   "malformed request: not sent to the plugin");
}

/* A plugin of version 2 (the mock built with MOCK_ABI=2) answers the
   operations version 2 has, and is never asked for Slice-8. */
static void test_plugin_v2(void) {
  mc_impl *impl = open_impl("plugin:" PLUGIN_MOCK_V2);
  if (!impl)
    return;
  mc_tensor data;
  const int64_t shape[4] = {1, 1, 2, 2};
  CHECK(mc_tensor_alloc(&data, MC_U8, 4, shape, 64) == MC_OK);
  mc_request s2d = {.op = MC_OP_SPACE_TO_DEPTH, .n_inputs = 1, .inputs = {&data}};
  s2d.attrs = mc_attrs_none();
  mc_impl_result result;
  run_one(impl, &s2d, &result);
  CHECK_EQ_I64(result.outcome, MC_OUTCOME_REJECTED);
  CHECK(contains("v2 plugin, SpaceToDepth-1", result.message, "1 inputs: data u8 [1,1,2,2];"));
  for (int n = 4; n <= 5; n++) {
    slice_request s;
    make_slice(&s, n);
    run_one(impl, &s.req, &result);
    CHECK_EQ_I64(result.outcome, MC_OUTCOME_UNSUPPORTED);
    free_slice(&s);
  }
  mc_impl_close(impl);
  mc_tensor_free(&data);
}

/* ---- the presentation itself (plugin_call.c), without a process ---- */

static int asked;
static int count_v2(const movconf_plugin_query_v2 *q) {
  (void)q;
  return ++asked;
}
static int count_v1(const movconf_plugin_query *q) {
  (void)q;
  return ++asked;
}
static int last_inputs;
static int count_v3(const movconf_plugin_query_v3 *q) {
  last_inputs = q->n_inputs;
  return ++asked;
}

static void test_presentation(void) {
  slice_request s;
  make_slice(&s, 5);
  mc_plugin_call call;
  CHECK(mc_plugin_call_init(&call, &s.req, 1 << 20));
  const movconf_plugin_request_v3 *r = &call.request_v3;
  CHECK_EQ_I64(r->n_inputs, 5);
  CHECK_STR(r->op_name, "Slice-8");
  CHECK_EQ_I64(r->op, MOVCONF_PLUGIN_SLICE);
  for (int i = 0; i < 5; i++) {
    CHECK(r->inputs[i].data == s.t[i].data && r->inputs[i].rank == s.t[i].rank);
    CHECK_EQ_I64(call.query_v3.input_types[i], s.t[i].type);
    CHECK_EQ_I64(call.query_v3.input_ranks[i], s.t[i].rank);
  }
  const movconf_plugin_v3 v3 = {.abi_version = MOVCONF_PLUGIN_ABI_V3, .supports = count_v3};
  const movconf_plugin_v2 v2 = {.abi_version = MOVCONF_PLUGIN_ABI_V2, .supports = count_v2};
  const movconf_plugin_v1 v1 = {.abi_version = MOVCONF_PLUGIN_ABI_V1, .supports = count_v1};
  mc_plugin p3 = {.abi = 3, .v3 = &v3}, p2 = {.abi = 2, .v2 = &v2}, p1 = {.abi = 1, .v1 = &v1};
  asked = 0;
  CHECK_EQ_I64(mc_plugin_supports(&p2, &call), 0);
  CHECK_EQ_I64(mc_plugin_supports(&p1, &call), 0);
  CHECK_EQ_I64(asked, 0);
  CHECK_EQ_I64(mc_plugin_supports(&p3, &call), 1);
  CHECK_EQ_I64(last_inputs, 5);
  mc_plugin_call_free(&call);
  /* Four inputs fit version 2's request, but it still does not know the op. */
  s.req.n_inputs = 4;
  CHECK(mc_plugin_call_init(&call, &s.req, 1 << 20));
  asked = 0;
  CHECK_EQ_I64(mc_plugin_supports(&p2, &call), 0);
  CHECK_EQ_I64(asked, 0);
  CHECK_EQ_I64(call.request_v3.n_inputs, 4);
  mc_plugin_call_free(&call);
  free_slice(&s);
}

int main(void) {
  /* The mock's fault for every request, inherited by its process. */
  setenv("MOVCONF_MOCK_FAULT", "echo-inputs@*", 1);
  test_loader();
  test_writer_round_trip(4, NULL);
  test_writer_round_trip(5, NULL);
  test_writer_round_trip(4, other_side_types);
  test_presentation();
  test_fuzz_bytes_count();
  test_adapter_protocol();
  test_plugin_v3();
  test_plugin_v2();
  test_other_side_types_sent();
  return check_report();
}
