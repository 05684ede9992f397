/* The child side of plugin isolation: a forked process that loads the plugin
   with dlopen and answers one request at a time on a socket. It maps the
   inputs read-only, each ending at an inaccessible guard page, and the
   output between two guard pages, so that an access where the plugin has
   no business faults; its fault handler then tells the parent what was hit
   before the child dies. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, sigaltstack */

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "common/clock.h"
#include "common/transfer.h"
#include "harness/harness.h"
#include "harness/impl/child.h"
#include "harness/impl/plugin/frames.h"
#include "harness/impl/plugin/plugin_call.h"
#include "harness/impl/plugin/plugin_wire.h"
#include "harness/impl/sanitize.h"
#include "movconf/plugin.h"
#include "movconf/tensor.h"

enum {
  CANARY = 0xCB,
  ALT_STACK_BYTES = 64 * 1024,
  LOW_ADDRESSES = 65536,
  DATA_ALIGNMENT = 64 /* the ABI's promise for the data input */
};

typedef struct region {
  uintptr_t begin, end; /* [begin, end) */
} region;

/* Outputs of earlier cases stay reserved, inaccessible and unbacked, after
   their case (a quarantine), so that a thread the plugin left writing into
   one faults at a known address and is charged to that case. Addresses are
   never reused within a child: when the quarantine is full (slots, or
   QUARANTINE_BYTES of address space, which counts under --memory-limit)
   the child asks to be retired after the case. */
enum { QUARANTINE_SLOTS = 4096 };
#define QUARANTINE_BYTES ((size_t)256 << 20)

typedef struct quarantined {
  region whole;  /* guard pages included */
  uint64_t call; /* the case's call number */
} quarantined;

/* What the fault handler needs; set before each call into the plugin. */
static struct {
  int fd;
  size_t memory_limit_mb;
  region lo_guard, hi_guard;
  uintptr_t out_begin, out_end;
  region out_body;   /* the current output's pages */
  uint64_t call;     /* the current request's call number */
  pid_t main_thread; /* the thread that calls the plugin */
  /* Read by the fault handler on the plugin's own threads, hence atomic:
     the sealed output (its pages once run() returned; 0, 0: none) and its
     call; the quarantine, whose entries are fixed once counted. */
  _Atomic uintptr_t sealed_begin, sealed_end;
  _Atomic uint64_t sealed_call;
  quarantined quarantine[QUARANTINE_SLOTS];
  _Atomic int n_quarantined;
  region inputs[MC_MAX_INPUTS];       /* each input's pages, read-only */
  region input_guards[MC_MAX_INPUTS]; /* the inaccessible page after each */
  uintptr_t input_ends[MC_MAX_INPUTS];
  const char *input_names[MC_MAX_INPUTS];
  const char *phase; /* the plugin function running, for messages */
  bool loading;      /* in dlopen: the plugin's constructors may run */
} fault_ctx;
static mc_wire_reply fault_reply;

/* A late fault caught on a thread of the plugin's own while the main
   thread may be writing to the socket: whoever of the two may write
   reports it (once), the other waits for the process to end. */
static mc_wire_reply late_reply;
static atomic_int late_pending, main_idle, late_reported;

/* ---- text for the fault handler: only async-signal-safe operations ---- */

typedef struct text_buf {
  char *p;
  size_t len, cap;
} text_buf;

static void put_str(text_buf *b, const char *s) {
  while (*s && b->len + 1 < b->cap)
    b->p[b->len++] = *s++;
  b->p[b->len] = '\0';
}

static void put_uint(text_buf *b, uint64_t v, unsigned base) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v);
  char s[28];
  int k = 0;
  if (base == 16) {
    s[k++] = '0';
    s[k++] = 'x';
  }
  while (n)
    s[k++] = digits[--n];
  s[k] = '\0';
  put_str(b, s);
}

static bool within(region r, uintptr_t a) {
  return a >= r.begin && a < r.end;
}

/* The input whose region (of fault_ctx's arrays) holds a, or -1. */
static int input_at(const region *regions, uintptr_t a) {
  for (int i = 0; i < MC_MAX_INPUTS; i++)
    if (within(regions[i], a))
      return i;
  return -1;
}

static void put_input(text_buf *b, int i) {
  put_str(b, "input ");
  put_uint(b, (uint64_t)i, 10);
  if (fault_ctx.input_names[i]) {
    put_str(b, " (");
    put_str(b, fault_ctx.input_names[i]);
    put_str(b, ")");
  }
}

/* Describes a fault at address a; false when it is none of the regions we
   guard (the default action then kills the child with the signal). */
