/* A plugin with selectable faults, for proving that the runner classifies
   each misbehaviour correctly and finishes the run (tests/plugin_faults.sh).

   Without faults it is correct: it wraps the oracle. Faults are chosen per
   case by the data input's first dimension (the batch), since a plugin never
   sees case ids:

     MOVCONF_MOCK_FAULT="crash@2,hang@3,wrong-value@4"

   makes every request whose data has batch 2 crash, batch 3 hang, and so on.
   Faults: crash (raise SIGSEGV), null (store through a near-NULL pointer),
   abort, exit (exit(3)), hang, oom (allocate and touch 64 GiB), wrong-value
   (swap output elements 0 and 1), wrong-shape (append a dimension of 1),
   missed-rejection (accept an invalid input, output = data), wrong-rejection
   (reject a valid input), wrong-error (reject with another error name),
   write-past (one byte after the output), write-before (one byte before it),
   write-input (into the data input), bad-status (output_shape returns 42),
   bad-shape (announce a negative dimension), stdout (print to stdout, then
   answer correctly), late-write (answer correctly, leaving a thread that
   keeps rewriting the output's first byte for two seconds after run()
   returns), late-write-slow (the same thread writes once, 10 ms after),
   fork-orphan (fork a `sleep MOVCONF_MOCK_ORPHAN` in a session of its own,
   then answer correctly), fork-orphan-hang (the same orphan, then hang: it
   lives while its call does), poison (answer correctly, but mark the process
   broken), crash-if-poisoned (raise SIGSEGV in a process marked broken,
   else answer correctly), bad-text (reject with a message of invalid UTF-8
   and control characters, and the error name "mode\x1b[0m"), slow (answer
   correctly after 1.5 s), unknown-error (reject any input with
   "mode_mising", which is no error name of movconf's), full-text (reject
   with both message arrays full, no NUL in either), fork (fork() in run(),
   both copies answering correctly), fork-raw (the same by the clone system
   call, which runs no pthread_atfork handler), fork-raw-late (the same;
   in a process's first case the copy sleeps MOVCONF_MOCK_COPY_DELAY_MS,
   default 500, before it returns, after its case was answered; in a later
   case the process waits for the copy to return and end first), fork-linger (fork() in
   run(); the copy sleeps 60 s before it returns), huge (accept any input, announcing an
   output of 2^40 bytes, beyond any cap movconf applies), read-past-side
   (read the element after the last one of input 1, a side input such as
   block_shape, then answer correctly), crash-if-not-first (raise SIGSEGV
   unless this is the first case the process serves: it passes alone, and
   crashes after any other case, itself included), nonblock-stdio (set
   O_NONBLOCK on stdout and stderr, log a line with an escape sequence to
   stderr, then answer correctly), flood (write 2 MiB to stdout, then answer
   correctly), lift-memory-limit (raise the soft address-space limit to the
   hard one and map more than the old soft limit; reject when that worked,
   else answer correctly), exit-0 (exit(0)), stale-reply (fork() in run(); the
   copy writes to movconf's socket a reply to the process's previous call,
   as a forked copy answering late would, and ends without returning; the
   process then answers correctly).

   FAULT@* applies the fault to every batch.

   scribble-files (write junk into every regular file under the folder
   MOVCONF_MOCK_SCRIBBLE_DIR that this process or its parent, movconf, has
   open, through /proc/PID/fd: at its start and 64 KiB in; then answer
   correctly) attacks the reports movconf writes.

   fork-raw-linger (a copy by the clone system call that sleeps 60 s in
   run(); the process answers correctly at once), copy-alive (reject when
   the copy fork-raw-linger made in an earlier case still runs, else answer
   correctly), fork-raw-slow (a copy by the clone system call that returns
   from run() MOVCONF_MOCK_COPY_DELAY_MS, default 500, after its case was
   answered, in every case).

   stop-parent (send SIGSTOP to its parent, a worker of run --jobs or
   movconf itself, then answer correctly) stops what waits for its answer.

   write-earlier (write one byte where the process's previous case's
   output was, from run(); answer correctly when there was none) lands
   where movconf cannot tell how the address was come by.

   echo-inputs (reject every input, the message listing the inputs the
   plugin was handed: "5 inputs: data u8 [2,3]; start 11; stop 22; ...",
   each side input by its first value) shows what reaches a plugin.

   MOVCONF_MOCK_UNSUPPORTED=TYPE declines data of that element type.
   MOVCONF_MOCK_ABI=wrong makes the entry point refuse every ABI version.
   MOVCONF_MOCK_LOAD=ctor-segv writes to an inaccessible page in the
   library's constructor (SIGSEGV), MOVCONF_MOCK_LOAD=ctor-null through a
   NULL pointer there, and MOVCONF_MOCK_LOAD=entry-abort raises SIGABRT in
   the entry point.

   The mock speaks ABI version 3; built with MOCK_ABI=2 it is a version 2
   plugin (the request's fields it reads are spelt alike in both). */
