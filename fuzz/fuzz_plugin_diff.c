/* Differential target for kernel authors: the oracle against a plugin
   (include/movconf/plugin.h) loaded in this process from the path in
   MOVCONF_FUZZ_PLUGIN, or else from fuzz_plugin_diff.plugin.so beside this
   executable (where fuzz/build.sh puts it for OSS-Fuzz and ClusterFuzzLite,
   which set no variables). The plugin is handed each request exactly as
   `movconf run --impl plugin:PATH` hands it (src/harness/impl/plugin/plugin_call.c), but
   without the isolating child process, so that the fuzzer sees the
   plugin's coverage and crashes directly. Checks: the same accept/reject
   decision as the oracle (and the same error name when the plugin names
   one), then the same type, shape and bytes; the plugin must not write to
   its inputs or past its output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases/bytes/fuzz_bytes.h"
#include "fuzz_common.h"
#include "harness/impl/plugin/plugin_call.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

static const char target[] = "plugin_diff";

enum { CANARY_BYTES = 64, CANARY = 0xCB, POISON = 0xA5 };

/* The plugin's path: MOVCONF_FUZZ_PLUGIN, else PLUGIN_BESIDE in this
   executable's folder when it is there; NULL when neither. */
#define PLUGIN_BESIDE "fuzz_plugin_diff.plugin.so"
static const char *plugin_path(char *buf, size_t n) {
  const char *path = getenv("MOVCONF_FUZZ_PLUGIN");
  if (path && *path)
    return path;
  ssize_t len = readlink("/proc/self/exe", buf, n - 1);
  if (len <= 0)
    return NULL;
  buf[len] = '\0';
  char *slash = strrchr(buf, '/');
  if (!slash || (size_t)(slash + 1 - buf) + sizeof PLUGIN_BESIDE > n)
    return NULL;
  memcpy(slash + 1, PLUGIN_BESIDE, sizeof PLUGIN_BESIDE);
  return access(buf, F_OK) == 0 ? buf : NULL;
}

static const mc_plugin *the_plugin(void) {
  static const mc_plugin *table;
  if (table)
    return table;
  char beside[4096];
  const char *path = plugin_path(beside, sizeof beside);
  if (!path) {
    fprintf(stderr, "fuzz_plugin_diff: set MOVCONF_FUZZ_PLUGIN to the plugin's shared library "
                    "(spec/plugin-abi.md), or put it beside this program as " PLUGIN_BESIDE "\n");
    exit(2);
  }
  char err[512];
  table = mc_plugin_load(path, NULL, err, sizeof err);
  if (!table) {
    fprintf(stderr, "fuzz_plugin_diff: %s\n", err);
    exit(2);
  }
  return table;
}

typedef struct verdict {
  bool accepted;
  char error[64]; /* when rejected: the plugin's error name, or "" */
  movconf_plugin_output output;
  size_t nbytes;
} verdict;

static const char *rejection_name(const verdict *v) {
  return v->error[0] ? v->error : "rejected";
}

/* output_shape(), and the runner's own checks of what it announced. */
static verdict ask_shape(const mc_plugin *t, const mc_plugin_call *call, mc_op op,
                         mc_status expected) {
  verdict v;
  memset(&v, 0, sizeof v);
  movconf_plugin_message m;
  memset(&m, 0, sizeof m);
  int s = mc_plugin_output_shape(t, call, &v.output, &m);
  if (s == MOVCONF_PLUGIN_REJECTED) {
    memcpy(v.error, m.error, sizeof v.error - 1);
    mc_fuzz_detail("plugin rejected: %.*s", (int)sizeof m.text, m.text);
    return v;
  }
  if (s != MOVCONF_PLUGIN_OK)
    mc_fuzz_finding(target, op, MC_VERDICT_CRASH, expected, "abi output_shape-status");
  char message[512];
  switch (mc_plugin_check_announced(&v.output, call->request.max_output_bytes, &v.nbytes, v.error,
                                    sizeof v.error, message, sizeof message)) {
  case MC_PLUGIN_ANNOUNCED_OK:
    v.accepted = true;
    break;
  case MC_PLUGIN_ANNOUNCED_FAULT:
    mc_fuzz_detail("%s", message);
    mc_fuzz_finding(target, op, MC_VERDICT_CRASH, expected, "abi output_shape-announced");
  case MC_PLUGIN_ANNOUNCED_REJECTED:
    break;
  }
  return v;
}

static bool same_shape(const movconf_plugin_output *o, const mc_tensor *want) {
  if (o->type != (int32_t)want->type || o->rank != want->rank)
    return false;
  for (int a = 0; a < o->rank; a++)
    if (o->shape[a] != want->shape[a])
      return false;
  return true;
}