static bool describe_fault(int sig, uintptr_t a, text_buf *b) {
  put_str(b, sig == SIGBUS ? "SIGBUS: " : "SIGSEGV: ");
  int past_input = input_at(fault_ctx.input_guards, a);
  if (past_input >= 0) {
    put_str(b, "read (or wrote) past the end of ");
    put_input(b, past_input);
    put_str(b, ": byte ");
    put_uint(b, (uint64_t)(a - fault_ctx.input_ends[past_input]), 10);
    put_str(b, " after its last byte, in ");
  } else if (within(fault_ctx.hi_guard, a)) {
    put_str(b, "wrote (or read) past the end of the output: byte ");
    put_uint(b, (uint64_t)(a - fault_ctx.out_end), 10);
    put_str(b, " after its last byte, in ");
  } else if (within(fault_ctx.lo_guard, a)) {
    put_str(b, "wrote (or read) before the start of the output: at offset -");
    put_uint(b, (uint64_t)(fault_ctx.out_begin - a), 10);
    put_str(b, " from its first byte, in ");
  } else {
    int hit = input_at(fault_ctx.inputs, a);
    if (hit >= 0) {
      put_str(b, "wrote to ");
      put_input(b, hit);
      put_str(b, ", which is read-only, in ");
    } else if (a < LOW_ADDRESSES) {
      put_str(b, "accessed address ");
      put_uint(b, (uint64_t)a, 16);
      /* The memory limit applies once the plugin is loaded. */
      put_str(b, fault_ctx.memory_limit_mb && !fault_ctx.loading
                     ? " (a NULL pointer; perhaps an allocation that failed "
                       "under the memory limit) in "
                     : " (a NULL pointer) in ");
    } else {
      return false;
    }
  }
  if (fault_ctx.phase) {
    put_str(b, fault_ctx.phase);
    put_str(b, "()");
  } else if (fault_ctx.loading) {
    put_str(b, "the plugin's constructor (while dlopen loaded it)");
  } else {
    put_str(b, "movconf's plugin host, outside the plugin's functions");
  }
  return true;
}

/* The process that serves: a copy the plugin forked is not it. */
static pid_t host_pid;

/* A copy of the host made by the plugin's fork() must never write to the
   socket (its replies would be taken for the host's): it ends here. */
static void end_if_copy(void) {
  if (getpid() != host_pid)
    _exit(0);
}

static void write_reply_raw(mc_wire_reply *r) {
  end_if_copy();
  r->call = fault_ctx.call;
  const char *p = (const char *)r;
  size_t left = sizeof *r;
  while (left > 0) {
    ssize_t n = write(fault_ctx.fd, p, left);
    if (n <= 0)
      break;
    p += n;
    left -= (size_t)n;
  }
}

/* Sends the late fault and ends the process, unless the other side does. */
static void report_late_once(void) {
  if (atomic_exchange(&late_reported, 1) == 0) {
    write_reply_raw(&late_reply);
    _exit(0);
  }
  for (;;)
    pause();
}

/* The main thread, at points where it is not writing: reports a late fault
   another thread caught. */
static void check_late_fault(void) {
  if (atomic_load(&late_pending))
    report_late_once();
}

static pid_t current_thread(void) {
  return (pid_t)syscall(SYS_gettid);
}

/* What is known of an access on the calling thread to pages that held an
   earlier case's output: the address and where it lies from this case's
   output (not how the plugin came by it: a pointer kept, or a stride past
   the guard page, look alike). */
static void put_quarantine_access(text_buf *b, uintptr_t a) {
  put_str(b, "SIGSEGV: accessed address ");
  put_uint(b, (uint64_t)a, 16);
  if (fault_ctx.out_end && a >= fault_ctx.out_end) {
    put_str(b, ", byte ");
    put_uint(b, (uint64_t)(a - fault_ctx.out_end), 10);
    put_str(b, " after the output's last byte (beyond its guard page)");
  } else if (fault_ctx.out_begin && a < fault_ctx.out_begin) {
    put_str(b, ", ");
    put_uint(b, (uint64_t)(fault_ctx.out_begin - a), 10);
    put_str(b, " bytes before the output's first byte (beyond its guard page)");
  }
  put_str(b, ", in pages that held an earlier case's output (inaccessible since), in ");
  put_str(b, fault_ctx.phase);
  put_str(b, "()");
}

/* An access to an output after its run() returned: the current one, or one
   in quarantine. True with the message in b and the call to blame. */
static bool late_access(uintptr_t a, text_buf *b, uint64_t *blame) {
  int slot = -1, n = atomic_load_explicit(&fault_ctx.n_quarantined, memory_order_acquire);
  for (int i = 0; i < n; i++)
    if (within(fault_ctx.quarantine[i].whole, a))
      slot = i;
  region sealed = {atomic_load(&fault_ctx.sealed_begin), atomic_load(&fault_ctx.sealed_end)};
  uint64_t sealed_call = atomic_load(&fault_ctx.sealed_call);
  bool current = slot < 0 && within(sealed, a);
  if (!current && slot < 0)
    return false;
  if (slot >= 0 && current_thread() == fault_ctx.main_thread && fault_ctx.phase) {
    put_quarantine_access(b, a);
    *blame = 0;
    return true;
  }
  put_str(b, "SIGSEGV: wrote to (or read) its output after run() returned: a thread it started "
             "was still at work");
  if (!current)
    put_str(b, " (the fault came after its reply had been sent)");
  *blame = current ? sealed_call : fault_ctx.quarantine[slot].call;
  return true;
}

/* A late access on another thread than the main one: reported by whichever
   may write to the socket now; this thread then waits for the end. */
static void set_fault_action(void);

static void handle_late(uint64_t blame) {
  set_fault_action(); /* SA_RESETHAND cleared it; the main thread may still fault */
  late_reply.magic = MC_WIRE_MAGIC;
  late_reply.kind = MC_WIRE_FATAL_FAULT;
  late_reply.blame_call = blame;
  atomic_store(&late_pending, 1);
  if (atomic_load(&main_idle) || current_thread() == fault_ctx.main_thread)
    report_late_once();
  for (;;)
    pause();
}

/* Before dying of a signal: the first frames of the stack to the parent,
   which adds them to the crash's detail. */