#define _DEFAULT_SOURCE /* syscall(), MAP_ANONYMOUS */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attr_view.h"                       /* examples/plugin_movconf */
#include "harness/impl/plugin/plugin_wire.h" /* the child's replies, which stale-reply forges */
#include "movconf/oracle.h"
#include "movconf/plugin.h"
#include "movconf/tensor.h"

#ifndef MOCK_ABI
#define MOCK_ABI 3
#endif
#if MOCK_ABI == 2
typedef movconf_plugin_request_v2 mock_request;
typedef movconf_plugin_query_v2 mock_query;
typedef movconf_plugin_v2 mock_table;
#define MOCK_ABI_VERSION MOVCONF_PLUGIN_ABI_V2
#else
typedef movconf_plugin_request_v3 mock_request;
typedef movconf_plugin_query_v3 mock_query;
typedef movconf_plugin_v3 mock_table;
#define MOCK_ABI_VERSION MOVCONF_PLUGIN_ABI_V3
#endif

typedef enum fault {
  FAULT_NONE,
  FAULT_CRASH,
  FAULT_NULL,
  FAULT_ABORT,
  FAULT_EXIT,
  FAULT_HANG,
  FAULT_OOM,
  FAULT_WRONG_VALUE,
  FAULT_WRONG_SHAPE,
  FAULT_MISSED_REJECTION,
  FAULT_WRONG_REJECTION,
  FAULT_WRONG_ERROR,
  FAULT_WRITE_PAST,
  FAULT_WRITE_BEFORE,
  FAULT_WRITE_INPUT,
  FAULT_BAD_STATUS,
  FAULT_BAD_SHAPE,
  FAULT_STDOUT,
  FAULT_LATE_WRITE,
  FAULT_LATE_WRITE_SLOW,
  FAULT_FORK_ORPHAN,
  FAULT_POISON,
  FAULT_CRASH_IF_POISONED,
  FAULT_BAD_TEXT,
  FAULT_SLOW,
  FAULT_UNKNOWN_ERROR,
  FAULT_FULL_TEXT,
  FAULT_FORK,
  FAULT_FORK_RAW,
  FAULT_FORK_RAW_LATE,
  FAULT_FORK_LINGER,
  FAULT_HUGE,
  FAULT_READ_PAST_SIDE,
  FAULT_CRASH_IF_NOT_FIRST,
  FAULT_NONBLOCK_STDIO,
  FAULT_FLOOD,
  FAULT_LIFT_MEMORY_LIMIT,
  FAULT_EXIT_0,
  FAULT_STALE_REPLY,
  FAULT_ECHO_INPUTS,
  FAULT_SCRIBBLE_FILES,
  FAULT_STOP_PARENT,
  FAULT_WRITE_EARLIER,
  FAULT_FORK_ORPHAN_HANG,
  FAULT_FORK_RAW_LINGER,
  FAULT_COPY_ALIVE,
  FAULT_FORK_RAW_SLOW,
  FAULT_COUNT
} fault;

