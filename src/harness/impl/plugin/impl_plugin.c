/* --impl plugin:PATH: a plugin (include/movconf/plugin.h) run in a forked
   child process (plugin_host.c), so that whatever it does - crash, hang,
   scribble past its output, exhaust memory - is one case's verdict and not
   the end of the run. The child is started at open and again, lazily, after
   it died or was killed. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "harness/impl/carried.h"
#include "harness/impl/child.h"
#include "harness/impl/child_contain.h"
#include "harness/impl/child_strays.h"
#include "harness/impl/child_text.h"
#include "harness/impl/plugin/impl_plugin.h"
#include "harness/impl/plugin/plugin_wire.h"
#include "harness/impl/sanitize.h"
#include "movconf/tensor.h"

/* How long a child that closed its socket gets to exit before it is killed. */
#define EXIT_GRACE_SECONDS 2.0
/* How long a child whose plugin left threads behind waits, when its
   requests end, for a late write they make (the wait ends when they do):
   once per child normally, and shorter when every case has a child of its
   own. */
#define SETTLE_MS 200
#define SETTLE_PER_CASE_MS 100
/* After this many failed restarts in a row, cases are reported without trying again. */
#define MAX_RESTART_FAILURES 3

typedef struct plugin_state {
  char *path;
  char display[512]; /* "NAME VERSION (plugin PATH)" */
  pid_t pid;         /* 0: no child */
  int fd;
  int restart_failures;   /* in a row */
  uint64_t served;        /* requests the child has been sent */
  uint64_t last_call;     /* mc_impl.calls of the last one */
  bool retire;            /* the child asked to be ended after this case */
  bool asking;            /* the request is supports_only (plugin_supports) */
  mc_sanitizer sanitizer; /* --sanitize: where the child's reports go */
  mc_child_text text;     /* the child's stdout and stderr, relayed */
  mc_child_tree tree;     /* what it started while loading, kept */
  bool said_memory_limit; /* note_memory_limit_per_process */
} plugin_state;

typedef enum io_status { IO_OK, IO_TIMEOUT, IO_CLOSED } io_status;

/* Copies a NUL-terminated (or cap-long) string, truncating to fit. */
static void copy_text(char *dst, size_t cap, const char *src) {
  size_t n = strnlen(src, cap - 1);
  memcpy(dst, src, n);
  dst[n] = '\0';
}

/* Waits until fd is ready for events; IO_TIMEOUT past the deadline.
   IO_CLOSED once the child host ended with nothing ready: a process the
   plugin forked may hold the socket open, so its end is not waited for. */
static io_status wait_ready(int fd, short events, double deadline, pid_t host) {
  for (;;) {
    if (mc_deadline_passed(deadline))
      return IO_TIMEOUT;
    struct pollfd p = {.fd = fd, .events = events};
    int n = mc_child_poll(&p, 1, deadline, host);
    if (n > 0)
      return IO_OK;
    if (n == MC_CHILD_ENDED || (n < 0 && errno != EINTR))
      return IO_CLOSED;
  }
}

static io_status send_all(int fd, const void *buf, size_t len, double deadline, pid_t host) {
  const char *p = buf;
  while (len > 0) {
    ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
    if (n > 0) {
      p += n;
      len -= (size_t)n;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      io_status s = wait_ready(fd, POLLOUT, deadline, host);
      if (s != IO_OK)
        return s;
    } else {
      return IO_CLOSED;
    }
  }
  return IO_OK;
}

static io_status recv_all(int fd, void *buf, size_t len, double deadline, pid_t host) {
  char *p = buf;
  while (len > 0) {
    ssize_t n = recv(fd, p, len, 0);
    if (n > 0) {
      p += n;
      len -= (size_t)n;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      io_status s = wait_ready(fd, POLLIN, deadline, host);
      if (s != IO_OK)
        return s;
    } else {
      return IO_CLOSED;
    }
  }
  return IO_OK;
}

/* ---- the child's life ---- */

/* Ends the child: waits up to grace seconds for it to exit by itself, then
   kills it. Writes how it ended to how (may be NULL). */
static void end_child(plugin_state *s, double grace, char *how, size_t howlen) {
  if (s->fd >= 0)
    close(s->fd);
  s->fd = -1;
  if (s->pid > 0) {
    mc_child_end(s->pid, false, grace, how, howlen);
    mc_child_end_all(); /* and whatever the plugin forked */
    s->pid = 0;
    s->served = 0;
  }
  mc_child_tree_clear(&s->tree);
  mc_child_text_close(&s->text); /* what it wrote before it ended */
}

