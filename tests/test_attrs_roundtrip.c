/* Attributes by id through every representation of a request: case JSON
   (writer and loader), the adapter protocol's JSON, the plugin host's wire
   and fuzz bytes. No operation has two integer attributes yet, so the test
   hook of names_test.h gives SpaceToDepth-1 block_size, mode, axis and
   group: each integer must come back as itself, never as another's value. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <unistd.h>

#include "cases/bytes/fuzz_bytes.h"
#include "cases/case_writer.h"
#include "cases/cases.h"
#include "cases/json.h"
#include "check.h"
#include "common/names_test.h"
#include "harness/impl/plugin/plugin_call.h"
#include "harness/impl/plugin/plugin_wire.h"
#include "movconf/tensor.h"

static const mc_attr four_attrs[] = {MC_ATTR_BLOCK_SIZE, MC_ATTR_MODE, MC_ATTR_AXIS, MC_ATTR_GROUP};

/* A SpaceToDepth request on [1,1,2,2] u8 with the given integers (absent
   when has is false). */
typedef struct sample {
  mc_tensor data;
  mc_request req;
  /* What was set, by hand: block_size, axis, group (present, value). */
  bool has[3];
  int64_t value[3];
} sample;

static const mc_attr ints[3] = {MC_ATTR_BLOCK_SIZE, MC_ATTR_AXIS, MC_ATTR_GROUP};

static void make_sample(sample *s, bool has_axis, int64_t axis, bool has_group, int64_t group) {
  int64_t shape[4] = {1, 1, 2, 2};
  CHECK(mc_tensor_alloc(&s->data, MC_U8, 4, shape, 1 << 20) == MC_OK);
  for (size_t i = 0; i < s->data.nbytes; i++)
    s->data.data[i] = (uint8_t)i;
  s->req = (mc_request){.op = MC_OP_SPACE_TO_DEPTH, .n_inputs = 1, .attrs = mc_attrs_none()};
  s->req.inputs[0] = &s->data;
  mc_attrs_set_int(&s->req.attrs, MC_ATTR_BLOCK_SIZE, 2);
  mc_attrs_set_string(&s->req.attrs, MC_ATTR_MODE, "depth_first");
  if (has_axis)
    mc_attrs_set_int(&s->req.attrs, MC_ATTR_AXIS, axis);
  if (has_group)
    mc_attrs_set_int(&s->req.attrs, MC_ATTR_GROUP, group);
  *s = (sample){s->data, s->req, {true, has_axis, has_group}, {2, axis, group}};
}

/* b holds the integers s was made with (an absent one reads as 1, its
   default) and its mode. */
static void check_attrs(const sample *s, const mc_attrs *b) {
  for (int i = 0; i < 3; i++) {
    CHECK_EQ_I64(mc_attrs_present(b, ints[i]), s->has[i]);
    CHECK_EQ_I64(mc_attrs_int(b, ints[i]), s->has[i] ? s->value[i] : 1);
  }
  CHECK_STR(mc_attrs_string(b, MC_ATTR_MODE), "depth_first");
}

static void through_case_json(const sample *s) {
  mc_text t = {0};
  mc_case_out c = {.id = "two-ints",
                   .origin = "hand",
                   .clauses = {"S2D-V1"},
                   .n_clauses = 1,
                   .req = &s->req,
                   .data_fill = MC_PAYLOAD_HEX,
                   .expect_error = true,
                   .error = MC_E_INVALID_ARGUMENT};
  mc_write_file_head(&t, s->req.op, "two integer attributes");
  mc_write_case(&t, &c);
  mc_text_printf(&t, "\n  ]\n}\n");
  CHECK(!t.oom);
  mc_case_file f;
  char err[512] = "";
  bool parsed = mc_case_file_parse(t.p, t.len, "two-ints.json", &f, err, sizeof err);
  CHECK(parsed);
  if (!parsed) {
    fprintf(stderr, "%s\n%.*s\n", err, (int)t.len, t.p);
  } else {
    CHECK_EQ_I64(f.n_cases, 1);
    check_attrs(s, &f.cases[0].attrs);
    mc_case_file_free(&f);
  }
  mc_text_free(&t);
}

/* The protocol's "attributes" object, as an adapter reads it: JSON, each
   integer under its own name with its exact digits. */
static void through_protocol(const sample *s) {
  mc_text t = {0};
  mc_json_write_attrs(&t, MC_JSON_PROTOCOL, &s->req);
  mc_text_put(&t, "", 1);
  cJSON *o = cJSON_Parse(t.p);
  CHECK(o != NULL);
  for (int i = 0; o && i < 3; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, mc_attr_name(ints[i]));
    CHECK_EQ_I64(cJSON_IsNumber(v), s->has[i]);
    char member[64];
    snprintf(member, sizeof member, "\"%s\":%" PRId64, mc_attr_name(ints[i]), s->value[i]);
    const char *at = strstr(t.p, member);
    CHECK_EQ_I64(at && strchr(",}", at[strlen(member)]) != NULL, v != NULL);
  }
  cJSON_Delete(o);
  mc_text_free(&t);
}