static const char *const fault_names[FAULT_COUNT] = {"none",
                                                     "crash",
                                                     "null",
                                                     "abort",
                                                     "exit",
                                                     "hang",
                                                     "oom",
                                                     "wrong-value",
                                                     "wrong-shape",
                                                     "missed-rejection",
                                                     "wrong-rejection",
                                                     "wrong-error",
                                                     "write-past",
                                                     "write-before",
                                                     "write-input",
                                                     "bad-status",
                                                     "bad-shape",
                                                     "stdout",
                                                     "late-write",
                                                     "late-write-slow",
                                                     "fork-orphan",
                                                     "poison",
                                                     "crash-if-poisoned",
                                                     "bad-text",
                                                     "slow",
                                                     "unknown-error",
                                                     "full-text",
                                                     "fork",
                                                     "fork-raw",
                                                     "fork-raw-late",
                                                     "fork-linger",
                                                     "huge",
                                                     "read-past-side",
                                                     "crash-if-not-first",
                                                     "nonblock-stdio",
                                                     "flood",
                                                     "lift-memory-limit",
                                                     "exit-0",
                                                     "stale-reply",
                                                     "echo-inputs",
                                                     "scribble-files",
                                                     "stop-parent",
                                                     "write-earlier",
                                                     "fork-orphan-hang",
                                                     "fork-raw-linger",
                                                     "copy-alive",
                                                     "fork-raw-slow"};

#define MAX_BATCH 256
static fault fault_by_batch[MAX_BATCH];
static int unsupported_type = -1;

/* Parses MOVCONF_MOCK_FAULT; unknown entries are reported and ignored. */
static void read_config(void) {
  const char *text = getenv("MOVCONF_MOCK_FAULT");
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", text ? text : "");
  for (char *item = strtok(buf, ","); item; item = strtok(NULL, ",")) {
    char *at = strchr(item, '@');
    bool every = at && strcmp(at + 1, "*") == 0;
    int batch = every ? 0 : at ? atoi(at + 1) : -1;
    if (at)
      *at = '\0';
    int f = 0;
    while (f < FAULT_COUNT && strcmp(fault_names[f], item) != 0)
      f++;
    if (f == FAULT_COUNT || batch < 0 || batch >= MAX_BATCH)
      fprintf(stderr, "plugin_mock: ignoring '%s'\n", item);
    else
      for (int b = batch; b <= (every ? MAX_BATCH - 1 : batch); b++)
        fault_by_batch[b] = (fault)f;
  }
  unsupported_type = mc_type_from_name(getenv("MOVCONF_MOCK_UNSUPPORTED"));
}

static fault fault_of(const mock_request *r) {
  if (r->n_inputs < 1 || r->inputs[0].rank < 1)
    return FAULT_NONE;
  int64_t batch = r->inputs[0].shape[0];
  return batch >= 0 && batch < MAX_BATCH ? fault_by_batch[batch] : FAULT_NONE;
}

/* ---- the correct behaviour: the oracle, computed in output_shape() and
   kept for run() (the ABI promises run() follows with the same request) ---- */

static mc_tensor cached;
static int cases_served; /* output_shape() calls in this process */
static mc_tensor inputs[MC_MAX_INPUTS];

static mc_request to_request(const mock_request *p) {
  mc_request req;
  memset(&req, 0, sizeof req);
  req.op = (mc_op)p->op;
  req.n_inputs = p->n_inputs;
  for (int i = 0; i < p->n_inputs && i < MC_MAX_INPUTS; i++) {
    mc_tensor *t = &inputs[i];
    memset(t, 0, sizeof *t);
    t->type = (mc_type)p->inputs[i].type;
    t->rank = p->inputs[i].rank;
    memcpy(t->shape, p->inputs[i].shape, (size_t)t->rank * sizeof *t->shape);
    t->data = (uint8_t *)(uintptr_t)p->inputs[i].data;
    t->nbytes = (size_t)p->inputs[i].nbytes;
    req.inputs[i] = t;
  }
  req.attrs = mc_attrs_none();
  for (int k = 0; k < p->n_attrs; k++)
    mc_view_plugin_attr(&p->attrs[k], req.op, &req.attrs);
  return req;
}

static void announce(const mc_tensor *t, movconf_plugin_output *o) {
  o->type = t->type;
  o->rank = t->rank;
  memcpy(o->shape, t->shape, (size_t)t->rank * sizeof *t->shape);
}

static int reject(movconf_plugin_message *m, const char *error, const char *text) {
  snprintf(m->error, sizeof m->error, "%s", error);
  snprintf(m->text, sizeof m->text, "%s", text);
  return MOVCONF_PLUGIN_REJECTED;
}

/* Rejects p, listing its inputs: the data's type and shape, each side
   input's first value. */