static void kill_child(plugin_state *s) {
  end_child(s, 0, NULL, 0);
}

static bool valid_reply(const mc_wire_reply *r) {
  return r->magic == MC_WIRE_MAGIC && r->kind >= MC_WIRE_HELLO && r->kind <= MC_WIRE_SUPPORTED;
}

/* Whether r may be taken for the answer to call: it answers that call, or
   it is a fault the child sent unasked, blaming an earlier call. */
static bool answers(const mc_wire_reply *r, uint64_t call) {
  return r->call == call ||
         (r->kind == MC_WIRE_FATAL_FAULT && r->blame_call != 0 && r->blame_call < call);
}

/* Set by movconf's main (mc_plugin_host_fresh_exec): this program is the
   movconf command, which serves as a plugin host. */
static bool fresh_exec;

void mc_plugin_host_fresh_exec(void) {
  fresh_exec = true;
}

/* The child becomes a fresh movconf (this program) serving as plugin host:
   it holds nothing of this process's memory, such as the case files'
   expected outputs. With --sanitize, the sanitizer's runtime is loaded
   first and its reports go to the sanitizer's folder, with no memory
   limit: the sanitizer's shadow memory is terabytes of address space. */
_Noreturn static void exec_host(int fd, const plugin_state *s, int settle_ms,
                                size_t memory_limit_mb) {
  char fd_text[16], settle_text[16], memory_text[24];
  snprintf(fd_text, sizeof fd_text, "%d", fd);
  snprintf(settle_text, sizeof settle_text, "%d", settle_ms);
  snprintf(memory_text, sizeof memory_text, "%zu", s->sanitizer.dir[0] ? 0 : memory_limit_mb);
  if (s->sanitizer.dir[0])
    mc_sanitizer_plugin_env(&s->sanitizer, s->path);
  execl("/proc/self/exe", "movconf", MC_PLUGIN_HOST_COMMAND, fd_text, s->path, settle_text,
        memory_text, (char *)NULL);
  _exit(127);
}

/* What runs while the host loads the plugin, for start-up errors. */
#define LOAD_CODE "its constructor or entry point"

/* The host ended before its greeting: how (the signal it died of), and the
   stack it sent first, if any. */
static void died_loading(plugin_state *s, const char *frames, char *err, size_t errlen) {
  char how[128];
  end_child(s, EXIT_GRACE_SECONDS, how, sizeof how);
  snprintf(err, errlen, "the plugin host %s while loading %s (%s)%s%s", how, s->path, LOAD_CODE,
           frames[0] ? "; its stack: " : "", frames);
}

