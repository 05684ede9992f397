/* --impl exec:'COMMAND ARGS': an implementation in any language, run as one
   long-lived child process speaking JSON Lines (spec/adapter-protocol.md).

   The child runs under /bin/sh -c in a process group of its own, so that
   killing the group also ends whatever the shell started. An adapter that
   dies, stops answering or breaks the protocol is killed; the case is
   reported as a crash or a timeout, and a fresh adapter is started for the
   next case. Nothing the adapter writes makes movconf allocate more than
   one reply line of bounded length (a function of the output cap). */
#include "harness/impl/exec/impl_exec.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "harness/impl/carried.h"
#include "harness/impl/child.h"
#include "harness/impl/exec/adapter.h"

/* After this many failed restarts in a row the adapter is not started
   again: the remaining cases are reported at once instead of each one
   waiting for a start that will not come. */
#define MAX_RESTART_FAILURES 3

/* How long an adapter gets to exit at shutdown. */
#define SHUTDOWN_GRACE_SECONDS 2.0

static void crash(mc_adapter *a, mc_impl_result *r, uint64_t id, const char *what) {
  r->outcome = MC_OUTCOME_CRASH;
  snprintf(r->message, sizeof r->message,
           "%.400s (request %" PRIu64 "); the next case gets a fresh adapter", what, id);
  mc_adapter_stop(a);
}

/* The adapter closed a pipe: say how it ended, as far as can be told. */
static void report_end(mc_adapter *a, mc_impl_result *r, uint64_t id, bool replying) {
  siginfo_t info;
  char end[160], what[300];
  if (mc_child_wait_end(a->pid, EXIT_GRACE_SECONDS, &info))
    mc_child_describe_end(&info, end, sizeof end);
  else
    snprintf(end, sizeof end, "closed its %s but kept running", replying ? "output" : "input");
  snprintf(what, sizeof what, "the adapter %s while %s", end,
           replying ? "working on the reply" : "reading the request");
  crash(a, r, id, what);
}

static void report_timeout(mc_adapter *a, mc_impl_result *r, uint64_t id, bool replying) {
  r->outcome = MC_OUTCOME_TIMEOUT;
  char partial[64] = "";
  if (replying && a->len > 0)
    snprintf(partial, sizeof partial, " (%zu bytes of a line came)", a->len);
  snprintf(r->message, sizeof r->message,
           "%s within %g s%s (request %" PRIu64 "); the adapter was killed, the next case gets a "
           "fresh one",
           replying ? "no complete reply" : "the adapter did not read the request", a->timeout,
           partial, id);
  mc_adapter_stop(a);
}

static void exchange_lines(mc_adapter *a, const mc_request *req, uint64_t call,
                           size_t max_output_bytes, mc_impl_result *r) {
  uint64_t id = ++a->last_id;
  double deadline = mc_deadline_within(a->timeout, a->stop_at);
  r->fresh_start = a->served == 0;
  a->served++;
  a->previous_call = a->last_call;
  a->last_call = call;
  io_status s = mc_adapter_send_request(a, req, id, max_output_bytes, deadline);
  bool replying = s == IO_OK; /* the request went out whole */
  size_t limit = mc_adapter_reply_limit(max_output_bytes), line_len = 0;
  if (replying)
    s = mc_adapter_read_line(a, deadline, limit, &line_len);
  char why[400], what[480];
  switch (s) {
  case IO_OK: {
    mc_reply_line L = {.a = a, .n = line_len};
    bool ok = mc_adapter_read_reply(&L, id, max_output_bytes, r, why, sizeof why);
    mc_reply_text_free(&L.text);
    if (ok && !L.taken)
      mc_adapter_consume_line(a, line_len);
    if (ok)
      return;
    snprintf(what, sizeof what, "protocol violation: %s", why);
    crash(a, r, id, what);
    return;
  }
  case IO_CLOSED:
    report_end(a, r, id, replying);
    return;
  case IO_TIMEOUT:
    report_timeout(a, r, id, replying);
    return;
  case IO_TOO_LONG:
    snprintf(what, sizeof what,
             "protocol violation: reply line longer than %zu bytes, the most an output "
             "within the cap of %zu bytes needs",
             limit, max_output_bytes);
    crash(a, r, id, what);
    return;
  default:
    crash(a, r, id, "reading or writing the adapter's pipes failed (out of memory?)");
  }
}