static int echo_inputs(const mock_request *p, movconf_plugin_message *m) {
  size_t used = (size_t)snprintf(m->text, sizeof m->text, "%d inputs:", (int)p->n_inputs);
  for (int i = 0; i < p->n_inputs && used < sizeof m->text; i++) {
    const movconf_plugin_tensor *t = &p->inputs[i];
    const char *name = mc_op_input_name((mc_op)p->op, i);
    if (i == 0) {
      used += (size_t)snprintf(m->text + used, sizeof m->text - used, " %s %s [", name,
                               mc_type_name((mc_type)t->type));
      for (int d = 0; d < t->rank && used < sizeof m->text; d++)
        used += (size_t)snprintf(m->text + used, sizeof m->text - used, "%s%lld", d ? "," : "",
                                 (long long)t->shape[d]);
      if (used < sizeof m->text)
        used += (size_t)snprintf(m->text + used, sizeof m->text - used, "];");
    } else {
      int64_t first =
          t->nbytes >= 8 ? (int64_t)mc_load_bits((const uint8_t *)t->data, MC_I64, 0) : -1;
      used += (size_t)snprintf(m->text + used, sizeof m->text - used, " %s %lld;", name,
                               (long long)first);
    }
  }
  return MOVCONF_PLUGIN_REJECTED;
}

static int supports(const mock_query *q) {
  return q->input_types[0] != unsupported_type;
}

static int output_shape(const mock_request *p, movconf_plugin_output *o,
                        movconf_plugin_message *m) {
  fault f = fault_of(p);
  cases_served++;
  mc_tensor_free(&cached);
  mc_request req = to_request(p);
  mc_error err;
  mc_status s = mc_oracle_run(&req, (size_t)p->max_output_bytes, &cached, &err);
  if (f == FAULT_ECHO_INPUTS)
    return echo_inputs(p, m);
  if (f == FAULT_BAD_STATUS)
    return 42;
  if (f == FAULT_HUGE) {
    *o = (movconf_plugin_output){.type = MOVCONF_PLUGIN_U8, .rank = 2, .shape = {1 << 20, 1 << 20}};
    return MOVCONF_PLUGIN_OK;
  }
  if (s != MC_OK && f == FAULT_MISSED_REJECTION) {
    announce(req.inputs[0], o);
    return MOVCONF_PLUGIN_OK;
  }
  if (f == FAULT_FULL_TEXT) {
    memset(m->error, 'e', sizeof m->error);
    memset(m->text, 't', sizeof m->text);
    return MOVCONF_PLUGIN_REJECTED;
  }
  if (f == FAULT_UNKNOWN_ERROR)
    return reject(m, "mode_mising", "misspelt on purpose");
  if (f == FAULT_BAD_TEXT)
    return reject(m, "mode\x1b[0m", "bad \xff\xfe bytes, \x1b[31m red, bell \x07, cut \xc3");
  if (s != MC_OK && f == FAULT_WRONG_ERROR)
    return reject(m, s == MC_E_MODE_MISSING ? "mode_invalid" : "mode_missing", "wrong on purpose");
  if (s != MC_OK)
    return reject(m, mc_status_name(s), err.message);
  if (f == FAULT_WRONG_REJECTION)
    return reject(m, "", "mock: rejected on purpose");
  announce(&cached, o);
  if (f == FAULT_WRONG_SHAPE)
    o->shape[o->rank++] = 1;
  if (f == FAULT_BAD_SHAPE)
    o->shape[0] = -3;
  return MOVCONF_PLUGIN_OK;
}

static void swap_first_two(const movconf_plugin_output *o) {
  int64_t n;
  if (!mc_shape_elements(o->rank, o->shape, &n) || n < 2)
    return;
  uint8_t *d = o->data;
  uint64_t a = mc_load_bits(d, (mc_type)o->type, 0), b = mc_load_bits(d, (mc_type)o->type, 1);
  mc_store_bits(d, (mc_type)o->type, 0, b);
  mc_store_bits(d, (mc_type)o->type, 1, a);
}

/* Allocates far more than any memory limit the tests set, touching each page. */
static void exhaust_memory(void) {
  size_t size = (size_t)64 << 30;
  volatile char *p = malloc(size);
  for (size_t i = 0; i < size; i += 4096)
    p[i] = 1;
}

