/* Third-party implementations in movconf bench (harness/bench_impl.h). */
#include "harness/bench/bench_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/bench/bench_watch.h"
#include "harness/harness.h"
#include "harness/impl/plugin/plugin_call.h"
#include "movconf/tensor.h"

struct mc_bench_impl {
  char name[160];
  const mc_plugin *plugin;
  mc_plugin_call call;
  bool prepared;
  movconf_plugin_output output;
  /* exec:COMMAND, timing itself through the timing request */
  mc_impl *adapter;
  mc_self_timing timed;
};

static mc_bench_impl *open_plugin(const char *path, char *err, size_t errlen) {
  mc_bench_watch_enter(); /* its initialization is the plugin's code too */
  const mc_plugin *table = mc_plugin_load(path, NULL, err, errlen);
  mc_bench_watch_leave();
  mc_bench_watch_check_copy();
  if (!table)
    return NULL;
  mc_bench_impl *impl = calloc(1, sizeof *impl);
  if (!impl) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  impl->plugin = table;
  snprintf(impl->name, sizeof impl->name, "%s %s", table->name, table->version);
  return impl;
}

/* The adapter is the one movconf run uses (isolation, timeouts, the
   protocol's checks), asked for the timing request its handshake declares. */
static mc_bench_impl *open_adapter(const char *spec, char *err, size_t errlen) {
  mc_impl_options options = {.timeout_seconds = 60,
                             .handshake_timeout_seconds = 60,
                             .max_output_bytes = MC_DEFAULT_MAX_OUTPUT_BYTES};
  mc_bench_impl *impl = calloc(1, sizeof *impl);
  if (!impl || !(impl->adapter = mc_impl_open(spec, &options, err, errlen))) {
    if (!impl)
      snprintf(err, errlen, "out of memory");
    free(impl);
    return NULL;
  }
  if (!impl->adapter->time_itself) {
    snprintf(err, errlen,
             "%s does not declare the timing request (\"timing\": true in its handshake, "
             "spec/adapter-protocol.md); timing it from here would time the pipe",
             impl->adapter->name);
    mc_impl_close(impl->adapter);
    free(impl);
    return NULL;
  }
  snprintf(impl->name, sizeof impl->name, "%s", impl->adapter->name);
  return impl;
}

mc_bench_impl *mc_bench_impl_open(const char *spec, char *err, size_t errlen) {
  if (strncmp(spec, "plugin:", 7) == 0)
    return open_plugin(spec + 7, err, errlen);
  if (strncmp(spec, "exec:", 5) == 0)
    return open_adapter(spec, err, errlen);
  snprintf(err, errlen, "--impl takes plugin:PATH or exec:COMMAND, not '%s'", spec);
  return NULL;
}

void mc_bench_impl_close(mc_bench_impl *impl) {
  if (!impl)
    return;
  mc_bench_impl_release(impl);
  mc_impl_close(impl->adapter);
  free(impl); /* a plugin stays loaded: the ABI lets it keep state until exit */
}

const char *mc_bench_impl_name(const mc_bench_impl *impl) {
  return impl->name;
}

static mc_bench_impl_status plugin_failed(const movconf_plugin_message *m, const char *what,
                                          char *detail, size_t len) {
  snprintf(detail, len, "%s: %s%s%s", what, m->error[0] ? m->error : "rejected",
           m->text[0] ? ": " : "", m->text);
  return MC_BENCH_IMPL_FAILED;
}