/* Forks a child that loads the plugin and waits for its greeting. */
static bool start_child(mc_impl *impl, plugin_state *s, char *err, size_t errlen) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
    snprintf(err, errlen, "socketpair: %s", strerror(errno));
    return false;
  }
  fflush(NULL); /* or the child would inherit, and might repeat, buffered output */
  int text = mc_child_text_open(&s->text);
  long last_pid = mc_child_tree_last_pid();
  pid_t warden = 0, pid = text < 0 ? -1 : mc_child_fork_contained(true, &warden);
  if (pid < 0) {
    snprintf(err, errlen, "%s: %s", text < 0 ? "pipe" : "fork", strerror(errno));
    close(sv[0]);
    close(sv[1]);
    if (text >= 0)
      close(text);
    mc_child_text_close(&s->text);
    return false;
  }
  if (pid == 0) {
    close(sv[0]);
    mc_child_close_hidden(); /* a run --jobs worker's pipes to movconf */
    /* Its stdout and stderr are a pipe movconf relays, never movconf's own
       descriptions (the plugin could make them non-blocking). */
    dup2(text, STDOUT_FILENO);
    dup2(text, STDERR_FILENO);
    close(text);
    close(s->text.fd);
    int settle_ms = impl->options.fresh_process_per_case ? SETTLE_PER_CASE_MS : SETTLE_MS;
    if (s->sanitizer.dir[0] || fresh_exec)
      exec_host(sv[1], s, settle_ms, impl->options.memory_limit_mb);
    mc_plugin_host_main(sv[1], s->path, impl->options.memory_limit_mb, settle_ms);
  }
  close(sv[1]);
  close(text);
  fcntl(sv[0], F_SETFD, FD_CLOEXEC);
  fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
  s->pid = pid;
  mc_sanitizer_started(&s->sanitizer, pid);
  s->fd = sv[0];
  s->served = 0;
  s->retire = false;
  mc_wire_reply r;
  double deadline = mc_deadline_within(impl->options.timeout_seconds, impl->options.stop_at);
  io_status io = recv_all(s->fd, &r, sizeof r, deadline, s->pid);
  /* The stack of the signal the host is dying of while loading: then it closes. */
  char frames[sizeof r.message] = "";
  if (io == IO_OK && valid_reply(&r) && r.kind == MC_WIRE_FRAMES) {
    copy_text(frames, sizeof frames, r.message);
    io = recv_all(s->fd, &r, sizeof r, deadline, s->pid);
  }
  if (io == IO_TIMEOUT) {
    snprintf(err, errlen, "loading %s took longer than %g s", s->path,
             impl->options.timeout_seconds);
  } else if (io == IO_CLOSED) {
    died_loading(s, frames, err, errlen);
    return false;
  } else if (valid_reply(&r) && r.kind == MC_WIRE_FATAL_FAULT) {
    r.message[sizeof r.message - 1] = '\0';
    snprintf(err, errlen, "the plugin host died while loading %s (%s): %.200s", s->path, LOAD_CODE,
             r.message);
  } else if (!valid_reply(&r) || (r.kind != MC_WIRE_HELLO && r.kind != MC_WIRE_LOAD_FAILED)) {
    snprintf(err, errlen, "the process loading %s answered garbage", s->path);
  } else if (r.kind == MC_WIRE_LOAD_FAILED) {
    r.message[sizeof r.message - 1] = '\0';
    copy_text(err, errlen, r.message);
  } else {
    r.name[sizeof r.name - 1] = r.version[sizeof r.version - 1] = '\0';
    snprintf(s->display, sizeof s->display, "%s %s (plugin %s)", r.name, r.version, s->path);
    mc_child_tree_start(&s->tree, pid, warden, last_pid);
    return true;
  }
  kill_child(s);
  return false;
}

/* ---- one request ---- */

static io_status send_request(const plugin_state *s, const mc_request *req, size_t cap,
                              uint64_t call, uint8_t fill, double deadline) {
  mc_wire_request w;
  memset(&w, 0, sizeof w);
  w.magic = MC_WIRE_MAGIC;
  w.call = call;
  w.op = req->op;
  w.n_inputs = req->n_inputs;
  const char *strings[MC_ATTR_COUNT];
  mc_wire_put_attrs(&w, req, strings);
  w.max_output_bytes = cap;
  w.output_fill = fill;
  w.supports_only = s->asking;
  for (int i = 0; i < req->n_inputs; i++) {
    const mc_tensor *t = req->inputs[i];
    w.inputs[i].type = t->type;
    w.inputs[i].rank = t->rank;
    for (int d = 0; d < t->rank; d++)
      w.inputs[i].shape[d] = t->shape[d];
    w.inputs[i].nbytes = t->data ? t->nbytes : 0;
  }
  io_status io = send_all(s->fd, &w, sizeof w, deadline, s->pid);
  for (int i = 0; i < MC_ATTR_COUNT && io == IO_OK; i++)
    if (strings[i] && w.string_len[i] > 0)
      io = send_all(s->fd, strings[i], (size_t)w.string_len[i], deadline, s->pid);
  for (int i = 0; i < req->n_inputs && io == IO_OK; i++)
    if (w.inputs[i].nbytes > 0)
      io = send_all(s->fd, req->inputs[i]->data, (size_t)w.inputs[i].nbytes, deadline, s->pid);
  return io;
}