static bool read_all(int fd, void *buf, size_t len) {
  for (char *p = buf; len > 0;) {
    ssize_t n = read(fd, p, len);
    if (n <= 0)
      return false;
    p += n;
    len -= (size_t)n;
  }
  return true;
}

/* What impl_plugin.c sends and plugin_host.c reads, through a pipe. */
static void through_wire(const sample *s) {
  int fds[2];
  CHECK(pipe(fds) == 0);
  mc_wire_request w;
  memset(&w, 0, sizeof w);
  const char *strings[MC_ATTR_COUNT];
  mc_wire_put_attrs(&w, &s->req, strings);
  for (int i = 0; i < MC_ATTR_COUNT; i++)
    if (strings[i])
      CHECK(write(fds[1], strings[i], strlen(strings[i])) == (ssize_t)strlen(strings[i]));
  close(fds[1]);
  char *owned[MC_ATTR_COUNT];
  mc_attrs back;
  CHECK(mc_wire_get_attrs(&w, read_all, fds[0], owned, &back));
  check_attrs(s, &back);
  for (int i = 0; i < MC_ATTR_COUNT; i++)
    free(owned[i]);
  close(fds[0]);
}

static void through_fuzz_bytes(const sample *s) {
  mc_fuzz_input in;
  memset(&in, 0, sizeof in);
  in.req = s->req;
  in.threads = 1;
  in.max_output_bytes = mc_fuzz_natural_cap(MC_U8, false);
  in.data_fill = MC_FUZZ_FILL_BYTES;
  mc_fuzz_bytes bytes;
  char why[256] = "";
  bool encoded = mc_fuzz_encode(&in, &bytes, why, sizeof why);
  CHECK(encoded);
  if (!encoded) {
    fprintf(stderr, "encoder: %s\n", why);
    return;
  }
  mc_fuzz_input back;
  bool decoded = mc_fuzz_decode(bytes.data, bytes.size, &back);
  CHECK(decoded);
  if (decoded) {
    check_attrs(s, &back.req.attrs);
    mc_fuzz_input_free(&back);
  }
  mc_fuzz_bytes_free(&bytes);
}

/* Plugin ABI versions 2 and 3: a list a plugin reads by name. */
static void through_plugin_abi(const sample *s) {
  mc_plugin_call call;
  CHECK(mc_plugin_call_init(&call, &s->req, 1 << 20));
  const movconf_plugin_request_v2 *r = &call.request_v2;
  CHECK_STR(r->op_name, "SpaceToDepth-1");
  for (int i = 0; i < 3; i++) {
    const movconf_plugin_attr *a =
        movconf_plugin_find_attr(r->n_attrs, r->attrs, mc_attr_name(ints[i]));
    CHECK_EQ_I64(a != NULL, s->has[i]);
    if (a) {
      CHECK_EQ_I64(a->kind, MOVCONF_PLUGIN_ATTR_INT);
      CHECK_EQ_I64(a->value.i, s->value[i]);
    }
  }
  const movconf_plugin_attr *mode = movconf_plugin_find_attr(r->n_attrs, r->attrs, "mode");
  CHECK(mode && mode->kind == MOVCONF_PLUGIN_ATTR_STRING);
  CHECK_STR(mode ? mode->value.s : NULL, "depth_first");
  CHECK(movconf_plugin_find_attr(r->n_attrs, r->attrs, "sizes") == NULL);
  CHECK(call.query_v2.attrs == r->attrs && call.query_v2.n_attrs == r->n_attrs);
  /* Version 3 hands on the same list. */
  CHECK(call.request_v3.attrs == r->attrs && call.request_v3.n_attrs == r->n_attrs);
  CHECK(call.query_v3.attrs == r->attrs && call.query_v3.n_attrs == r->n_attrs);
  /* Version 1 has block_size's field and none for the others. */
  CHECK_EQ_I64(call.request.attrs.block_size, 2);
  mc_plugin_call_free(&call);
}

static void round_trip(bool has_axis, int64_t axis, bool has_group, int64_t group) {
  sample s;
  make_sample(&s, has_axis, axis, has_group, group);
  through_case_json(&s);
  through_protocol(&s);
  through_wire(&s);
  through_fuzz_bytes(&s);
  through_plugin_abi(&s);
  mc_tensor_free(&s.data);
}

int main(void) {
  mc_test_set_op_attrs(MC_OP_SPACE_TO_DEPTH, four_attrs, 4);
  round_trip(true, -3, true, 5);
  round_trip(true, 7, false, 0);
  round_trip(false, 0, true, -9);
  round_trip(true, INT64_MIN, true, INT64_MAX);
  mc_test_set_op_attrs(MC_OP_SPACE_TO_DEPTH, NULL, -1);
  CHECK_EQ_I64(mc_op_attr_count(MC_OP_SPACE_TO_DEPTH), 2);
  return check_report();
}