static void send_frames(void) {
  static mc_wire_reply frames;
  frames.magic = MC_WIRE_MAGIC;
  frames.kind = MC_WIRE_FRAMES;
  mc_frames_describe(frames.message, sizeof frames.message, 5);
  write_reply_raw(&frames);
}

/* SIGFPE, SIGILL, SIGABRT, SIGTRAP: the default action (restored by
   SA_RESETHAND) kills the child when the handler returns and the
   instruction runs again, or at once for a raised signal. */
static void on_fatal_signal(int sig, siginfo_t *info, void *context) {
  (void)context;
  send_frames();
  if (info->si_code <= 0 || sig == SIGABRT)
    raise(sig);
}

static void on_fault(int sig, siginfo_t *info, void *context) {
  (void)context;
  text_buf b = {fault_reply.message, 0, sizeof fault_reply.message};
  text_buf late = {late_reply.message, 0, sizeof late_reply.message};
  uint64_t blame = 0;
  if (info->si_code > 0 && late_access((uintptr_t)info->si_addr, &late, &blame)) {
    handle_late(blame);
    return;
  }
  if (info->si_code <= 0) {
    /* Sent by kill() or raise(), not a fault: si_addr means nothing. SA_RESETHAND
       restored the default action, which kills us once the handler returns. */
    raise(sig);
    return;
  }
  if (!describe_fault(sig, (uintptr_t)info->si_addr, &b)) {
    send_frames();
    return; /* the default action is back: the access faults again and kills us */
  }
  fault_reply.magic = MC_WIRE_MAGIC;
  fault_reply.kind = MC_WIRE_FATAL_FAULT;
  write_reply_raw(&fault_reply);
  _exit(0);
}

static void set_fault_action(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);
  sa.sa_sigaction = on_fatal_signal;
  sigaction(SIGFPE, &sa, NULL);
  sigaction(SIGILL, &sa, NULL);
  sigaction(SIGABRT, &sa, NULL);
  sigaction(SIGTRAP, &sa, NULL);
}

static void install_fault_handler(void) {
  static char alt_stack[ALT_STACK_BYTES];
  mc_frames_prepare();
  stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack, .ss_flags = 0};
  sigaltstack(&ss, NULL);
  set_fault_action();
}

/* ---- socket I/O (the child blocks; the parent enforces the timeout) ---- */

static bool read_full(int fd, void *buf, size_t len) {
  return mc_transfer_all(fd, buf, len, MC_TRANSFER_READ, 0);
}

/* Sends never raise SIGPIPE. */
static bool write_full(int fd, const void *buf, size_t len) {
  return mc_transfer_all(fd, (void *)(uintptr_t)buf, len, MC_TRANSFER_SEND, 0); /* only read */
}

static void send_reply(mc_wire_reply *r) {
  end_if_copy();
  r->magic = MC_WIRE_MAGIC;
  r->call = fault_ctx.call;
  if (!write_full(fault_ctx.fd, r, sizeof *r))
    _exit(0); /* the parent is gone */
}

static void copy_text(char *dst, size_t cap, const char *src) {
  size_t n = strnlen(src, cap - 1);
  memcpy(dst, src, n);
  dst[n] = '\0';
}

/* ---- a plugin that forks inside one of its functions ---- */

/* Made by the host just before the plugin forks: a pipe whose write end
   the host closes after the function returns, so that only the copies
   hold it (close-on-exec: a copy that execs drops it). */
static int fork_pipe[2] = {-1, -1};

/* Shared with every copy (MAP_SHARED): the call in which a copy returned
   from a plugin function, 0 for none. It also catches a fork that ran no
   pthread_atfork handler (a raw system call), perhaps only after the case
   was answered: the fault is then charged to that call. */
static _Atomic uint64_t *copy_returned_in;

static void share_copy_flag(void) {
  void *p = mmap(NULL, sizeof *copy_returned_in, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                 -1, 0);
  copy_returned_in = p == MAP_FAILED ? NULL : p;
}

/* The call in which a copy returned (and forgets it), or 0. */
static uint64_t take_copy_flag(void) {
  return copy_returned_in ? atomic_exchange(copy_returned_in, 0) : 0;
}

static void before_fork(void) {
  if (!fault_ctx.phase || getpid() != host_pid || fork_pipe[1] >= 0)
    return;
  if (pipe(fork_pipe) != 0) {
    fork_pipe[0] = fork_pipe[1] = -1;
    return;
  }
  fcntl(fork_pipe[0], F_SETFD, FD_CLOEXEC);
  fcntl(fork_pipe[1], F_SETFD, FD_CLOEXEC);
}

/* The host, after a plugin function returned: whether a copy the plugin
   forked in it returned too (it says so on the pipe), rather than exec,
   end, or still run at `until` (by the clock). */
static bool forked_copy_returned(double until) {
  if (fork_pipe[1] < 0)
    return false;
  close(fork_pipe[1]);
  fork_pipe[1] = -1;
  struct pollfd p = {.fd = fork_pipe[0], .events = POLLIN};
  int ready;
  do {
    double left_ms = (until - mc_now_seconds()) * 1000.0;
    ready = poll(&p, 1, left_ms > 0 ? (int)left_ms : 0);
  } while (ready < 0 && errno == EINTR);
  char byte;
  bool returned = ready > 0 && read(fork_pipe[0], &byte, 1) == 1;
  close(fork_pipe[0]);
  fork_pipe[0] = -1;
  return returned;
}

/* ---- the host's copies: its children that still run its program ---- */

/* A child of the host, as /proc numbers it, and when it started. */
typedef struct proc_id {
  long pid;
  unsigned long long start;
} proc_id;

