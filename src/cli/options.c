/* What the commands' option parsing shares: option values, and what to say
   when getopt_long rejects an option. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* The limits of the implementation options (mc_apply_impl_option). */
#define DEFAULT_TIMEOUT_SECONDS 10.0 /* a case takes at most about 4 s through an adapter */
#define DEFAULT_HANDSHAKE_TIMEOUT_SECONDS 60.0 /* import torch took over 10 s under load */
#define MAX_TIMEOUT_SECONDS 86400.0
#define DEFAULT_MEMORY_LIMIT_MB 4096
#define MAX_MEMORY_LIMIT_MB ((size_t)1 << 24)

const char mc_impl_options_help[] =
    "  --impl SPEC             what to test: optimized (run's and fuzz's default), oracle,\n"
    "                          plugin:PATH.so (spec/plugin-abi.md; a PATH without '/' that\n"
    "                          names a file in the current folder is that file) or\n"
    "                          exec:'COMMAND ARGS' (spec/adapter-protocol.md)\n"
    "  --threads N             threads of the optimized kernels, 1 to 1024 (default:\n"
    "                          MOVCONF_THREADS, else the online CPUs)\n"
    "  --timeout SECONDS       per case (fuzz: per request), for plugins and adapters\n"
    "                          (default 10; 0: none; at most 86400)\n"
    "  --handshake-timeout SECONDS  an adapter's start until its handshake line, at\n"
    "                          least --timeout (default 60; 0: none; at most 86400)\n"
    "  --memory-limit MB       address space each of a plugin's processes may add to what\n"
    "                          it starts with: per process, not all it starts together\n"
    "                          (default 4096; 0: no limit; at most 16777216)\n"
    "  --max-output-bytes N    cap on one output (clause MC-L4; default 1073741824; at most\n"
    "                          2^63-1; a case's own max_output_bytes replaces it)\n"
    "  --sanitize address      plugins and adapters run with AddressSanitizer and UBSan\n"
    "                          reports collected: a report makes the case's verdict\n"
    "                          memory-error (build the plugin with\n"
    "                          -fsanitize=address,undefined; a plugin without it is\n"
    "                          refused; spec/plugin-abi.md)\n"
    "  --fresh-process-per-case  plugins and adapters: a new process for every case\n"
    "                          (default: one process serves cases until it fails)\n"
    "  --payload MODE          how tensors reach an adapter that offers shared memory in\n"
    "                          its handshake: auto (default: a shared memory file for\n"
    "                          requests of 64 KiB or more, base64 for smaller ones),\n"
    "                          shared-memory (every request) or base64 (none)\n"
    "                          (spec/adapter-protocol.md, section 16)\n";

static const char *const payload_names[] = {"auto", "base64", "shared-memory"};

static const struct option impl_long_options[] = {MC_IMPL_LONG_OPTIONS, {NULL, 0, NULL, 0}};

mc_impl_choice mc_impl_choice_default(void) {
  return (mc_impl_choice){
      .spec = "optimized",
      .options = {.max_output_bytes = MC_DEFAULT_MAX_OUTPUT_BYTES,
                  .timeout_seconds = DEFAULT_TIMEOUT_SECONDS,
                  .handshake_timeout_seconds = DEFAULT_HANDSHAKE_TIMEOUT_SECONDS,
                  .memory_limit_mb = DEFAULT_MEMORY_LIMIT_MB}};
}

bool mc_is_impl_option(int opt) {
  return opt >= MC_OPT_IMPL && opt <= MC_OPT_HANDSHAKE_TIMEOUT;
}