/* run() into a poisoned buffer followed by a canary; compares with want. */
static void run_and_compare(const mc_plugin *t, const mc_plugin_call *call, mc_op op, verdict *v,
                            const mc_tensor *want) {
  uint8_t *buf = malloc(v->nbytes + CANARY_BYTES);
  if (!buf)
    return;
  memset(buf, POISON, v->nbytes);
  memset(buf + v->nbytes, CANARY, CANARY_BYTES);
  v->output.data = buf;
  v->output.nbytes = v->nbytes;
  movconf_plugin_message m;
  memset(&m, 0, sizeof m);
  int s = mc_plugin_run(t, call, &v->output, &m);
  for (int i = 0; i < CANARY_BYTES; i++)
    if (buf[v->nbytes + i] != CANARY)
      mc_fuzz_finding(target, op, MC_VERDICT_CRASH, MC_OK, "abi wrote-past-output");
  if (s == MOVCONF_PLUGIN_REJECTED)
    mc_fuzz_finding(target, op, MC_VERDICT_WRONG_REJECTION, MC_OK, "run");
  if (s != MOVCONF_PLUGIN_OK)
    mc_fuzz_finding(target, op, MC_VERDICT_CRASH, MC_OK, "abi run-status");
  mc_tensor got = *want;
  got.data = buf;
  got.nbytes = v->nbytes;
  mc_fuzz_judge(target, op, MC_OK, want, MC_OK, &got, NULL);
  free(buf);
}

/* A copy of the inputs' bytes, to see whether the plugin wrote to them. */
static uint8_t *snapshot(const mc_request *req, size_t *len) {
  *len = 0;
  for (int i = 0; i < req->n_inputs; i++)
    *len += req->inputs[i]->nbytes;
  uint8_t *copy = malloc(*len ? *len : 1);
  size_t at = 0;
  for (int i = 0; copy && i < req->n_inputs; i++) {
    if (req->inputs[i]->nbytes)
      memcpy(copy + at, req->inputs[i]->data, req->inputs[i]->nbytes);
    at += req->inputs[i]->nbytes;
  }
  return copy;
}

static bool unchanged(const mc_request *req, const uint8_t *copy) {
  size_t at = 0;
  for (int i = 0; i < req->n_inputs; i++) {
    size_t n = req->inputs[i]->nbytes;
    if (n && memcmp(copy + at, req->inputs[i]->data, n) != 0)
      return false;
    at += n;
  }
  return true;
}

/* The plugin's answer to output_shape() beside the oracle's: rejected
   when the oracle accepts, accepted when it rejects, another error (a
   rejection without a name is not judged by its name), another shape. */
static void judge_shape(mc_op op, mc_status sw, const mc_tensor *want, const verdict *v) {
  if (sw == MC_OK && !v->accepted) {
    mc_fuzz_detail("plugin rejected with %s", rejection_name(v));
    mc_fuzz_finding(target, op, MC_VERDICT_WRONG_REJECTION, MC_OK, NULL);
  }
  if (sw != MC_OK && v->accepted)
    mc_fuzz_finding(target, op, MC_VERDICT_MISSED_REJECTION, sw, NULL);
  if (sw != MC_OK && v->error[0] && strcmp(v->error, mc_status_name(sw)) != 0) {
    mc_fuzz_detail("plugin rejected with %s", v->error);
    mc_fuzz_finding(target, op, MC_VERDICT_WRONG_ERROR, sw, NULL);
  }
  if (sw == MC_OK && !same_shape(&v->output, want))
    mc_fuzz_finding(target, op,
                    v->output.type != (int32_t)want->type ? MC_VERDICT_WRONG_OUTPUT
                                                          : MC_VERDICT_WRONG_SHAPE,
                    MC_OK, NULL);
}

static void compare(const mc_plugin *t, const mc_plugin_call *call, const mc_fuzz_input *in) {
  mc_tensor want;
  mc_error err;
  mc_status sw = mc_oracle_run(&in->req, in->max_output_bytes, &want, &err);
  verdict v = ask_shape(t, call, in->req.op, sw);
  judge_shape(in->req.op, sw, &want, &v);
  if (sw == MC_OK)
    run_and_compare(t, call, in->req.op, &v, &want);
  mc_tensor_free(&want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mc_fuzz_setup();
  const mc_plugin *t = the_plugin();
  mc_fuzz_input in;
  if (!mc_fuzz_decode(data, size, &in))
    return -1;
  mc_plugin_call call;
  if (!mc_plugin_call_init(&call, &in.req, in.max_output_bytes)) {
    mc_fuzz_input_free(&in);
    return -1;
  }
  if (mc_plugin_supports(t, &call)) {
    size_t len;
    uint8_t *copy = snapshot(&in.req, &len);
    compare(t, &call, &in);
    if (copy && !unchanged(&in.req, copy))
      mc_fuzz_finding(target, in.req.op, MC_VERDICT_CRASH, MC_OK, "abi wrote-input");
    free(copy);
  }
  mc_plugin_call_free(&call);
  mc_fuzz_input_free(&in);
  return 0;
}