#define MAX_COPIES 64
/* Children the plugin started while it loaded (its helpers): no copies. */
static proc_id helpers[MAX_COPIES];
static size_t n_helpers;
/* Copies found at the last look: reaped once they have ended. */
static proc_id seen_copies[MAX_COPIES];
static size_t n_seen_copies;

/* The host's pid as /proc numbers it (in a PID namespace of its own,
   getpid() numbers it otherwise); -1 when unknown. */
static long proc_self_pid(void) {
  char text[24];
  ssize_t n = readlink("/proc/self", text, sizeof text - 1);
  return n > 0 ? (text[n] = '\0', atol(text)) : -1;
}

static bool listed(const proc_id *list, size_t n, long pid, unsigned long long start) {
  for (size_t i = 0; i < n; i++)
    if (list[i].pid == pid && list[i].start == start)
      return true;
  return false;
}

/* Whether process pid_text still runs the host's program (self): a copy
   that has not exec'd (and has not ended). */
static bool runs_host_program(const char *pid_text, const struct stat *self) {
  char path[300];
  snprintf(path, sizeof path, "/proc/%s/exe", pid_text);
  struct stat st;
  return stat(path, &st) == 0 && st.st_dev == self->st_dev && st.st_ino == self->st_ino;
}

/* The running children of the host that run its program, the helpers
   left out, into found (up to cap); how many. Children are found by the
   parent in /proc/PID/stat: /proc/PID/task/TID/children exists only with a
   kernel option (CONFIG_PROC_CHILDREN) that some kernels lack. */
static size_t find_copies(proc_id *found, size_t cap, bool with_helpers) {
  struct stat self;
  long me = proc_self_pid();
  DIR *d = me > 0 && stat("/proc/self/exe", &self) == 0 ? opendir("/proc") : NULL;
  size_t n = 0;
  for (struct dirent *e; d && n < cap && (e = readdir(d)) != NULL;) {
    char state = 0;
    unsigned long long start = 0;
    if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
        mc_child_read_stat(e->d_name, &state, &start) != me || state == 'Z' ||
        !runs_host_program(e->d_name, &self))
      continue;
    long pid = atol(e->d_name);
    if (with_helpers || !listed(helpers, n_helpers, pid, start))
      found[n++] = (proc_id){pid, start};
  }
  if (d)
    closedir(d);
  return n;
}

/* Whether the host has a copy running (one that ended is reaped). Without
   any child at all (the common case) no /proc is read. */
static bool has_copies(void) {
  /* Pids in /proc's numbering are the host's own outside a PID namespace. */
  bool own_numbering = proc_self_pid() == (long)getpid();
  for (size_t i = 0; own_numbering && i < n_seen_copies; i++)
    waitpid((pid_t)seen_copies[i].pid, NULL, WNOHANG);
  siginfo_t info;
  if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0)
    return false; /* no child */
  n_seen_copies = find_copies(seen_copies, MAX_COPIES, false);
  return n_seen_copies > 0;
}

/* Once the plugin has loaded: what it started then are its helpers. */
static void note_helpers(void) {
  siginfo_t info;
  if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0)
    n_helpers = find_copies(helpers, MAX_COPIES, true);
}

/* Waits while the host has copies none of which returned, until `until`
   (by the clock, however slowly a loaded machine runs the loop). A copy
   still running then is no answer: movconf ends it with the case. */
static void wait_for_copies(double until) {
  while (!(copy_returned_in && atomic_load(copy_returned_in)) && has_copies() &&
         mc_now_seconds() < until)
    mc_sleep_briefly();
}

/* Reports that a copy returned from a plugin function (function, when
   known) in call `call`, this one or an earlier one, and ends the host. */
_Noreturn static void report_forked_copy(uint64_t call, const char *function) {
  mc_wire_reply r;
  memset(&r, 0, sizeof r);
  r.kind = MC_WIRE_FATAL_FAULT;
  r.blame_call = call == fault_ctx.call ? 0 : call;
  snprintf(r.message, sizeof r.message,
           "the plugin forked in %s%s and both copies returned from it (two processes would "
           "answer for one case): the copy was ended, and so is this process",
           function ? function : "a function of this case", function ? "()" : "");
  send_reply(&r);
  _exit(0);
}

/* After each plugin function returns. A copy of the host that the plugin
   forked tells the host so and ends at once, writing nothing to the
   socket. The host waits up to MC_WIRE_COPY_WAIT_MS for its copies (made
   by fork(), which says so on the pipe, or by a raw clone, found among its
   children) to return, exec or end: when it answers, it has judged every
   copy, so movconf ends whatever of the plugin's still runs then, with no
   copy to spare. When a copy returned, the case gets the fault and the
   host ends too (a fresh process serves the next case). */
static void plugin_function_returned(const char *function) {
  if (getpid() != host_pid) {
    char byte = 1;
    if (copy_returned_in)
      atomic_store(copy_returned_in, fault_ctx.call);
    ssize_t told = fork_pipe[1] >= 0 ? write(fork_pipe[1], &byte, 1) : 0;
    (void)told;
    _exit(0);
  }
  double until = mc_now_seconds() + MC_WIRE_COPY_WAIT_MS / 1000.0;
  bool returned = forked_copy_returned(until);
  if (!returned)
    wait_for_copies(until);
  uint64_t flagged = take_copy_flag();
  if (returned || (flagged && flagged == fault_ctx.call))
    report_forked_copy(fault_ctx.call, function);
  if (flagged)
    report_forked_copy(flagged, NULL);
}