/* The problem with an implementation option's value, or NULL. */
static const char *impl_option_problem(int opt, const char *value, mc_impl_choice *c) {
  mc_impl_options *o = &c->options;
  switch (opt) {
  case MC_OPT_IMPL:
    c->spec = value;
    return NULL;
  case MC_OPT_THREADS:
    return mc_parse_threads(value, &o->threads) ? NULL : "takes a number from 1 to 1024";
  case MC_OPT_TIMEOUT:
    return mc_parse_seconds(value, MAX_TIMEOUT_SECONDS, &o->timeout_seconds)
               ? NULL
               : "takes seconds from 0 (no timeout) to 86400";
  case MC_OPT_HANDSHAKE_TIMEOUT:
    return mc_parse_seconds(value, MAX_TIMEOUT_SECONDS, &o->handshake_timeout_seconds)
               ? NULL
               : "takes seconds from 0 (no timeout) to 86400";
  case MC_OPT_MEMORY_LIMIT:
    return mc_parse_size(value, &o->memory_limit_mb) && o->memory_limit_mb <= MAX_MEMORY_LIMIT_MB
               ? NULL
               : "takes MiB from 0 (no limit) to 16777216";
  case MC_OPT_MAX_OUTPUT_BYTES:
    /* Adapters read it as an int64 (spec/adapter-protocol.md). */
    return mc_parse_size(value, &o->max_output_bytes) && o->max_output_bytes <= INT64_MAX
               ? NULL
               : "takes a byte count from 0 to 9223372036854775807";
  case MC_OPT_SANITIZE:
    o->sanitize = strcmp(value, "address") == 0;
    return o->sanitize ? NULL : "takes address";
  case MC_OPT_FRESH_PROCESS:
    o->fresh_process_per_case = true;
    return NULL;
  case MC_OPT_PAYLOAD:
    for (mc_adapter_payload p = MC_ADAPTER_PAYLOAD_AUTO; p <= MC_ADAPTER_PAYLOAD_SHARED_MEMORY; p++)
      if (strcmp(value, payload_names[p]) == 0) {
        o->payload = p;
        return NULL;
      }
    return "takes auto, base64 or shared-memory";
  }
  return NULL;
}

int mc_apply_impl_option(const char *command, int opt, const char *value, mc_impl_choice *c) {
  const char *problem = impl_option_problem(opt, value ? value : "", c);
  if (!problem)
    return -1;
  char *safe = mc_safe_text(value);
  fprintf(stderr, "movconf %s: --%s %s, not '%s'\n", command,
          mc_option_name(impl_long_options, opt), problem, safe);
  free(safe);
  return 2;
}

int mc_check_threads_environment(const char *command, int threads_option) {
  const char *env = getenv("MOVCONF_THREADS");
  int threads;
  if (!env || !*env || threads_option > 0 || mc_parse_threads(env, &threads)) /* empty: unset */
    return -1;
  fprintf(stderr, "movconf %s: MOVCONF_THREADS takes a number from 1 to 1024, not '%s'\n", command,
          env);
  return 2;
}

bool mc_parse_threads(const char *text, int *out) {
  return mc_parse_count(text, 1, 1024, out);
}

void mc_suggest_op(const char *text) {
  const char *best = mc_op_suggestion(text);
  if (best)
    fprintf(stderr, "did you mean %s?\n", best);
}

int mc_option_error(const char *command, const char *arg, const struct option *options) {
  if (arg && strncmp(arg, "--", 2) == 0) {
    char name[64];
    snprintf(name, sizeof name, "%s", arg + 2);
    name[strcspn(name, "=")] = '\0';
    const char *best = NULL;
    size_t best_distance = 3; /* farther is no suggestion */
    for (const struct option *o = options; o->name; o++) {
      size_t d = mc_edit_distance(name, o->name);
      if (d < best_distance) {
        best_distance = d;
        best = o->name;
      }
    }
    if (best && best_distance > 0) /* 0: the option is right, its value missing */
      fprintf(stderr, "did you mean --%s?\n", best);
  }
  return mc_usage_error(command);
}

int mc_usage_error(const char *command) {
  fprintf(stderr, "(see movconf %s --help)\n", command);
  return 2;
}

const char *mc_option_name(const struct option *options, int value) {
  for (const struct option *o = options; o->name; o++)
    if (o->val == value)
      return o->name;
  return "?";
}