static void misbehave_fatally(fault f, const mock_request *p, const movconf_plugin_output *o) {
  switch (f) {
  case FAULT_CRASH:
    raise(SIGSEGV);
    break;
  case FAULT_NULL: {
    volatile uintptr_t near_null = 8; /* opaque, so the compiler cannot see the bug */
    *(volatile int *)near_null = 1;
    break;
  }
  case FAULT_ABORT:
    abort();
  case FAULT_EXIT:
    exit(3);
  case FAULT_EXIT_0:
    exit(0);
  case FAULT_HANG:
    for (;;)
      sleep(1);
  case FAULT_OOM:
    exhaust_memory();
    break;
  case FAULT_WRITE_PAST:
    ((volatile uint8_t *)o->data)[o->nbytes] = 0x5A;
    break;
  case FAULT_WRITE_BEFORE:
    ((volatile uint8_t *)o->data)[-1] = 0x5A;
    break;
  case FAULT_WRITE_INPUT:
    *(volatile uint8_t *)(uintptr_t)p->inputs[0].data = 0x5A;
    break;
  default:
    break;
  }
}

/* A thread that outlives run(), writing the (correct) first byte again. */
typedef struct late_writer {
  volatile uint8_t *byte;
  uint8_t value;
  bool slow;
  _Atomic bool writing; /* the fast writer has written once */
} late_writer;

static void *write_late(void *arg) {
  late_writer *w = arg;
  if (w->slow) {
    nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    *w->byte = w->value;
    return NULL;
  }
  /* For a time, not a count: a count of writes can all land in the moment
     between run()'s return and the runner sealing the output. */
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    for (int i = 0; i < 1000; i++)
      *w->byte = w->value;
    atomic_store(&w->writing, true);
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while (now.tv_sec - start.tv_sec < 2);
  return NULL;
}

/* The fast writer is running when run() returns (waited for, up to 2 s):
   on a loaded machine a thread only created could first be scheduled after
   the worker's last case, and its late writes then go unseen
   (cli/run-jobs failed so under ASan beside other tests). */
static void start_late_writer(const movconf_plugin_output *o, bool slow) {
  static late_writer w;
  w = (late_writer){(volatile uint8_t *)o->data, cached.data ? cached.data[0] : 0, slow, false};
  pthread_t thread;
  if (o->nbytes <= 0 || pthread_create(&thread, NULL, write_late, &w) != 0)
    return;
  pthread_detach(thread);
  for (int waited_ms = 0; !slow && !atomic_load(&w.writing) && waited_ms < 2000; waited_ms++)
    nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
}

static void fork_orphan(void) {
  const char *tag = getenv("MOVCONF_MOCK_ORPHAN");
  if (tag && fork() == 0) {
    setsid();
    execlp("sleep", "sleep", tag, (char *)NULL);
    _exit(127);
  }
}

static bool poisoned;

/* The element after the last of input 1 (a read, which the compiler must keep). */
static void read_past_side_input(const mock_request *p) {
  if (p->n_inputs < 2)
    return;
  const volatile uint8_t *side = p->inputs[1].data;
  uint8_t past = side[p->inputs[1].nbytes];
  (void)past;
}

/* Sets O_NONBLOCK on stdout and stderr: on a description shared with the
   runner's own output, the runner's writes to a slow reader would fail. */
static void make_stdio_nonblocking(void) {
  for (int fd = 1; fd <= 2; fd++)
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  fprintf(stderr, "plugin_mock: \x1b[2Jstdio made non-blocking\n");
}

/* 2 MiB on stdout: blocks for ever unless someone reads it. */
static void flood_stdout(void) {
  static char line[1024];
  memset(line, 'f', sizeof line - 1);
  line[sizeof line - 1] = '\n';
  for (int i = 0; i < 2048; i++)
    fwrite(line, 1, sizeof line, stdout);
  fflush(stdout);
}

/* True when the address-space limit could be lifted: the soft limit raised
   to the hard one, then a mapping larger than the old soft limit made
   (never touched). */