/* Between requests: a copy that returned after its case was answered. */
static void check_forked_copy(void) {
  uint64_t flagged = take_copy_flag();
  if (flagged)
    report_forked_copy(flagged, NULL);
}

/* When the requests end: a copy (of a helper's making, say) may not have
   returned yet; the host waits for one to return, up to
   MC_WIRE_COPY_WAIT_MS (the parent listens longer). */
static void check_forked_copy_at_end(void) {
  wait_for_copies(mc_now_seconds() + MC_WIRE_COPY_WAIT_MS / 1000.0);
  check_forked_copy();
}

/* ---- memory: page-granular mappings the fault handler can recognise ---- */

typedef struct mapping {
  uint8_t *base;
  size_t len;
} mapping;

static size_t page_size(void) {
  return (size_t)sysconf(_SC_PAGESIZE);
}

/* Rounds len up to whole pages, at least one; false on overflow. */
static bool page_round(size_t len, size_t *out) {
  size_t page = page_size();
  if (len > SIZE_MAX - page)
    return false;
  *out = len == 0 ? page : (len + page - 1) / page * page;
  return true;
}

static bool map_pages(size_t len, mapping *m) {
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return false;
  *m = (mapping){p, len};
  return true;
}

static void unmap(mapping *m) {
  if (m->base)
    munmap(m->base, m->len);
  *m = (mapping){NULL, 0};
}

/* The output buffer: [guard page][canary ... output][guard page]; the output
   ends exactly where the upper guard page begins. */
typedef struct guarded_output {
  mapping map;
  uint8_t *data;
  size_t nbytes, slack; /* slack: canary bytes before data */
} guarded_output;

/* fill: the byte the output starts as, the request's (MC_OUTPUT_FILL or the second fill). */
static bool map_guarded_output(size_t nbytes, uint8_t fill, guarded_output *g) {
  size_t page = page_size(), body;
  if (!page_round(nbytes, &body) || body > SIZE_MAX - 2 * page ||
      !map_pages(body + 2 * page, &g->map))
    return false;
  uint8_t *lo = g->map.base, *hi = g->map.base + page + body;
  if (mprotect(lo, page, PROT_NONE) != 0 || mprotect(hi, page, PROT_NONE) != 0) {
    unmap(&g->map);
    return false;
  }
  g->nbytes = nbytes;
  g->slack = body - nbytes;
  g->data = hi - nbytes;
  memset(lo + page, CANARY, g->slack);
  memset(g->data, fill, nbytes);
  fault_ctx.lo_guard = (region){(uintptr_t)lo, (uintptr_t)(lo + page)};
  fault_ctx.hi_guard = (region){(uintptr_t)hi, (uintptr_t)(hi + page)};
  fault_ctx.out_begin = (uintptr_t)g->data;
  fault_ctx.out_end = (uintptr_t)hi;
  fault_ctx.out_body = (region){(uintptr_t)(lo + page), (uintptr_t)hi};
  return true;
}

/* After run() returned: the output becomes read-only, so that a thread the
   plugin left running faults on its next write, while this case is known. */
static void seal_output(guarded_output *g) {
  mprotect((void *)fault_ctx.out_body.begin, fault_ctx.out_body.end - fault_ctx.out_body.begin,
           PROT_READ);
  atomic_store(&fault_ctx.sealed_call, fault_ctx.call);
  atomic_store(&fault_ctx.sealed_begin, fault_ctx.out_body.begin);
  atomic_store(&fault_ctx.sealed_end, fault_ctx.out_body.end);
  (void)g;
}

static size_t quarantine_bytes(void) {
  size_t total = 0;
  int n = atomic_load(&fault_ctx.n_quarantined);
  for (int i = 0; i < n; i++)
    total += fault_ctx.quarantine[i].whole.end - fault_ctx.quarantine[i].whole.begin;
  return total;
}

/* Whether the output of g fills the quarantine: the child retires then. */
static bool quarantine_full_after(const guarded_output *g) {
  return atomic_load(&fault_ctx.n_quarantined) + 1 >= QUARANTINE_SLOTS ||
         quarantine_bytes() + g->map.len >= QUARANTINE_BYTES;
}

/* No output is sealed any more (it is in quarantine, or gone). */
static void unseal_output(void) {
  atomic_store(&fault_ctx.sealed_begin, 0);
  atomic_store(&fault_ctx.sealed_end, 0);
  fault_ctx.out_body = (region){0, 0};
}

/* Instead of unmapping the output: its pages are replaced by inaccessible,
   unbacked ones (no memory is kept) at the same addresses, counted in the
   quarantine before the output stops being the sealed one. */
static void quarantine_output(guarded_output *g) {
  region body = fault_ctx.out_body;
  int n = atomic_load(&fault_ctx.n_quarantined);
  if (n == QUARANTINE_SLOTS || /* only when the parent ignored the request to retire */
      mmap((void *)body.begin, body.end - body.begin, PROT_NONE,
           MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) == MAP_FAILED) {
    unmap(&g->map);
    unseal_output();
    return;
  }
  region whole = {(uintptr_t)g->map.base, (uintptr_t)g->map.base + g->map.len};
  fault_ctx.quarantine[n] = (quarantined){whole, fault_ctx.call};
  atomic_store_explicit(&fault_ctx.n_quarantined, n + 1, memory_order_release);
  unseal_output();
  g->map = (mapping){NULL, 0};
}