/* One request and its reply, through a fresh shared memory file when the
   adapter offered the payload and the request is worth it: closed as soon
   as the reply is read, so a write after the reply reaches nothing movconf
   reads. Where the file cannot be made the request goes as base64, which
   every adapter takes. */
static void exchange(mc_adapter *a, const mc_request *req, uint64_t call, size_t max_output_bytes,
                     mc_impl_result *r) {
  char why[200];
  if (mc_adapter_wants_shm(a, req, max_output_bytes) &&
      !mc_shm_region_open(&a->region, req, max_output_bytes, why, sizeof why) && !a->warned_shm) {
    fprintf(stderr, "movconf: no shared memory for %s (%s): its requests go as base64\n", a->label,
            why);
    a->warned_shm = true;
  }
  if (a->region.fd >= 0) /* what the reply's output.bytes is held against */
    a->region.expected_output = mc_adapter_expected_output_bytes(req, max_output_bytes);
  exchange_lines(a, req, call, max_output_bytes, r);
  mc_shm_region_close(&a->region);
}

/* ---- the mc_impl interface ---- */

static bool claimed(const mc_adapter *a, const mc_request *req, mc_impl_result *r) {
  mc_type type = req->inputs[0]->type;
  if (type >= 0 && type < MC_TYPE_COUNT && a->claims[req->op][type])
    return true;
  r->outcome = MC_OUTCOME_UNSUPPORTED;
  snprintf(r->message, sizeof r->message, "the adapter's handshake does not list %s for %s",
           mc_type_name(type), mc_op_name(req->op));
  return false;
}

/* Restarts a stopped adapter; on failure reports the case as a crash. */
static bool ensure_running(mc_adapter *a, mc_impl_result *r) {
  if (a->pid > 0)
    return true;
  r->fresh_start = true; /* a failed start owes nothing to earlier cases */
  if (a->restart_failures >= MAX_RESTART_FAILURES) {
    r->outcome = MC_OUTCOME_CRASH;
    snprintf(r->message, sizeof r->message,
             "the adapter failed to restart %d times in a row; not started again",
             MAX_RESTART_FAILURES);
    return false;
  }
  char why[400];
  if (!mc_adapter_start(a, why, sizeof why)) {
    if (mc_impl_start_cut_short(a->stop_at, "adapter", r))
      return false;
    a->restart_failures++;
    r->outcome = MC_OUTCOME_CRASH;
    snprintf(r->message, sizeof r->message, "restarting the adapter failed: %s", why);
    return false;
  }
  a->restart_failures = 0;
  return true;
}

static void exec_run(mc_impl *self, const mc_request *req, mc_impl_result *result) {
  mc_adapter *a = self->state;
  if (!mc_impl_request_carried(req, "adapter", result) || !claimed(a, req, result) ||
      !ensure_running(a, result))
    return;
  pid_t pid = a->pid; /* the process whose sanitizer reports count */
  exchange(a, req, self->calls, self->options.max_output_bytes, result);
  mc_sanitizer_judge_call(&a->sanitizer, pid, result);
  if (self->options.fresh_process_per_case)
    mc_adapter_stop(a);
}

/* The handshake's claims, once the adapter runs (a start that fails: true). */
static bool exec_supports(mc_impl *self, const mc_request *req) {
  mc_adapter *a = self->state;
  mc_impl_result r;
  memset(&r, 0, sizeof r);
  return !ensure_running(a, &r) || claimed(a, req, &r);
}

/* A timing request gets the time its runs ask for on top of --timeout. */
static void exec_time_itself(mc_impl *self, const mc_request *req, const mc_timing_request *timing,
                             mc_impl_result *result, mc_self_timing *own) {
  mc_adapter *a = self->state;
  memset(own, 0, sizeof *own);
  double timeout = a->timeout;
  if (timeout > 0)
    a->timeout = timeout + 4.0 * timing->runs * timing->min_run_seconds;
  a->timing = timing;
  a->own = own;
  exec_run(self, req, result);
  a->timing = NULL;
  a->own = NULL;
  a->timeout = timeout;
}