static bool lift_memory_limit(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return false;
  size_t beyond = (size_t)rl.rlim_cur + ((size_t)64 << 20);
  rl.rlim_cur = rl.rlim_max;
  setrlimit(RLIMIT_AS, &rl);
  void *p = mmap(NULL, beyond, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return false;
  munmap(p, beyond);
  return true;
}

/* The process's socket to movconf (its only socket), or -1. */
static int movconf_socket(void) {
  for (int fd = 3; fd < 1024; fd++) {
    char path[64], target[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n > 0 && (target[n] = '\0', strncmp(target, "socket:", 7) == 0))
      return fd;
  }
  return -1;
}

/* A forked copy writes a well-formed reply numbered as this process's
   previous request (movconf's previous call, when the process served every
   call) and ends; the process waits for it, so the stale reply reaches
   movconf before this call's own. */
static void send_stale_reply_from_copy(void) {
  pid_t copy = fork();
  if (copy == 0) {
    mc_wire_reply r;
    memset(&r, 0, sizeof r);
    r.magic = MC_WIRE_MAGIC;
    r.kind = MC_WIRE_UNSUPPORTED;
    r.call = (uint64_t)cases_served - 1;
    int fd = movconf_socket();
    ssize_t sent = fd >= 0 ? write(fd, &r, sizeof r) : 0;
    _exit(sent == (ssize_t)sizeof r ? 0 : 1);
  }
  if (copy > 0)
    waitpid(copy, NULL, 0);
}

/* A copy by the clone system call that returns late in the process's
   first case (it sleeps first), and before the process in a later one
   (which waits for it to end). False when the clone failed. */
static long copy_delay_ms(void) {
  const char *text = getenv("MOVCONF_MOCK_COPY_DELAY_MS");
  return text ? atol(text) : 500;
}

static bool clone_late_copy(void) {
  long ms = copy_delay_ms();
  bool first = cases_served == 1;
  long copy = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
  if (copy == 0 && first)
    nanosleep(&(struct timespec){ms / 1000, ms % 1000 * 1000000}, NULL);
  if (copy > 0 && !first)
    waitpid((pid_t)copy, NULL, 0);
  return copy >= 0;
}

/* The copy fork-raw-linger made, for copy-alive. */
static pid_t lingering_copy;

/* A copy by the clone system call that sleeps seconds in run(), then
   returns. False when the clone failed. */
static bool clone_sleeping_copy(long ms) {
  long copy = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
  if (copy == 0)
    nanosleep(&(struct timespec){ms / 1000, ms % 1000 * 1000000}, NULL);
  if (copy > 0)
    lingering_copy = (pid_t)copy;
  return copy >= 0;
}

/* Whether the copy of an earlier case runs yet (ended: reaped here). */
static bool earlier_copy_alive(void) {
  return lingering_copy > 0 && waitpid(lingering_copy, NULL, WNOHANG) == 0;
}

/* Junk into the files under dir that the process pid has open. */
static void scribble_open_files(long pid, const char *dir) {
  char fds[64];
  snprintf(fds, sizeof fds, "/proc/%ld/fd", pid);
  DIR *d = opendir(fds);
  if (!d)
    return;
  static const char junk[] = "JUNK FROM THE MOCK PLUGIN\n";
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    char link[320], target[4096];
    snprintf(link, sizeof link, "%s/%s", fds, e->d_name);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0 || strncmp(target, dir, strlen(dir)) != 0)
      continue;
    int fd = open(link, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
      continue;
    if (pwrite(fd, junk, sizeof junk - 1, 0) < 0 || pwrite(fd, junk, sizeof junk - 1, 65536) < 0)
      fprintf(stderr, "plugin_mock: cannot scribble on %s\n", link);
    close(fd);
  }
  closedir(d);
}

/* The previous case's output, for write-earlier. */
static volatile uint8_t *earlier_output;