/* Bytes of canary the plugin overwrote, and how far before data the first one is. */
static size_t canary_damage(const guarded_output *g, size_t *farthest) {
  const uint8_t *canary = g->data - g->slack;
  size_t damaged = 0;
  *farthest = 0;
  for (size_t i = 0; i < g->slack; i++) {
    if (canary[i] != CANARY) {
      if (!damaged)
        *farthest = g->slack - i;
      damaged++;
    }
  }
  return damaged;
}

/* ---- one request ---- */

typedef struct host_request {
  mc_wire_request wire;
  char *strings[MC_ATTR_COUNT]; /* the string attributes (owned) */
  mapping inputs[MC_MAX_INPUTS];
  mc_tensor tensors[MC_MAX_INPUTS]; /* data in the read-only mappings */
  mc_plugin_call call;              /* what the plugin is handed */
} host_request;

/* A function of the AddressSanitizer runtime, when the host has one (under
   --sanitize it is preloaded); NULL in a plain host. */
typedef void (*asan_region_fn)(const volatile void *begin, size_t size);

static asan_region_fn asan_function(const char *name) {
  void *self = dlopen(NULL, RTLD_NOW);
  void *sym = self ? dlsym(self, name) : NULL;
  asan_region_fn fn = NULL;
  if (sym)
    memcpy(&fn, &sym, sizeof fn);
  return fn;
}

/* Marks [begin, end) unaddressable (poison) or addressable again for the
   sanitizer: the bytes a page guard cannot cover then fault under
   --sanitize too. Nothing without the runtime. */
static void asan_mark(uintptr_t begin, uintptr_t end, bool poison) {
  static asan_region_fn poison_fn, unpoison_fn;
  static bool looked;
  if (!looked) {
    poison_fn = asan_function("__asan_poison_memory_region");
    unpoison_fn = asan_function("__asan_unpoison_memory_region");
    looked = true;
  }
  asan_region_fn fn = poison ? poison_fn : unpoison_fn;
  if (fn && end > begin)
    fn((const void *)begin, end - begin);
}

static void free_host_request(host_request *h) {
  for (int i = 0; i < MC_ATTR_COUNT; i++)
    free(h->strings[i]);
  mc_plugin_call_free(&h->call);
  for (int i = 0; i < MC_MAX_INPUTS; i++) {
    /* Addresses the next mappings may reuse carry no poison. */
    asan_mark((uintptr_t)h->inputs[i].base, (uintptr_t)h->inputs[i].base + h->inputs[i].len, false);
    unmap(&h->inputs[i]);
  }
  memset(&fault_ctx.inputs, 0, sizeof fault_ctx.inputs);
  memset(&fault_ctx.input_guards, 0, sizeof fault_ctx.input_guards);
}

/* The bytes an input takes before its guard page: the data input keeps
   the ABI's 64-byte alignment (it ends up to 63 bytes before the guard,
   bytes poisoned for the sanitizer); side inputs end exactly at the
   guard. False on overflow. */
static bool input_span(int i, uint64_t nbytes, size_t *span) {
  uint64_t align = i == 0 ? DATA_ALIGNMENT : 1;
  if (nbytes > SIZE_MAX - DATA_ALIGNMENT)
    return false;
  *span = (size_t)((nbytes + align - 1) / align * align);
  return true;
}

/* Reads input i into read-only pages placed so that its last byte is
   followed by an inaccessible page: a read past its end faults. */
static bool read_input(int fd, const mc_wire_tensor *t, int op, int i, host_request *h) {
  size_t page = page_size(), span, body;
  if (t->rank < 0 || t->rank > MC_TENSOR_MAX_RANK || !input_span(i, t->nbytes, &span) ||
      !page_round(span, &body) || body > SIZE_MAX - page || !map_pages(body + page, &h->inputs[i]))
    return false;
  uint8_t *guard = h->inputs[i].base + body, *data = guard - span;
  if (!read_full(fd, data, (size_t)t->nbytes) ||
      mprotect(h->inputs[i].base, body, PROT_READ) != 0 || mprotect(guard, page, PROT_NONE) != 0)
    return false;
  fault_ctx.inputs[i] = (region){(uintptr_t)h->inputs[i].base, (uintptr_t)guard};
  fault_ctx.input_guards[i] = (region){(uintptr_t)guard, (uintptr_t)guard + page};
  fault_ctx.input_ends[i] = (uintptr_t)data + (size_t)t->nbytes;
  asan_mark(fault_ctx.input_ends[i], (uintptr_t)guard, true); /* the alignment's slack */
  fault_ctx.input_names[i] = mc_op_input_name((mc_op)op, i);
  mc_tensor *m = &h->tensors[i];
  m->type = (mc_type)t->type;
  m->rank = t->rank;
  memcpy(m->shape, t->shape, sizeof m->shape);
  m->data = data;
  m->nbytes = (size_t)t->nbytes;
  return true;
}

/* Reads one request. Returns 1 when read, 0 at EOF (the parent closed the
   socket), -1 when memory for it could not be had (the rest is unreadable). */
