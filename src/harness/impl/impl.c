/* The built-in implementations and the --impl dispatcher. */
#include "harness/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "harness/impl/exec/impl_exec.h"
#include "harness/impl/plugin/impl_plugin.h"
#include "movconf/optimized.h"
#include "movconf/oracle.h"
#include "movconf/tensor.h"

static void fill_from_status(mc_status s, const mc_error *err, mc_impl_result *result) {
  if (s == MC_OK) {
    result->outcome = MC_OUTCOME_OUTPUT;
    return;
  }
  result->outcome = MC_OUTCOME_REJECTED;
  result->status = s;
  result->clause = err->clause;
  snprintf(result->message, sizeof result->message, "%s", err->message);
}

static void oracle_run(mc_impl *self, const mc_request *req, mc_impl_result *result) {
  mc_error err;
  mc_status s = mc_oracle_run(req, self->options.max_output_bytes, &result->output, &err);
  fill_from_status(s, &err, result);
}

/* The output starts as junk (this call's fill, 0xA5 or the second fill, as a
   plugin's does in plugin_host.c), not as the zeros of a fresh allocation: an
   element the kernels never write, such as a forgotten zero fill, then fails
   its case (docs/mutation.md). */
static void optimized_run(mc_impl *self, const mc_request *req, mc_impl_result *result) {
  mc_error err;
  mc_type type;
  int rank;
  int64_t shape[MC_TENSOR_MAX_RANK];
  size_t cap = self->options.max_output_bytes;
  mc_status s = mc_optimized_output_shape(req, cap, &type, &rank, shape, &err);
  if (s == MC_OK && (s = mc_tensor_alloc(&result->output, type, rank, shape, cap)) != MC_OK)
    s = mc_fail(&err, s, NULL, "cannot allocate the output");
  if (s == MC_OK) {
    memset(result->output.data, mc_impl_output_fill(&self->options), result->output.nbytes);
    s = mc_optimized_run_into(req, self->options.threads, &result->output, &err);
    if (s != MC_OK)
      mc_tensor_free(&result->output);
  }
  fill_from_status(s, &err, result);
}

static void builtin_close(mc_impl *self) {
  free(self);
}

static mc_impl *builtin(const char *name, const mc_impl_options *options,
                        void (*run)(mc_impl *, const mc_request *, mc_impl_result *)) {
  mc_impl *impl = calloc(1, sizeof *impl);
  if (!impl)
    return NULL;
  impl->name = name;
  impl->names_errors = true;
  impl->options = *options;
  impl->run = run;
  impl->close = builtin_close;
  return impl;
}

/* A path to a shared library given without plugin: in front. */
static bool looks_like_library(const char *spec) {
  size_t n = strlen(spec);
  return (n > 3 && strcmp(spec + n - 3, ".so") == 0) || strstr(spec, ".so.") != NULL;
}

const char *mc_impl_spellings(void) {
  return "optimized, oracle, plugin:PATH.so, exec:'COMMAND ARGS'";
}

mc_impl *mc_impl_open(const char *spec, const mc_impl_options *options, char *err, size_t errlen) {
  mc_impl *impl = NULL;
  if (strcmp(spec, "oracle") == 0)
    impl = builtin("oracle", options, oracle_run);
  else if (strcmp(spec, "optimized") == 0 && (impl = builtin("optimized", options, optimized_run)))
    impl->fills_output = true;
  else if (strncmp(spec, "plugin:", 7) == 0)
    return mc_impl_open_plugin(spec + 7, options, err, errlen);
  else if (strncmp(spec, "exec:", 5) == 0)
    return mc_impl_open_exec(spec + 5, options, err, errlen);
  else {
    const char *hint = looks_like_library(spec) ? "; a shared library is given as plugin:" : "";
    snprintf(err, errlen, "unknown implementation '%s' (available: %s)%s%s", spec,
             mc_impl_spellings(), hint, *hint ? spec : "");
    return NULL;
  }
  if (!impl)
    snprintf(err, errlen, "out of memory");
  return impl;
}

void mc_impl_close(mc_impl *impl) {
  if (impl)
    impl->close(impl);
}