static void exec_restart(mc_impl *self) {
  mc_adapter_stop(self->state);
}

/* After the last reply: closes the adapter's input (the signal to exit) and
   reads its output to the end; a line there is a reply nobody asked for,
   charged to the last request (a second reply to it). */
static bool exec_settle(mc_impl *self, mc_impl_result *late) {
  mc_adapter *a = self->state;
  if (a->pid <= 0 || a->served == 0)
    return false;
  close(a->in_fd);
  a->in_fd = -1;
  size_t line_len;
  io_status s =
      mc_adapter_read_line(a, mc_deadline_after(SHUTDOWN_GRACE_SECONDS),
                           mc_adapter_reply_limit(self->options.max_output_bytes), &line_len);
  a->grace_spent = s == IO_TIMEOUT;
  if (s != IO_OK && !(s == IO_CLOSED && a->len > 0))
    return false;
  late->outcome = MC_OUTCOME_CRASH;
  late->blame_call = a->last_call;
  snprintf(late->message, sizeof late->message,
           "protocol violation: %s after the reply to request %" PRIu64
           ", the last one (a second reply?)",
           s == IO_OK ? "a line nobody asked for" : "bytes nobody asked for", a->last_id);
  return true;
}

static void free_adapter(mc_adapter *a) {
  mc_child_text_close(&a->text);
  mc_sanitizer_close(&a->sanitizer);
  free(a->command);
  free(a->label);
  free(a->buf);
  free(a);
}

/* Closes the adapter's input (the signal to exit), gives it a moment,
   then ends whatever is left of its process group. */
static void exec_close(mc_impl *self) {
  mc_adapter *a = self->state;
  if (a->pid > 0) {
    if (a->in_fd >= 0)
      close(a->in_fd);
    a->in_fd = -1;
    siginfo_t info;
    mc_child_wait_end(a->pid, a->grace_spent ? 0 : SHUTDOWN_GRACE_SECONDS, &info);
    mc_adapter_stop(a);
  }
  free_adapter(a);
  free(self);
}

mc_impl *mc_impl_open_exec(const char *command, const mc_impl_options *options, char *err,
                           size_t errlen) {
  if (!command || command[strspn(command, " \t")] == '\0') {
    snprintf(err, errlen, "exec: needs a command, e.g. exec:'python3 my_adapter.py'");
    return NULL;
  }
  mc_child_guard_install();
  /* A write to an adapter that has exited must fail with EPIPE, not kill
     movconf. */
  struct sigaction ignore = {.sa_handler = SIG_IGN};
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, NULL);
  mc_impl *impl = calloc(1, sizeof *impl);
  mc_adapter *a = calloc(1, sizeof *a);
  if (!impl || !a || !(a->command = strdup(command))) {
    snprintf(err, errlen, "out of memory");
    free(impl);
    if (a)
      free_adapter(a);
    return NULL;
  }
  a->in_fd = a->out_fd = -1;
  a->region = (mc_shm_region)MC_SHM_REGION_NONE;
  a->payload = options->payload;
  char label[160];
  snprintf(label, sizeof label, "exec:%.150s", command);
  mc_child_text_init(&a->text, label);
  a->timeout = options->timeout_seconds; /* <= 0: none */
  a->handshake_timeout = mc_adapter_handshake_allowance(options);
  a->stop_at = options->stop_at;
  char why[400];
  if (options->sanitize && !mc_sanitizer_open(&a->sanitizer, why, sizeof why)) {
    snprintf(err, errlen, "%.400s", why);
    free_adapter(a);
    free(impl);
    return NULL;
  }
  if (!mc_adapter_start(a, why, sizeof why)) {
    snprintf(err, errlen, "adapter '%s' did not start: %s", command, why);
    free_adapter(a);
    free(impl);
    return NULL;
  }
  impl->name = a->label;
  impl->names_errors = false;
  impl->options = *options;
  impl->state = a;
  impl->run = exec_run;
  impl->close = exec_close;
  impl->restart = exec_restart;
  impl->settle = exec_settle;
  impl->supports = exec_supports;
  impl->time_itself = a->times_itself ? exec_time_itself : NULL;
  return impl;
}