static int read_request(int fd, host_request *h) {
  memset(h, 0, sizeof *h);
  if (!read_full(fd, &h->wire, sizeof h->wire))
    return 0;
  const mc_wire_request *w = &h->wire;
  if (w->magic != MC_WIRE_MAGIC || w->n_inputs < 0 || w->n_inputs > MC_MAX_INPUTS)
    return 0;
  mc_request req = {.op = (mc_op)w->op, .n_inputs = w->n_inputs};
  if (!mc_wire_get_attrs(w, read_full, fd, h->strings, &req.attrs))
    return -1;
  for (int i = 0; i < w->n_inputs; i++)
    if (!read_input(fd, &w->inputs[i], w->op, i, h))
      return -1;
  /* The request movconf sent, handed on as plugin_call.c presents any request. */
  for (int i = 0; i < w->n_inputs; i++)
    req.inputs[i] = &h->tensors[i];
  return mc_plugin_call_init(&h->call, &req, w->max_output_bytes) ? 1 : -1;
}

static void reply_fault(mc_wire_reply *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void reply_fault(mc_wire_reply *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  r->kind = MC_WIRE_FAULT;
  vsnprintf(r->message, sizeof r->message, fmt, ap);
  va_end(ap);
}

/* Checks the output the plugin announced (plugin_call.c). True when it can
   be computed, with its size in *nbytes; else *r holds a fault (not a tensor
   at all) or a rejection made for the plugin (a tensor beyond the suite's
   limits, MC-L3 or MC-L4). */
static bool check_announced(const movconf_plugin_output *o, uint64_t cap, size_t *nbytes,
                            mc_wire_reply *r) {
  switch (mc_plugin_check_announced(o, cap, nbytes, r->error, sizeof r->error, r->message,
                                    sizeof r->message)) {
  case MC_PLUGIN_ANNOUNCED_OK:
    return true;
  case MC_PLUGIN_ANNOUNCED_FAULT:
    r->kind = MC_WIRE_FAULT;
    return false;
  case MC_PLUGIN_ANNOUNCED_REJECTED:
    r->kind = MC_WIRE_REJECTED;
    r->by_runner = 1;
    return false;
  }
  return false;
}

static void fill_output_descriptor(const movconf_plugin_output *o, mc_wire_reply *r,
                                   size_t nbytes) {
  r->output.type = o->type;
  r->output.rank = o->rank;
  for (int d = 0; d < o->rank; d++)
    r->output.shape[d] = o->shape[d];
  r->output.nbytes = nbytes;
}

/* The plugin's arrays need not end in a NUL: never read past them. */
static void take_message(const movconf_plugin_message *m, mc_wire_reply *r) {
  _Static_assert(sizeof r->error >= sizeof m->error && sizeof r->message > sizeof m->text,
                 "a plugin's message fits the wire's");
  r->kind = MC_WIRE_REJECTED;
  copy_text(r->error, sizeof m->error, m->error);
  copy_text(r->message, sizeof m->text + 1, m->text);
}

/* Calls run() into a guarded buffer and sends the reply (and bytes). */
static void compute_and_reply(const mc_plugin *t, const host_request *h, movconf_plugin_output *o,
                              size_t nbytes, mc_wire_reply *r) {
  guarded_output g;
  memset(&g, 0, sizeof g);
  if (!map_guarded_output(nbytes, (uint8_t)h->wire.output_fill, &g)) {
    reply_fault(r,
                "the runner could not map the %zu-byte output in the child (raise "
                "--memory-limit?)",
                nbytes);
    send_reply(r);
    return;
  }
  o->data = g.data;
  o->nbytes = nbytes;
  movconf_plugin_message m;
  memset(&m, 0, sizeof m);
  fault_ctx.phase = "run";
  int s = mc_plugin_run(t, &h->call, o, &m);
  fault_ctx.phase = NULL;
  plugin_function_returned("run");
  seal_output(&g);
  check_late_fault();
  size_t farthest, damaged = canary_damage(&g, &farthest);
  if (damaged) {
    reply_fault(r,
                "wrote before the start of the output: %zu byte%s changed, up to %zu before "
                "its first byte, in run()",
                damaged, damaged == 1 ? "" : "s", farthest);
  } else if (s == MOVCONF_PLUGIN_REJECTED) {
    take_message(&m, r);
  } else if (s != MOVCONF_PLUGIN_OK) {
    reply_fault(r, "run() returned %d, neither MOVCONF_PLUGIN_OK nor MOVCONF_PLUGIN_REJECTED", s);
  } else {
    r->kind = MC_WIRE_OUTPUT;
    fill_output_descriptor(o, r, nbytes);
  }
  r->retire = quarantine_full_after(&g);
  send_reply(r);
  if (r->kind == MC_WIRE_OUTPUT && !write_full(fault_ctx.fd, g.data, nbytes))
    _exit(0);
  check_late_fault();
  quarantine_output(&g);
  memset(&fault_ctx.lo_guard, 0, sizeof fault_ctx.lo_guard);
  memset(&fault_ctx.hi_guard, 0, sizeof fault_ctx.hi_guard);
}

static void serve(const mc_plugin *t, const host_request *h) {
  mc_wire_reply r;
  memset(&r, 0, sizeof r);
  fault_ctx.phase = "supports";
  int supported = mc_plugin_supports(t, &h->call);
  fault_ctx.phase = NULL;
  plugin_function_returned("supports");
  if (!supported || h->wire.supports_only) {
    r.kind = supported ? MC_WIRE_SUPPORTED : MC_WIRE_UNSUPPORTED;
    send_reply(&r);
    return;
  }
  movconf_plugin_output o;
  movconf_plugin_message m;
  memset(&o, 0, sizeof o);
  memset(&m, 0, sizeof m);
  fault_ctx.phase = "output_shape";
  int s = mc_plugin_output_shape(t, &h->call, &o, &m);
  fault_ctx.phase = NULL;
  plugin_function_returned("output_shape");
  size_t nbytes;
  if (s == MOVCONF_PLUGIN_REJECTED) {
    take_message(&m, &r);
  } else if (s != MOVCONF_PLUGIN_OK) {
    reply_fault(&r,
                "output_shape() returned %d, neither MOVCONF_PLUGIN_OK nor "
                "MOVCONF_PLUGIN_REJECTED",
                s);
  } else if (check_announced(&o, h->wire.max_output_bytes, &nbytes, &r)) {
    compute_and_reply(t, h, &o, nbytes, &r);
    return;
  }
  send_reply(&r);
}

/* ---- start-up ---- */

/* Limits the address space to what the child inherited plus limit_mb: the
   fork carries the parent's mappings, which the child cannot give back.
   The hard limit too, or the plugin could raise the soft one back. */
static bool apply_memory_limit(size_t limit_mb, char *err, size_t errlen) {
  if (limit_mb == 0)
    return true;
  unsigned long long pages = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%llu", &pages) != 1)
      pages = 0;
    fclose(f);
  }
  unsigned long long inherited = pages * page_size();
  unsigned long long extra = (unsigned long long)limit_mb << 20;
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) != 0) {
    snprintf(err, errlen, "getrlimit: %s", strerror(errno));
    return false;
  }
  rlim_t want = (rlim_t)(inherited > ~0ull - extra ? ~0ull : inherited + extra);
  if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max)
    want = rl.rlim_max;
  rl.rlim_cur = rl.rlim_max = want;
  if (setrlimit(RLIMIT_AS, &rl) != 0) {
    snprintf(err, errlen, "cannot set the memory limit: %s", strerror(errno));
    return false;
  }
  return true;
}