static mc_bench_impl_status prepare_plugin(mc_bench_impl *impl, const mc_request *req,
                                           mc_tensor *out, char *detail, size_t len) {
  const mc_plugin *t = impl->plugin;
  if (!mc_plugin_call_init(&impl->call, req, MC_DEFAULT_MAX_OUTPUT_BYTES)) {
    snprintf(detail, len, "cannot present the request to the plugin");
    return MC_BENCH_IMPL_FAILED;
  }
  impl->prepared = true;
  if (!mc_plugin_supports(t, &impl->call)) {
    snprintf(detail, len, "the plugin does not claim this request");
    return MC_BENCH_IMPL_UNSUPPORTED;
  }
  movconf_plugin_message m = {0};
  memset(&impl->output, 0, sizeof impl->output);
  if (mc_plugin_output_shape(t, &impl->call, &impl->output, &m) != MOVCONF_PLUGIN_OK)
    return plugin_failed(&m, "output_shape()", detail, len);
  size_t nbytes = 0;
  char error[64], message[256];
  if (mc_plugin_check_announced(&impl->output, MC_DEFAULT_MAX_OUTPUT_BYTES, &nbytes, error,
                                sizeof error, message, sizeof message) != MC_PLUGIN_ANNOUNCED_OK) {
    snprintf(detail, len, "output_shape() announced %s", message);
    return MC_BENCH_IMPL_FAILED;
  }
  if (mc_tensor_alloc(out, (mc_type)impl->output.type, impl->output.rank, impl->output.shape,
                      MC_DEFAULT_MAX_OUTPUT_BYTES) != MC_OK) {
    snprintf(detail, len, "cannot allocate the plugin's output (%zu bytes)", nbytes);
    return MC_BENCH_IMPL_FAILED;
  }
  memset(out->data, 0xa5, out->nbytes); /* unwritten bytes must show */
  impl->output.data = out->data;
  impl->output.nbytes = out->nbytes;
  if (mc_plugin_run(t, &impl->call, &impl->output, &m) != MOVCONF_PLUGIN_OK)
    return plugin_failed(&m, "run()", detail, len);
  return MC_BENCH_IMPL_OK;
}

static mc_bench_impl_status time_adapter(mc_bench_impl *impl, const mc_request *req,
                                         const mc_bench_impl_plan *plan, mc_tensor *out,
                                         char *detail, size_t len) {
  mc_timing_request timing = {.runs =
                                  plan->runs < MC_TIMING_MAX_RUNS ? plan->runs : MC_TIMING_MAX_RUNS,
                              .min_run_seconds = plan->min_run_seconds};
  mc_impl_result r;
  memset(&r, 0, sizeof r);
  impl->adapter->calls++;
  impl->adapter->time_itself(impl->adapter, req, &timing, &r, &impl->timed);
  switch (r.outcome) {
  case MC_OUTCOME_OUTPUT:
    *out = r.output;
    return MC_BENCH_IMPL_OK;
  case MC_OUTCOME_UNSUPPORTED:
    snprintf(detail, len, "%s", r.message);
    return MC_BENCH_IMPL_UNSUPPORTED;
  default:
    snprintf(detail, len, "%s%s", r.outcome == MC_OUTCOME_REJECTED ? "rejected: " : "", r.message);
    mc_tensor_free(&r.output);
    return MC_BENCH_IMPL_FAILED;
  }
}

mc_bench_impl_status mc_bench_impl_prepare(mc_bench_impl *impl, const mc_request *req,
                                           const mc_bench_impl_plan *plan, mc_tensor *out,
                                           char *detail, size_t detail_len) {
  memset(out, 0, sizeof *out);
  mc_bench_impl_release(impl);
  if (impl->adapter)
    return time_adapter(impl, req, plan, out, detail, detail_len);
  mc_bench_watch_enter();
  mc_bench_impl_status status = prepare_plugin(impl, req, out, detail, detail_len);
  mc_bench_watch_leave();
  mc_bench_watch_check_copy();
  return status;
}

bool mc_bench_impl_times_itself(const mc_bench_impl *impl) {
  return impl->adapter != NULL;
}

double mc_bench_impl_own_timing(const mc_bench_impl *impl, int *runs, long *calls_per_run) {
  *runs = impl->timed.runs;
  *calls_per_run = impl->timed.calls_per_run;
  return impl->timed.median_seconds;
}

/* A call is what a user pays for: output_shape() (validation), then run(),
   which the ABI allows only after output_shape() accepted the request. */
bool mc_bench_impl_call(void *ctx) {
  mc_bench_impl *impl = ctx;
  const mc_plugin *t = impl->plugin;
  movconf_plugin_output shape = {0};
  movconf_plugin_message m = {0};
  mc_bench_watch_enter();
  bool ok = mc_plugin_output_shape(t, &impl->call, &shape, &m) == MOVCONF_PLUGIN_OK &&
            mc_plugin_run(t, &impl->call, &impl->output, &m) == MOVCONF_PLUGIN_OK;
  mc_bench_watch_leave();
  return ok;
}

void mc_bench_impl_release(mc_bench_impl *impl) {
  if (impl->prepared)
    mc_plugin_call_free(&impl->call);
  impl->prepared = false;
}