static int run(const mock_request *p, const movconf_plugin_output *o, movconf_plugin_message *m) {
  fault f = fault_of(p);
  misbehave_fatally(f, p, o);
  if (f == FAULT_WRITE_EARLIER && earlier_output)
    *earlier_output = 0x5A;
  earlier_output = o->data;
  if (f == FAULT_FORK_ORPHAN)
    fork_orphan();
  if (f == FAULT_FORK_ORPHAN_HANG) {
    fork_orphan();
    for (;;)
      sleep(1);
  }
  if (f == FAULT_POISON)
    poisoned = true;
  if (f == FAULT_CRASH_IF_POISONED && poisoned)
    raise(SIGSEGV);
  if (f == FAULT_CRASH_IF_NOT_FIRST && cases_served > 1)
    raise(SIGSEGV);
  if (f == FAULT_READ_PAST_SIDE)
    read_past_side_input(p);
  if (f == FAULT_FORK && fork() < 0)
    return reject(m, "", "mock: fork failed");
  if (f == FAULT_FORK_RAW && syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0) < 0)
    return reject(m, "", "mock: clone failed");
  if (f == FAULT_FORK_RAW_LATE && !clone_late_copy())
    return reject(m, "", "mock: clone failed");
  if (f == FAULT_FORK_RAW_LINGER && !clone_sleeping_copy(60000))
    return reject(m, "", "mock: clone failed");
  if (f == FAULT_FORK_RAW_SLOW && !clone_sleeping_copy(copy_delay_ms()))
    return reject(m, "", "mock: clone failed");
  if (f == FAULT_COPY_ALIVE && earlier_copy_alive())
    return reject(m, "", "mock: the copy forked in an earlier case still runs");
  if (f == FAULT_FORK_LINGER && fork() == 0)
    nanosleep(&(struct timespec){60, 0}, NULL);
  if (f == FAULT_STALE_REPLY)
    send_stale_reply_from_copy();
  if (f == FAULT_SCRIBBLE_FILES && getenv("MOVCONF_MOCK_SCRIBBLE_DIR")) {
    scribble_open_files((long)getpid(), getenv("MOVCONF_MOCK_SCRIBBLE_DIR"));
    scribble_open_files((long)getppid(), getenv("MOVCONF_MOCK_SCRIBBLE_DIR"));
  }
  if (f == FAULT_MISSED_REJECTION && !cached.data) {
    memcpy(o->data, p->inputs[0].data, (size_t)o->nbytes);
    return MOVCONF_PLUGIN_OK;
  }
  if (f == FAULT_NONBLOCK_STDIO)
    make_stdio_nonblocking();
  if (f == FAULT_FLOOD)
    flood_stdout();
  if (f == FAULT_LIFT_MEMORY_LIMIT && lift_memory_limit())
    return reject(m, "", "mock: lifted the memory limit and mapped beyond it");
  if (f == FAULT_SLOW)
    nanosleep(&(struct timespec){1, 500 * 1000 * 1000}, NULL);
  if (f == FAULT_STOP_PARENT)
    kill(getppid(), SIGSTOP);
  if (f == FAULT_STDOUT) {
    printf("garbage on stdout from the mock plugin\n");
    fflush(stdout);
  }
  memcpy(o->data, cached.data, (size_t)o->nbytes);
  if (f == FAULT_WRONG_VALUE)
    swap_first_two(o);
  if (f == FAULT_LATE_WRITE || f == FAULT_LATE_WRITE_SLOW)
    start_late_writer(o, f == FAULT_LATE_WRITE_SLOW);
  return MOVCONF_PLUGIN_OK;
}

static const mock_table table = {
    .abi_version = MOCK_ABI_VERSION,
    .name = "mock",
    .version = "1",
    .supports = supports,
    .output_shape = output_shape,
    .run = run,
};

/* Whether MOVCONF_MOCK_LOAD asks for this load-time fault. */
static bool load_fault(const char *name) {
  const char *load = getenv("MOVCONF_MOCK_LOAD");
  return load && strcmp(load, name) == 0;
}

__attribute__((constructor)) static void mock_constructor(void) {
  if (load_fault("ctor-segv")) {
    volatile char *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    page[0] = 1;
  }
  if (load_fault("ctor-null")) {
    volatile uintptr_t near_null = 8; /* opaque, as in FAULT_NULL */
    *(volatile int *)near_null = 1;
  }
}

const void *movconf_plugin_entry(uint32_t abi_version) {
  if (load_fault("entry-abort"))
    raise(SIGABRT);
  const char *abi = getenv("MOVCONF_MOCK_ABI");
  if (abi_version != MOCK_ABI_VERSION || (abi && strcmp(abi, "wrong") == 0))
    return NULL;
  read_config();
  return &table;
}