/* Keeps the plugin's chatter off movconf's stdout (the report goes there)
   and away from its stdin; ends the child with the parent. */
static void isolate_stdio(void) {
  mc_plain_standard_streams();
  dup2(STDERR_FILENO, STDOUT_FILENO);
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) {
    dup2(devnull, STDIN_FILENO);
    close(devnull);
  }
#if defined(__linux__)
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
}

/* Threads of this process (the plugin may have started some). */
static int thread_count(void) {
  DIR *d = opendir("/proc/self/task");
  int n = 0;
  if (!d)
    return 1;
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

/* When the request stream ends: if the plugin left threads behind, a short
   wait (settle_ms), so that a late write they make is still reported (by the thread
   that faults: the main thread is idle) and charged to its case. */
_Noreturn static void settle_and_exit(int settle_ms) {
  /* In steps of a millisecond: threads that end sooner end the wait. */
  for (int waited = 0; waited < settle_ms && thread_count() > 1; waited++) {
    struct timespec step = {0, 1000 * 1000};
    while (nanosleep(&step, &step) != 0 && errno == EINTR)
      continue;
  }
  _exit(0);
}

void mc_plugin_host_main(int fd, const char *path, size_t memory_limit_mb, int settle_ms) {
  fault_ctx.fd = fd;
  /* What the plugin starts does not hold the socket: when the child ends,
     movconf sees it closed at once. */
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  host_pid = getpid();
  share_copy_flag();
  pthread_atfork(before_fork, NULL, NULL);
  fault_ctx.memory_limit_mb = memory_limit_mb;
  isolate_stdio();
  mc_child_no_core_file();
  install_fault_handler();
  mc_wire_reply r;
  memset(&r, 0, sizeof r);
  fault_ctx.loading = true;
  const mc_plugin *t = mc_plugin_load(path, &fault_ctx.phase, r.message, sizeof r.message);
  fault_ctx.loading = false;
  if (!t || !apply_memory_limit(memory_limit_mb, r.message, sizeof r.message)) {
    r.kind = MC_WIRE_LOAD_FAILED;
    send_reply(&r);
    _exit(0);
  }
  mc_sanitizer_host_loaded();
  r.kind = MC_WIRE_HELLO;
  copy_text(r.name, sizeof r.name, t->name);
  copy_text(r.version, sizeof r.version, t->version);
  send_reply(&r);
  fault_ctx.main_thread = current_thread();
  note_helpers();
  for (;;) {
    host_request h;
    /* Idle: a late fault is reported by the thread that caught it. */
    atomic_store(&main_idle, 1);
    check_late_fault();
    int got = read_request(fd, &h);
    if (got == 0) {
      check_forked_copy_at_end();
      settle_and_exit(settle_ms);
    }
    atomic_store(&main_idle, 0);
    check_late_fault();
    fault_ctx.call = h.wire.call;
    check_forked_copy();
    if (got < 0) {
      /* The rest of the request is unread: the stream is lost, so end. */
      memset(&r, 0, sizeof r);
      reply_fault(&r, "the runner could not allocate the request in the child (raise "
                      "--memory-limit?)");
      r.kind = MC_WIRE_FATAL_FAULT;
      send_reply(&r);
      _exit(0);
    }
    serve(t, &h);
    free_host_request(&h);
  }
}

int mc_plugin_host_command(int argc, char **argv) {
  char *end, *memory_end;
  long fd = argc == 5 ? strtol(argv[1], &end, 10) : -1;
  if (fd < 0 || *end != '\0')
    return 2;
  unsigned long long memory_limit_mb = strtoull(argv[4], &memory_end, 10);
  if (*memory_end != '\0')
    return 2;
  mc_plugin_host_main((int)fd, argv[2], (size_t)memory_limit_mb, atoi(argv[3]));
}