static void set_crash(mc_impl_result *res, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void set_crash(mc_impl_result *res, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  res->outcome = MC_OUTCOME_CRASH;
  vsnprintf(res->message, sizeof res->message, fmt, ap);
  va_end(ap);
}

/* Receives the output the reply announces into res->output. */
static void receive_output(mc_impl *self, plugin_state *s, const mc_wire_reply *r, double deadline,
                           mc_impl_result *res) {
  const mc_wire_tensor *t = &r->output;
  bool sane =
      t->type >= 0 && t->type < MC_TYPE_COUNT && t->rank >= 0 && t->rank <= MC_TENSOR_MAX_RANK;
  if (!sane ||
      mc_tensor_alloc(&res->output, (mc_type)t->type, t->rank, t->shape,
                      self->options.max_output_bytes) != MC_OK ||
      res->output.nbytes != t->nbytes) {
    mc_tensor_free(&res->output);
    kill_child(s);
    set_crash(res, "broken reply from the plugin process: an impossible output descriptor");
    return;
  }
  io_status io = recv_all(s->fd, res->output.data, res->output.nbytes, deadline, s->pid);
  if (io == IO_OK) {
    res->outcome = MC_OUTCOME_OUTPUT;
    return;
  }
  mc_tensor_free(&res->output);
  if (io == IO_TIMEOUT) {
    kill_child(s);
    res->outcome = MC_OUTCOME_TIMEOUT;
    snprintf(res->message, sizeof res->message,
             "the output did not arrive within %g s; the plugin process was killed",
             self->options.timeout_seconds);
    return;
  }
  char how[128];
  end_child(s, EXIT_GRACE_SECONDS, how, sizeof how);
  set_crash(res, "the plugin process %s while sending its output", how);
}

static void take_reply(mc_impl *self, plugin_state *s, mc_wire_reply *r, double deadline,
                       mc_impl_result *res) {
  r->error[sizeof r->error - 1] = r->message[sizeof r->message - 1] = '\0';
  s->retire = r->retire != 0;
  switch ((mc_wire_kind)r->kind) {
  case MC_WIRE_OUTPUT:
    receive_output(self, s, r, deadline, res);
    return;
  case MC_WIRE_REJECTED:
    res->outcome = MC_OUTCOME_REJECTED;
    res->status = MC_OK; /* plugins name errors, if at all, by error_name */
    res->rejected_for_impl = r->by_runner != 0;
    copy_text(res->error_name, sizeof res->error_name, r->error);
    copy_text(res->message, sizeof res->message, r->message);
    return;
  case MC_WIRE_SUPPORTED: /* the answer to plugin_supports's question: no output */
    if (!s->asking)
      break;
    res->outcome = MC_OUTCOME_OUTPUT;
    return;
  case MC_WIRE_UNSUPPORTED:
    res->outcome = MC_OUTCOME_UNSUPPORTED;
    snprintf(res->message, sizeof res->message, "the plugin does not support this case");
    return;
  case MC_WIRE_FAULT:
    set_crash(res, "%s", r->message);
    return;
  case MC_WIRE_FATAL_FAULT:
    set_crash(res, "%s", r->message);
    res->late = r->blame_call != 0; /* a call is named only for a fault after it returned */
    /* A fault charged to an earlier case (a late write) leaves this one unanswered. */
    if (r->blame_call != 0 && r->blame_call != self->calls)
      res->blame_call = r->blame_call;
    end_child(s, EXIT_GRACE_SECONDS, NULL, 0);
    return;
  case MC_WIRE_HELLO:
  case MC_WIRE_LOAD_FAILED:
  case MC_WIRE_FRAMES:
    break;
  }
  kill_child(s);
  set_crash(res, "broken reply from the plugin process: an unexpected message");
}

static void exchange(mc_impl *self, plugin_state *s, const mc_request *req, mc_impl_result *res);

/* Once: a plugin that starts processes can hold --memory-limit in each of
   them at once (RLIMIT_AS is per process; spec/plugin-abi.md). */
static void note_memory_limit_per_process(const mc_impl *self, plugin_state *s) {
  if (self->options.memory_limit_mb == 0 || s->said_memory_limit)
    return;
  s->said_memory_limit = true;
  fprintf(stderr,
          "movconf: note: %s started processes of its own in run() (ended with the case); "
          "--memory-limit %zu bounds each of its processes, not their sum\n",
          s->path, self->options.memory_limit_mb);
}
static void end_after_case(mc_impl *self, plugin_state *s, mc_impl_result *res);
static bool plugin_settle(mc_impl *self, mc_impl_result *late);

static void plugin_run(mc_impl *self, const mc_request *req, mc_impl_result *res) {
  plugin_state *s = self->state;
  if (!mc_impl_request_carried(req, "plugin", res))
    return;
  if (s->pid <= 0 && s->restart_failures >= MAX_RESTART_FAILURES) {
    set_crash(res, "the plugin process failed to restart %d times in a row; not started again",
              MAX_RESTART_FAILURES);
    return;
  }
  char err[400];
  if (s->pid <= 0 && !start_child(self, s, err, sizeof err)) {
    res->fresh_start = true; /* a failed start owes nothing to earlier cases */
    if (mc_impl_start_cut_short(self->options.stop_at, "plugin process", res))
      return;
    s->restart_failures++;
    set_crash(res, "could not start a fresh plugin process: %s", err);
    return;
  }
  s->restart_failures = 0;
  res->fresh_start = s->served++ == 0;
  s->last_call = self->calls;
  pid_t host = s->pid; /* the process whose sanitizer reports count */
  exchange(self, s, req, res);
  /* What run() started ends with its case, not hours of cases later. */
  if (s->pid > 0 && mc_child_tree_end_strays(&s->tree) > 0)
    note_memory_limit_per_process(self, s);
  mc_sanitizer_judge_call(&s->sanitizer, host, res);
  /* UBSan reports each place in the code once per process: the next case
     that reaches it gets a fresh one. */
  bool reported = res->outcome == MC_OUTCOME_CRASH && res->memory_error;
  if ((self->options.fresh_process_per_case || s->retire || reported) && s->pid > 0)
    end_after_case(self, s, res);
}

/* supports() alone, in the plugin process (a supports_only request). */
static bool plugin_supports(mc_impl *self, const mc_request *req) {
  plugin_state *s = self->state;
  mc_impl_result res;
  memset(&res, 0, sizeof res);
  s->asking = true;
  plugin_run(self, req, &res);
  s->asking = false;
  mc_impl_result_free_outputs(&res);
  return res.outcome != MC_OUTCOME_UNSUPPORTED;
}

/* Ends the child after this case (its only one, or the last its quarantine
   holds), first letting it report a late write (settle_and_exit in
   plugin_host.c): this case's crash, or an earlier case's to charge. */
static void end_after_case(mc_impl *self, plugin_state *s, mc_impl_result *res) {
  mc_impl_result late;
  memset(&late, 0, sizeof late);
  if (plugin_settle(self, &late)) {
    mc_tensor_free(&res->output);
    set_crash(res, "%s", late.message);
    res->late = true;
    if (late.blame_call != self->calls)
      res->blame_call = late.blame_call;
  }
  end_child(s, EXIT_GRACE_SECONDS, NULL, 0);
}

/* After the child host ended: whether the socket is still open at its end
   (no hang-up), held by a process the plugin started. */
static bool socket_held(int fd) {
  struct pollfd p = {.fd = fd, .events = POLLIN};
  return poll(&p, 1, 0) == 0;
}

static void exchange(mc_impl *self, plugin_state *s, const mc_request *req, mc_impl_result *res) {
  double deadline = mc_deadline_within(self->options.timeout_seconds, self->options.stop_at);
  io_status io = send_request(s, req, self->options.max_output_bytes, self->calls,
                              mc_impl_output_fill(&self->options), deadline);
  mc_wire_reply r;
  /* Even when sending failed, the child may have said why it died. */
  if (io != IO_TIMEOUT)
    io = recv_all(s->fd, &r, sizeof r, deadline, s->pid);
  /* The stack of the signal the child is dying of: then it closes. */
  char frames[sizeof r.message] = "";
  if (io == IO_OK && valid_reply(&r) && r.kind == MC_WIRE_FRAMES) {
    copy_text(frames, sizeof frames, r.message);
    io = recv_all(s->fd, &r, sizeof r, deadline, s->pid);
  }
  if (io == IO_TIMEOUT) {
    kill_child(s);
    res->outcome = MC_OUTCOME_TIMEOUT;
    snprintf(res->message, sizeof res->message,
             "no answer within %g s; the plugin process was killed (a fresh one serves the "
             "next case)",
             self->options.timeout_seconds);
  } else if (io == IO_CLOSED) {
    bool held = socket_held(s->fd);
    char how[128];
    end_child(s, EXIT_GRACE_SECONDS, how, sizeof how);
    set_crash(res, "the plugin process %s%s%s%s", how, frames[0] ? "; its stack: " : "", frames,
              held ? "; a process it started still held its socket and was ended" : "");
  } else if (!valid_reply(&r)) {
    kill_child(s);
    set_crash(res, "broken reply from the plugin process (did the plugin write to file "
                   "descriptors it does not own?)");
  } else if (!answers(&r, self->calls)) {
    kill_child(s);
    set_crash(res,
              "broken reply from the plugin process: it answers call %llu, not this case's call "
              "%llu (did a second process write to movconf's socket?)",
              (unsigned long long)r.call, (unsigned long long)self->calls);
  } else {
    take_reply(self, s, &r, deadline, res);
  }
}

static void plugin_restart(mc_impl *self) {
  kill_child(self->state);
}

/* Whether the child's socket has something to read (a report, or its
   end) before the deadline and before the child ends without a word: what
   it forked may keep the socket open long after. */
static bool report_coming(const plugin_state *s, double deadline) {
  struct pollfd p = {.fd = s->fd, .events = POLLIN};
  int ready;
  while ((ready = mc_child_poll(&p, 1, deadline, s->pid)) == -1 && errno == EINTR)
    continue;
  return ready > 0;
}

/* After the last case: closes the request stream; the child then waits a
   moment when the plugin left threads behind, and a late write they make
   arrives as a fault charged to its case; so does a copy made by a raw
   clone that returns within MC_WIRE_COPY_WAIT_MS, which the child waits
   for first (hence listening that much longer). */
static bool plugin_settle(mc_impl *self, mc_impl_result *late) {
  plugin_state *s = self->state;
  if (s->pid <= 0 || s->served == 0)
    return false;
  shutdown(s->fd, SHUT_WR);
  mc_wire_reply r;
  double deadline = mc_deadline_after(MC_WIRE_COPY_WAIT_MS / 1000.0 + EXIT_GRACE_SECONDS);
  if (!report_coming(s, deadline) || recv_all(s->fd, &r, sizeof r, deadline, s->pid) != IO_OK ||
      !valid_reply(&r) || r.kind != MC_WIRE_FATAL_FAULT)
    return false;
  r.message[sizeof r.message - 1] = '\0';
  late->outcome = MC_OUTCOME_CRASH;
  late->blame_call = r.blame_call ? r.blame_call : s->last_call;
  copy_text(late->message, sizeof late->message, r.message);
  return true;
}

static void plugin_close(mc_impl *self) {
  plugin_state *s = self->state;
  end_child(s, EXIT_GRACE_SECONDS, NULL, 0);
  mc_sanitizer_close(&s->sanitizer);
  free(s->path);
  free(s);
  free(self);
}

/* dlopen searches the library path for a name without a '/', never the
   current folder: "akern.so" that names a file here is taken as "./akern.so",
   what the user meant (heap). */
static char *plugin_file(const char *path) {
  bool here = !strchr(path, '/') && access(path, F_OK) == 0;
  char *copy = malloc(strlen(path) + 3);
  if (copy)
    snprintf(copy, strlen(path) + 3, "%s%s", here ? "./" : "", path);
  return copy;
}

mc_impl *mc_impl_open_plugin(const char *path, const mc_impl_options *options, char *err,
                             size_t errlen) {
  mc_impl *impl = calloc(1, sizeof *impl);
  plugin_state *s = calloc(1, sizeof *s);
  char *copy = plugin_file(path);
  if (!impl || !s || !copy) {
    free(impl);
    free(s);
    free(copy);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  s->path = copy;
  s->fd = -1;
  char label[160];
  snprintf(label, sizeof label, "plugin:%.150s", path);
  mc_child_text_init(&s->text, label);
  char why[400];
  if (options->sanitize && (!mc_sanitizer_check_plugin(path, err, errlen) ||
                            !mc_sanitizer_open(&s->sanitizer, err, errlen))) {
    free(impl);
    free(s);
    free(copy);
    return NULL;
  }
  mc_child_guard_install();
  impl->options = *options;
  impl->state = s;
  impl->run = plugin_run;
  impl->close = plugin_close;
  impl->restart = plugin_restart;
  impl->settle = plugin_settle;
  impl->supports = plugin_supports;
  impl->names_errors = false;
  impl->fills_output = true; /* plugin_host.c's fill, sent with each request */
  if (!start_child(impl, s, why, sizeof why)) {
    snprintf(err, errlen, "cannot use plugin %s: %s", path, why);
    if (options->sanitize)
      mc_sanitizer_load_hint(path, err, errlen);
    plugin_close(impl);
    return NULL;
  }
  impl->name = s->display;
  return impl;
}
