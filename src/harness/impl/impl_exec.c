/* --impl exec:'COMMAND ARGS': an implementation in any language, run as one
   long-lived child process speaking JSON Lines (spec/adapter-protocol.md).

   The child runs under /bin/sh -c in a process group of its own, so that
   killing the group also ends whatever the shell started. An adapter that
   dies, stops answering or breaks the protocol is killed; the case is
   reported as a crash or a timeout, and a fresh adapter is started for the
   next case. Nothing the adapter writes makes movconf allocate more than
   one reply line of bounded length (a function of the output cap). */
#include "common/clock.h"
#include "common/text.h"
#include "harness/impl/child.h"
#include "harness/impl/child_text.h"
#include "harness/impl/sanitize.h"
#include "harness/impl/shm_region.h"
#include "harness/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

/* Replies are held to the rules of case files: the loader's strict JSON
   text check, exact integer tokens and strict base64. */
#include "cases/json.h"
#include "cases/payload.h"
#include "movconf/optimized.h"
#include "movconf/tensor.h"

/* The handshake is small; a longer first line is not one. */
#define HANDSHAKE_MAX_BYTES ((size_t)1 << 20)
/* Room in a reply line for everything but the output's base64. */
#define LINE_SLACK_BYTES ((size_t)1 << 16)
/* Number tokens are located by int offsets (mc_json_tag_numbers). */
#define LINE_HARD_MAX_BYTES ((size_t)INT_MAX)
#define FIRST_READ_BUFFER_BYTES ((size_t)1 << 16)
/* After this many failed restarts in a row the adapter is not started
   again: the remaining cases are reported at once instead of each one
   waiting for a start that will not come. */
#define MAX_RESTART_FAILURES 3
/* How long an adapter that closed its output gets to exit, so that the
   report can say how it ended; and how long it gets to exit at shutdown. */
#define EXIT_GRACE_SECONDS 1.0
#define SHUTDOWN_GRACE_SECONDS 2.0
#define NAME_MAX_CHARS 100

typedef struct adapter {
  char *command;
  char *label;              /* impl->name: "NAME VERSION (exec: COMMAND)" */
  double timeout;           /* per request, seconds; <= 0: none */
  double handshake_timeout; /* from the start to the handshake line; <= 0: none */
  double stop_at;           /* mc_impl_options.stop_at */
  pid_t pid;                /* 0: not running */
  int in_fd;                /* the adapter's stdin */
  int out_fd;               /* the adapter's stdout */
  char *buf;                /* bytes read from its stdout and not consumed yet */
  size_t len, cap;
  uint64_t last_id;
  uint64_t served;    /* requests this process has been sent */
  uint64_t last_call; /* mc_impl.calls of the last request sent, and of the one before */
  uint64_t previous_call;
  bool claims[MC_OP_COUNT][MC_TYPE_COUNT]; /* from the handshake */
  int restart_failures;
  bool grace_spent;           /* exec_settle already waited the shutdown grace */
  bool times_itself;          /* the handshake declared the timing request */
  bool offers_shm;            /* the handshake declared the shared-memory payload */
  mc_adapter_payload payload; /* --payload: when to use it */
  bool warned_shm;            /* said once that it could not be used */
  mc_shm_region region;       /* the pending request's, when it has one */
  /* During a timing request: what it asks, and where its answer goes. */
  const mc_timing_request *timing;
  mc_self_timing *own;
  mc_sanitizer sanitizer; /* --sanitize: where the adapter's reports go */
  mc_child_text text;     /* its stderr, relayed */
} adapter;

/* ---- the child process ---- */

static void close_pair(int fds[2]) {
  close(fds[0]);
  close(fds[1]);
}

/* In the child: its own process group, default SIGPIPE (movconf ignores
   it, and an ignored disposition survives exec), the pipes as stdin,
   stdout and stderr (relayed: never a description movconf writes to). */
_Noreturn static void exec_child(const adapter *a, int stdin_fd, int stdout_fd, int stderr_fd) {
  setpgid(0, 0);
  if (a->sanitizer.dir[0]) /* an adapter built with sanitizers reports to files */
    mc_sanitizer_child_env(&a->sanitizer);
#if defined(__linux__)
  prctl(PR_SET_PDEATHSIG, SIGKILL); /* even movconf's SIGKILL ends the adapter */
#endif
  signal(SIGPIPE, SIG_DFL);
  mc_child_no_core_file();
  if (dup2(stdin_fd, STDIN_FILENO) < 0 || dup2(stdout_fd, STDOUT_FILENO) < 0 ||
      dup2(stderr_fd, STDERR_FILENO) < 0)
    _exit(127);
  execl("/bin/sh", "sh", "-c", a->command, (char *)NULL);
  _exit(127);
}

static bool spawn(adapter *a, char *why, size_t whylen) {
  int to_child[2], from_child[2];
  if (!mc_child_pipe(to_child)) {
    snprintf(why, whylen, "cannot create a pipe: %s", strerror(errno));
    return false;
  }
  if (!mc_child_pipe(from_child)) {
    snprintf(why, whylen, "cannot create a pipe: %s", strerror(errno));
    close_pair(to_child);
    return false;
  }
  int text = mc_child_text_open(&a->text);
  pid_t pid = text < 0 ? -1 : fork();
  if (pid < 0) {
    snprintf(why, whylen, "cannot start a process: %s", strerror(errno));
    close_pair(to_child);
    close_pair(from_child);
    if (text >= 0)
      close(text);
    mc_child_text_close(&a->text);
    return false;
  }
  if (pid == 0)
    exec_child(a, to_child[0], from_child[1], text);
  setpgid(pid, pid); /* also done by the child; whichever runs first wins */
  close(to_child[0]);
  close(from_child[1]);
  close(text);
  a->pid = pid;
  a->in_fd = to_child[1];
  a->out_fd = from_child[0];
  fcntl(a->in_fd, F_SETFL, fcntl(a->in_fd, F_GETFL) | O_NONBLOCK);
  fcntl(a->out_fd, F_SETFL, fcntl(a->out_fd, F_GETFL) | O_NONBLOCK);
  a->len = 0;
  a->served = 0;
  return true;
}

/* Kills the adapter's process group and reaps the adapter. The group is
   signalled before the reap, while its id cannot have been reused. */
static void stop(adapter *a) {
  if (a->pid <= 0)
    return;
  mc_child_kill(a->pid, true);
  mc_child_end_all(); /* and what left the group (setsid) or outlived its parent */
  mc_child_text_close(&a->text);
  if (a->in_fd >= 0)
    close(a->in_fd);
  close(a->out_fd);
  a->pid = 0;
  a->in_fd = a->out_fd = -1;
  a->len = 0;
  /* A buffer grown for one huge reply is not kept for the whole run. */
  if (a->cap > FIRST_READ_BUFFER_BYTES) {
    free(a->buf);
    a->buf = NULL;
    a->cap = 0;
  }
}

/* ---- reading lines ---- */

typedef enum io_status { IO_OK, IO_CLOSED, IO_TIMEOUT, IO_TOO_LONG, IO_FAILED } io_status;

/* Makes room for more input, never beyond limit bytes in all. */
static bool grow_input(adapter *a, size_t limit) {
  if (a->len < a->cap)
    return true;
  size_t want = a->cap ? a->cap * 2 : FIRST_READ_BUFFER_BYTES;
  if (want > limit || want < a->cap)
    want = limit;
  if (want <= a->cap)
    return false;
  char *grown = realloc(a->buf, want);
  if (!grown)
    return false;
  a->buf = grown;
  a->cap = want;
  return true;
}

/* Reads until a->buf holds a whole line of at most max_len bytes (the
   newline not counted) and sets *line_len to its length. */
static io_status read_line(adapter *a, double deadline, size_t max_len, size_t *line_len) {
  size_t scanned = 0;
  for (;;) {
    char *newline = a->len > scanned ? memchr(a->buf + scanned, '\n', a->len - scanned) : NULL;
    if (newline) {
      *line_len = (size_t)(newline - a->buf);
      return *line_len <= max_len ? IO_OK : IO_TOO_LONG;
    }
    scanned = a->len;
    if (a->len > max_len)
      return IO_TOO_LONG;
    if (!grow_input(a, max_len + 1))
      return IO_FAILED;
    struct pollfd p = {.fd = a->out_fd, .events = POLLIN};
    /* The adapter's own end counts, not only the end of its output: a
       process it started may hold that open. */
    int ready = mc_child_poll(&p, 1, deadline, a->pid);
    if (ready == MC_CHILD_ENDED)
      return IO_CLOSED;
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0)
      return IO_FAILED;
    if (ready == 0)
      return IO_TIMEOUT;
    ssize_t got = read(a->out_fd, a->buf + a->len, a->cap - a->len);
    if (got == 0)
      return IO_CLOSED;
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (got < 0)
      return IO_FAILED;
    a->len += (size_t)got;
  }
}

/* Drops a line and its newline from the front of the buffer. */
static void consume_line(adapter *a, size_t line_len) {
  size_t used = line_len + 1;
  memmove(a->buf, a->buf + used, a->len - used);
  a->len -= used;
}

/* ---- writing requests ---- */

static io_status write_all(adapter *a, const char *data, size_t n, double deadline) {
  while (n > 0) {
    ssize_t put = write(a->in_fd, data, n);
    if (put > 0) {
      data += put;
      n -= (size_t)put;
      continue;
    }
    if (put < 0 && errno == EPIPE)
      return IO_CLOSED;
    if (put < 0 && errno != EAGAIN && errno != EINTR)
      return IO_FAILED;
    struct pollfd p = {.fd = a->in_fd, .events = POLLOUT};
    int ready = mc_child_poll(&p, 1, deadline, a->pid);
    if (ready == MC_CHILD_ENDED)
      return IO_CLOSED;
    if (ready == 0)
      return IO_TIMEOUT;
    if (ready < 0 && errno != EINTR)
      return IO_FAILED;
  }
  return IO_OK;
}

/* The request streamed through the one JSON writer (cases/json.h): the
   text goes to the adapter in chunks, never whole into memory. */
typedef struct request_sink {
  adapter *a;
  double deadline;
  io_status status;
} request_sink;

static bool send_chunk(void *ctx, const char *data, size_t n) {
  request_sink *s = ctx;
  s->status = write_all(s->a, data, n, s->deadline);
  return s->status == IO_OK;
}

/* A tensor of the request: its bytes in base64, or the offset of its bytes
   in the request's shared memory file. */
static void put_tensor(mc_text *t, const mc_tensor *x, const mc_shm_region *region, int input) {
  mc_text_printf(t, "{\"type\":");
  mc_json_write_string(t, mc_type_name(x->type));
  mc_text_printf(t, ",\"shape\":");
  mc_json_write_shape(t, MC_JSON_PROTOCOL, x->rank, x->shape);
  if (region->fd >= 0) {
    mc_text_printf(t, ",\"offset\":%zu}", region->input_offset[input]);
    return;
  }
  mc_text_printf(t, ",\"base64\":\"");
  mc_base64_write(t, x->data, x->nbytes);
  mc_text_printf(t, "\"}");
}

static void put_region(mc_text *t, const mc_shm_region *region) {
  mc_text_printf(t, ",\"shared_memory\":{\"path\":");
  mc_json_write_string(t, region->path);
  mc_text_printf(t, ",\"size\":%zu,\"output_offset\":%zu,\"output_bytes\":%zu}", region->size,
                 region->output_offset, region->output_room);
}

static io_status send_request(adapter *a, const mc_request *req, uint64_t id,
                              size_t max_output_bytes, double deadline) {
  request_sink sink = {a, deadline, IO_OK};
  mc_text t = {.sink = send_chunk, .sink_ctx = &sink};
  mc_text_printf(&t, "{\"id\":%" PRIu64 ",\"op\":", id);
  mc_json_write_string(&t, mc_op_name(req->op));
  mc_text_printf(&t, ",\"attributes\":");
  mc_json_write_attrs(&t, MC_JSON_PROTOCOL, req);
  mc_text_printf(&t, ",\"inputs\":{");
  for (int i = 0; i < req->n_inputs; i++) {
    mc_text_printf(&t, i ? "," : "");
    mc_json_write_string(&t, mc_op_input_name(req->op, i));
    mc_text_printf(&t, ":");
    put_tensor(&t, req->inputs[i], &a->region, i);
  }
  mc_text_printf(&t, "},\"max_output_bytes\":%zu", max_output_bytes);
  if (a->region.fd >= 0)
    put_region(&t, &a->region);
  if (a->timing)
    mc_text_printf(&t, ",\"timing\":{\"runs\":%d,\"min_run_seconds\":%.6f}", a->timing->runs,
                   a->timing->min_run_seconds);
  mc_text_printf(&t, "}\n");
  bool sent = mc_text_flush(&t);
  mc_text_free(&t);
  return sent ? IO_OK : sink.status != IO_OK ? sink.status : IO_FAILED;
}

/* ---- reading JSON ---- */

/* One line parsed strictly; numbers carry their text offset in valueint. */
static cJSON *parse_line(const char *line, size_t n, char *why, size_t whylen) {
  char lex_why[200];
  if (!mc_json_check_text(line, n, lex_why, sizeof lex_why)) {
    snprintf(why, whylen, "not JSON: %s", lex_why);
    return NULL;
  }
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(line, n, &end, false);
  if (!root) {
    snprintf(why, whylen, "not JSON (near byte %zu)", end ? (size_t)(end - line) : (size_t)0);
    return NULL;
  }
  for (size_t at = (size_t)(end - line); at < n; at++) {
    if (!strchr(" \t\r", line[at]) || line[at] == '\0') {
      snprintf(why, whylen, "text after the JSON object at byte %zu", at);
      cJSON_Delete(root);
      return NULL;
    }
  }
  if (!cJSON_IsObject(root)) {
    snprintf(why, whylen, "the line is not a JSON object");
    cJSON_Delete(root);
    return NULL;
  }
  mc_json_tag_numbers(root, line, n);
  return root;
}

/* Every member of obj is one of allowed, none twice. */
static bool check_keys(const cJSON *obj, const char *where, const char *const *allowed, int n,
                       char *why, size_t whylen) {
  for (const cJSON *m = obj->child; m; m = m->next) {
    bool known = false;
    for (int i = 0; i < n && !known; i++)
      known = strcmp(m->string, allowed[i]) == 0;
    if (!known) {
      snprintf(why, whylen, "unknown key \"%.60s\" in %s", m->string, where);
      return false;
    }
    for (const cJSON *o = obj->child; o != m; o = o->next) {
      if (strcmp(o->string, m->string) == 0) {
        snprintf(why, whylen, "key \"%.60s\" appears twice in %s", m->string, where);
        return false;
      }
    }
  }
  return true;
}

/* A number written as a plain decimal integer ([-]digits) within int64. */
static bool plain_integer(const char *line, size_t n, const cJSON *item, int64_t *out) {
  if (!cJSON_IsNumber(item) || item->valueint < 0)
    return false;
  size_t at = (size_t)item->valueint;
  size_t len = mc_json_number_length(line, n, at);
  bool negative = len > 0 && line[at] == '-';
  size_t i = negative ? 1 : 0;
  if (i == len)
    return false;
  uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  uint64_t v = 0;
  for (; i < len; i++) {
    char c = line[at + i];
    if (c < '0' || c > '9')
      return false;
    unsigned digit = (unsigned)(c - '0');
    if (v > (limit - digit) / 10)
      return false;
    v = v * 10 + digit;
  }
  *out = negative ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
  return true;
}

/* ---- the handshake ---- */

typedef bool claim_table[MC_OP_COUNT][MC_TYPE_COUNT];

static bool read_claims(claim_table claims, const cJSON *ops, char *why, size_t whylen) {
  if (!cJSON_IsObject(ops)) {
    snprintf(why, whylen, "\"ops\" must be an object keyed by operation name");
    return false;
  }
  for (const cJSON *op = ops->child; op; op = op->next) {
    int code = mc_op_from_name(op->string);
    if (code < 0 || strcmp(op->string, mc_op_name((mc_op)code)) != 0) {
      snprintf(why, whylen, "ops: unknown operation \"%.60s\" (names are like \"BatchToSpace-2\")",
               op->string);
      return false;
    }
    static const char *const op_keys[] = {"types"};
    char where[96];
    snprintf(where, sizeof where, "ops.%s", op->string);
    if (!cJSON_IsObject(op)) {
      snprintf(why, whylen, "%s must be an object", where);
      return false;
    }
    if (!check_keys(op, where, op_keys, 1, why, whylen))
      return false;
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(op, "types");
    if (!cJSON_IsArray(types)) {
      snprintf(why, whylen, "%s.types must be an array of element type names", where);
      return false;
    }
    for (const cJSON *t = types->child; t; t = t->next) {
      mc_type type = cJSON_IsString(t) ? mc_type_from_name(t->valuestring) : MC_TYPE_INVALID;
      if (type == MC_TYPE_INVALID) {
        snprintf(why, whylen, "%s.types: not an element type name (f32, u4, ...)", where);
        return false;
      }
      claims[code][type] = true;
    }
  }
  return true;
}

static bool short_string(const cJSON *j, bool nonempty) {
  return cJSON_IsString(j) && strlen(j->valuestring) <= NAME_MAX_CHARS &&
         (!nonempty || j->valuestring[0] != '\0');
}

static bool read_handshake(adapter *a, const cJSON *root, char *why, size_t whylen) {
  /* "timing" (optional) declares the timing request of movconf bench,
     "shared_memory" (optional) the shared-memory payload. */
  static const char *const keys[] = {"protocol", "name",   "version",
                                     "ops",      "timing", "shared_memory"};
  if (!check_keys(root, "the handshake", keys, 6, why, whylen))
    return false;
  const cJSON *timing = cJSON_GetObjectItemCaseSensitive(root, "timing");
  const cJSON *shm = cJSON_GetObjectItemCaseSensitive(root, "shared_memory");
  if ((timing && !cJSON_IsBool(timing)) || (shm && !cJSON_IsBool(shm))) {
    snprintf(why, whylen, "\"%s\" must be true or false",
             timing && !cJSON_IsBool(timing) ? "timing" : "shared_memory");
    return false;
  }
  a->times_itself = cJSON_IsTrue(timing);
  a->offers_shm = cJSON_IsTrue(shm);
  const cJSON *protocol = cJSON_GetObjectItemCaseSensitive(root, "protocol");
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "version");
  if (!cJSON_IsString(protocol) || strcmp(protocol->valuestring, MC_ADAPTER_PROTOCOL) != 0) {
    snprintf(why, whylen, "\"protocol\" must be \"%s\"%s%.60s%s", MC_ADAPTER_PROTOCOL,
             cJSON_IsString(protocol) ? ", not \"" : "",
             cJSON_IsString(protocol) ? protocol->valuestring : "",
             cJSON_IsString(protocol) ? "\"" : "");
    return false;
  }
  if (!short_string(name, true) || !short_string(version, false)) {
    snprintf(why, whylen,
             "\"name\" (non-empty) and \"version\" must be strings of at most %d "
             "bytes",
             NAME_MAX_CHARS);
    return false;
  }
  claim_table claims = {{false}};
  if (!read_claims(claims, cJSON_GetObjectItemCaseSensitive(root, "ops"), why, whylen))
    return false;
  memcpy(a->claims, claims, sizeof claims);
  if (!a->label) {
    a->label = mc_strdupf("%s %s (exec: %s)", name->valuestring, version->valuestring, a->command);
  }
  return true;
}

/* The wait for the handshake: the larger of --handshake-timeout and
   --timeout (an adapter given T per case may take as long to start); <= 0
   in either: none. */
static double handshake_allowance(const mc_impl_options *o) {
  if (o->timeout_seconds <= 0 || o->handshake_timeout_seconds <= 0)
    return 0;
  return o->timeout_seconds > o->handshake_timeout_seconds ? o->timeout_seconds
                                                           : o->handshake_timeout_seconds;
}

/* Starts the adapter and reads its handshake; leaves it stopped on failure. */
static bool start(adapter *a, char *why, size_t whylen) {
  if (!spawn(a, why, whylen))
    return false;
  size_t line_len = 0;
  io_status s = read_line(a, mc_deadline_within(a->handshake_timeout, a->stop_at),
                          HANDSHAKE_MAX_BYTES, &line_len);
  char problem[400];
  if (s != IO_OK) {
    siginfo_t info;
    if (s == IO_CLOSED && mc_child_wait_end(a->pid, EXIT_GRACE_SECONDS, &info)) {
      char end[160];
      mc_child_describe_end(&info, end, sizeof end);
      snprintf(why, whylen, "no handshake: the adapter %s", end);
    } else if (s == IO_TIMEOUT) {
      snprintf(why, whylen, "no handshake line within %g s (see --handshake-timeout)",
               a->handshake_timeout);
    } else if (s == IO_TOO_LONG) {
      snprintf(why, whylen, "no handshake: its first line is longer than %zu bytes",
               HANDSHAKE_MAX_BYTES);
    } else {
      snprintf(why, whylen, "no handshake: %s",
               s == IO_CLOSED ? "it closed its output" : "reading its output failed");
    }
    stop(a);
    return false;
  }
  cJSON *root = parse_line(a->buf, line_len, problem, sizeof problem);
  bool ok = root && read_handshake(a, root, problem, sizeof problem);
  cJSON_Delete(root);
  if (!ok) {
    snprintf(why, whylen, "bad handshake: %.300s", problem);
    stop(a);
    return false;
  }
  consume_line(a, line_len);
  return true;
}

/* ---- one request ---- */

static bool fail_output(char *why, size_t whylen, const char *what) {
  snprintf(why, whylen, "%s", what);
  return false;
}

static bool read_shape(const char *line, size_t n, const cJSON *shape, mc_tensor *t, char *why,
                       size_t whylen) {
  if (!cJSON_IsArray(shape))
    return fail_output(why, whylen, "output.shape must be an array of integers");
  int rank = cJSON_GetArraySize(shape);
  if (rank > MC_TENSOR_MAX_RANK) {
    snprintf(why, whylen, "output.shape has %d dimensions; at most %d", rank, MC_TENSOR_MAX_RANK);
    return false;
  }
  t->rank = rank;
  int d = 0;
  for (const cJSON *dim = shape->child; dim; dim = dim->next, d++) {
    if (!plain_integer(line, n, dim, &t->shape[d]) || t->shape[d] < 0) {
      snprintf(why, whylen, "output.shape[%d] is not an integer in 0..2^63-1", d);
      return false;
    }
  }
  return true;
}

/* One reply line being read: the line sits in a->buf, cJSON sees its
   skeleton (reply_text.c), and a large output is decoded in place in the
   line's own buffer, which then becomes the output's storage: nothing a
   reply says costs more than the one line. */
typedef struct reply_line {
  adapter *a;
  size_t n; /* the line's length in a->buf */
  mc_reply_text text;
  bool taken; /* a->buf became the output: the line is consumed already */
} reply_line;

/* Outputs up to this size are copied; larger ones take the line's buffer. */
#define OUTPUT_COPY_MAX_BYTES ((size_t)1 << 20)

/* Hands over a->buf (the current line and what follows it) and gives the
   adapter a fresh buffer with what followed the line. */
static char *take_line_buffer(adapter *a, size_t line_len, bool *ok) {
  size_t rest = a->len - (line_len + 1);
  char *fresh = malloc(rest > FIRST_READ_BUFFER_BYTES ? rest : FIRST_READ_BUFFER_BYTES);
  *ok = fresh != NULL;
  if (!fresh)
    return NULL;
  memcpy(fresh, a->buf + line_len + 1, rest);
  char *old = a->buf;
  a->buf = fresh;
  a->cap = rest > FIRST_READ_BUFFER_BYTES ? rest : FIRST_READ_BUFFER_BYTES;
  a->len = rest;
  return old;
}

/* A zero-element shape whose other dimensions multiply past int64: the
   implementation accepted the input with an output no tensor can have. */
static bool read_unrepresentable(const mc_tensor *t, bool payload_empty, mc_impl_result *r,
                                 char *why, size_t whylen) {
  bool empty = false;
  for (int d = 0; d < t->rank; d++)
    empty = empty || t->shape[d] == 0;
  if (!empty)
    return fail_output(why, whylen, "output.shape has more elements than int64 can count");
  if (!payload_empty)
    return fail_output(why, whylen,
                       "a zero-element output has output.base64 \"\" or output.bytes 0");
  r->output = (mc_tensor){.type = t->type, .rank = t->rank};
  memcpy(r->output.shape, t->shape, sizeof t->shape);
  r->output_unrepresentable = true;
  r->outcome = MC_OUTCOME_OUTPUT;
  return true;
}

/* Decodes the base64 of a cut string in place and makes the line's buffer
   the output's storage. */
static bool decode_in_line(reply_line *L, char *content, const mc_tensor *t, size_t nbytes,
                           mc_impl_result *r, char *why, size_t whylen) {
  if (!mc_base64_decode(content, (uint8_t *)content, nbytes, why, whylen))
    return false;
  size_t at = (size_t)(content - L->a->buf); /* before a->buf is replaced */
  bool ok;
  char *block = take_line_buffer(L->a, L->n, &ok);
  if (!ok)
    return fail_output(why, whylen, "out of memory for the output");
  L->taken = true;
  size_t offset = (size_t)(-(uintptr_t)block & (MC_TENSOR_ALIGN - 1));
  memmove(block + offset, block + at, nbytes);
  r->output = *t;
  r->output.data = (uint8_t *)block + offset;
  r->output.nbytes = nbytes;
  r->output.allocation = block;
  return true;
}

/* Decodes output.base64 (whole in the skeleton, or cut and read from the
   line) into r->output. */
static bool decode_output(reply_line *L, const cJSON *b64, const mc_reply_cut *cut,
                          const mc_tensor *t, size_t nbytes, size_t cap, mc_impl_result *r,
                          char *why, size_t whylen) {
  const char *text = b64->valuestring;
  char *content = NULL;
  if (cut) {
    content = L->a->buf + cut->begin;
    content[mc_reply_unescape_ascii(content, cut->end - cut->begin)] = '\0';
    text = content;
  }
  if (cut && nbytes > OUTPUT_COPY_MAX_BYTES)
    return decode_in_line(L, content, t, nbytes, r, why, whylen);
  if (mc_tensor_alloc(&r->output, t->type, t->rank, t->shape, cap) != MC_OK)
    return fail_output(why, whylen, "out of memory for the output");
  if (!mc_base64_decode(text, r->output.data, nbytes, why, whylen)) {
    mc_tensor_free(&r->output);
    return false;
  }
  return true;
}

/* Copies the output the adapter wrote in the shared memory file, after
   checking what the reply says it wrote: exactly the bytes type and shape
   take (bytes beyond them, and writes after the reply, are never read). */
static bool read_region_output(const mc_shm_region *region, int64_t written, const mc_tensor *t,
                               size_t nbytes, size_t cap, mc_impl_result *r, char *why,
                               size_t whylen) {
  if ((uint64_t)written != nbytes) {
    snprintf(why, whylen,
             "output.bytes says %" PRId64 " bytes were written; %s of this shape takes %zu",
             written, mc_type_name(t->type), nbytes);
    return false;
  }
  if (nbytes > region->output_room) {
    snprintf(why, whylen, "output of %zu bytes, more than the output region's %zu", nbytes,
             region->output_room);
    return false;
  }
  if (mc_tensor_alloc(&r->output, t->type, t->rank, t->shape, cap) != MC_OK)
    return fail_output(why, whylen, "out of memory for the output");
  if (!mc_shm_region_read_output(region, r->output.data, nbytes, why, whylen)) {
    mc_tensor_free(&r->output);
    return false;
  }
  r->outcome = MC_OUTCOME_OUTPUT;
  return true;
}

/* output.bytes: a plain integer >= 0, only in reply to a request that had a
   shared memory file. */
static bool read_written(const reply_line *L, const cJSON *written, int64_t *count, char *why,
                         size_t whylen) {
  if (L->a->region.fd < 0)
    return fail_output(why, whylen,
                       "output.bytes in reply to a request without a shared memory file");
  if (!plain_integer(L->text.text, L->text.len, written, count) || *count < 0)
    return fail_output(why, whylen, "output.bytes must be an integer >= 0");
  return true;
}

/* Reads "output": {"type", "shape", "base64" or "bytes"} into r->output. */
static bool read_output(reply_line *L, const cJSON *out, size_t max_output_bytes, mc_impl_result *r,
                        char *why, size_t whylen) {
  static const char *const keys[] = {"type", "shape", "base64", "bytes"};
  if (!cJSON_IsObject(out))
    return fail_output(why, whylen, "\"output\" must be an object");
  if (!check_keys(out, "output", keys, 4, why, whylen))
    return false;
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(out, "type");
  const cJSON *b64 = cJSON_GetObjectItemCaseSensitive(out, "base64");
  const cJSON *written = cJSON_GetObjectItemCaseSensitive(out, "bytes");
  mc_tensor t = {.type =
                     cJSON_IsString(type) ? mc_type_from_name(type->valuestring) : MC_TYPE_INVALID};
  if (t.type == MC_TYPE_INVALID)
    return fail_output(why, whylen, "output.type is not an element type name");
  if (!read_shape(L->text.text, L->text.len, cJSON_GetObjectItemCaseSensitive(out, "shape"), &t,
                  why, whylen))
    return false;
  if ((b64 != NULL) == (written != NULL))
    return fail_output(why, whylen, "output has exactly one of \"base64\" and \"bytes\"");
  int64_t written_count = 0;
  if (written && !read_written(L, written, &written_count, why, whylen))
    return false;
  if (b64 && !cJSON_IsString(b64))
    return fail_output(why, whylen, "output.base64 must be a string");
  const mc_reply_cut *cut = b64 ? mc_reply_text_cut_of(&L->text, b64) : NULL;
  int64_t count;
  size_t nbytes;
  if (!mc_shape_elements(t.rank, t.shape, &count))
    return read_unrepresentable(&t, b64 ? !cut && b64->valuestring[0] == '\0' : written_count == 0,
                                r, why, whylen);
  if (!mc_storage_bytes(t.type, count, &nbytes))
    return fail_output(why, whylen, "output.shape has more bytes than int64 can count");
  if (nbytes > max_output_bytes) {
    snprintf(why, whylen, "output of %zu bytes, above the output cap of %zu bytes", nbytes,
             max_output_bytes);
    return false;
  }
  if (written)
    return read_region_output(&L->a->region, written_count, &t, nbytes, max_output_bytes, r, why,
                              whylen);
  char b64_why[200];
  if (!decode_output(L, b64, cut, &t, nbytes, max_output_bytes, r, b64_why, sizeof b64_why)) {
    snprintf(why, whylen, "output.base64 (%s, shape of %" PRId64 " elements): %s",
             mc_type_name(t.type), count, b64_why);
    return false;
  }
  r->outcome = MC_OUTCOME_OUTPUT;
  return true;
}

/* Copies an optional error name the runner compares with the expected one. */
static bool short_error_name(const cJSON *j, char *buf, size_t n) {
  if (!cJSON_IsString(j) || j->valuestring[0] == '\0' || strlen(j->valuestring) >= n)
    return false;
  memcpy(buf, j->valuestring, strlen(j->valuestring) + 1);
  return true;
}

/* The line, strictly checked, as cJSON items over its skeleton. */
static cJSON *parse_reply(reply_line *L, char *why, size_t whylen) {
  char lex_why[200];
  if (!mc_json_check_text(L->a->buf, L->n, lex_why, sizeof lex_why)) {
    snprintf(why, whylen, "not JSON: %s", lex_why);
    return NULL;
  }
  if (!mc_reply_text_init(&L->text, L->a->buf, L->n)) {
    fail_output(why, whylen, "out of memory reading the reply");
    return NULL;
  }
  if (L->text.too_many_tokens) {
    snprintf(why, whylen, "more than %d JSON tokens in a reply", MC_REPLY_MAX_TOKENS);
    return NULL;
  }
  cJSON *root = parse_line(L->text.text, L->text.len, why, whylen);
  if (root)
    mc_reply_text_number_strings(root);
  return root;
}

/* The reply's id is the previous request's: a second reply to it. */
static bool second_reply(const adapter *a, int64_t got_id, uint64_t id) {
  return got_id >= 1 && (uint64_t)got_id + 1 == id && a->served >= 2 && a->previous_call > 0;
}

/* Judges one reply line; false with why on a protocol violation. */
static int compare_seconds(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* The "timing" member of a reply to a timing request: "seconds", one
   positive per-call time per run, and "calls_per_run" of at least 1. */
static bool read_timing(const cJSON *timing, const mc_timing_request *asked, mc_self_timing *own,
                        char *why, size_t whylen) {
  const cJSON *seconds = cJSON_GetObjectItemCaseSensitive(timing, "seconds");
  const cJSON *calls = cJSON_GetObjectItemCaseSensitive(timing, "calls_per_run");
  double values[MC_TIMING_MAX_RUNS];
  int n = 0;
  bool ok = cJSON_IsArray(seconds) && cJSON_GetArraySize(seconds) == asked->runs &&
            cJSON_IsNumber(calls) && calls->valuedouble >= 1 && calls->valuedouble <= 1e12;
  for (const cJSON *s = ok ? seconds->child : NULL; s && ok && n < MC_TIMING_MAX_RUNS; s = s->next)
    ok = cJSON_IsNumber(s) && s->valuedouble > 0 && (values[n++] = s->valuedouble) < 1e6;
  if (!ok) {
    snprintf(why, whylen,
             "a timing reply has \"timing\": {\"seconds\": %d positive per-call times, "
             "\"calls_per_run\": a count of at least 1}",
             asked->runs);
    return false;
  }
  qsort(values, (size_t)n, sizeof *values, compare_seconds);
  own->median_seconds = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  own->runs = n;
  own->calls_per_run = (long)calls->valuedouble;
  return true;
}

static bool read_reply(reply_line *L, uint64_t id, size_t max_output_bytes, mc_impl_result *r,
                       char *why, size_t whylen) {
  static const char *const keys[] = {"id",         "output",      "error",
                                     "error_name", "unsupported", "timing"};
  cJSON *root = parse_reply(L, why, whylen);
  if (!root)
    return false;
  const char *line = L->text.text;
  size_t n = L->text.len;
  const cJSON *timing = cJSON_GetObjectItemCaseSensitive(root, "timing");
  bool ok = check_keys(root, "the reply", keys, L->a->timing ? 6 : 5, why, whylen);
  const cJSON *jid = cJSON_GetObjectItemCaseSensitive(root, "id");
  const cJSON *out = cJSON_GetObjectItemCaseSensitive(root, "output");
  const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
  const cJSON *unsupported = cJSON_GetObjectItemCaseSensitive(root, "unsupported");
  const cJSON *error_name = cJSON_GetObjectItemCaseSensitive(root, "error_name");
  int64_t got_id = -1;
  if (ok && !plain_integer(line, n, jid, &got_id)) {
    ok = fail_output(why, whylen, "the reply has no integer \"id\"");
  } else if (ok && second_reply(L->a, got_id, id)) {
    snprintf(why, whylen,
             "a second reply to request %" PRId64 ", which had its reply already; sent after "
             "that reply, it arrived while request %" PRIu64 " was waiting",
             got_id, id);
    r->blame_call = L->a->previous_call;
    ok = false;
  } else if (ok && (uint64_t)got_id != id) {
    snprintf(why, whylen, "reply for id %" PRId64 ", expected id %" PRIu64, got_id, id);
    ok = false;
  } else if (ok && (out != NULL) + (error != NULL) + (unsupported != NULL) != 1) {
    ok = fail_output(why, whylen,
                     "a reply has exactly one of \"output\", \"error\", "
                     "\"unsupported\"");
  } else if (ok && error_name && !error) {
    ok = fail_output(why, whylen, "\"error_name\" belongs with \"error\"");
  } else if (ok && error_name &&
             !short_error_name(error_name, r->error_name, sizeof r->error_name)) {
    snprintf(why, whylen, "\"error_name\" must be a string of 1 to %zu characters",
             sizeof r->error_name - 1);
    ok = false;
  } else if (ok && out && L->a->timing && !timing) {
    ok = fail_output(why, whylen, "the reply to a timing request has no \"timing\"");
  } else if (ok && out) {
    ok = (!timing || read_timing(timing, L->a->timing, L->a->own, why, whylen)) &&
         read_output(L, out, max_output_bytes, r, why, whylen);
  } else if (ok) {
    const cJSON *text = error ? error : unsupported;
    if (!cJSON_IsString(text)) {
      ok = fail_output(why, whylen, "\"error\" and \"unsupported\" take a string");
    } else {
      r->outcome = error ? MC_OUTCOME_REJECTED : MC_OUTCOME_UNSUPPORTED;
      snprintf(r->message, sizeof r->message, "%s", text->valuestring);
    }
  }
  cJSON_Delete(root);
  return ok;
}

/* The longest reply line an output within the cap can need. */
static size_t reply_limit(size_t max_output_bytes) {
  size_t groups = max_output_bytes / 3 + (max_output_bytes % 3 != 0);
  if (groups > (LINE_HARD_MAX_BYTES - LINE_SLACK_BYTES) / 4)
    return LINE_HARD_MAX_BYTES;
  return groups * 4 + LINE_SLACK_BYTES;
}

static void crash(adapter *a, mc_impl_result *r, uint64_t id, const char *what) {
  r->outcome = MC_OUTCOME_CRASH;
  snprintf(r->message, sizeof r->message,
           "%.400s (request %" PRIu64 "); the next case gets a fresh adapter", what, id);
  stop(a);
}

/* The adapter closed a pipe: say how it ended, as far as can be told. */
static void report_end(adapter *a, mc_impl_result *r, uint64_t id, bool replying) {
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

static void report_timeout(adapter *a, mc_impl_result *r, uint64_t id, bool replying) {
  r->outcome = MC_OUTCOME_TIMEOUT;
  char partial[64] = "";
  if (replying && a->len > 0)
    snprintf(partial, sizeof partial, " (%zu bytes of a line came)", a->len);
  snprintf(r->message, sizeof r->message,
           "%s within %g s%s (request %" PRIu64 "); the adapter was killed, the next case gets a "
           "fresh one",
           replying ? "no complete reply" : "the adapter did not read the request", a->timeout,
           partial, id);
  stop(a);
}

static void exchange_lines(adapter *a, const mc_request *req, uint64_t call,
                           size_t max_output_bytes, mc_impl_result *r) {
  uint64_t id = ++a->last_id;
  double deadline = mc_deadline_within(a->timeout, a->stop_at);
  r->fresh_start = a->served == 0;
  a->served++;
  a->previous_call = a->last_call;
  a->last_call = call;
  io_status s = send_request(a, req, id, max_output_bytes, deadline);
  bool replying = s == IO_OK; /* the request went out whole */
  size_t limit = reply_limit(max_output_bytes), line_len = 0;
  if (replying)
    s = read_line(a, deadline, limit, &line_len);
  char why[400], what[480];
  switch (s) {
  case IO_OK: {
    reply_line L = {.a = a, .n = line_len};
    bool ok = read_reply(&L, id, max_output_bytes, r, why, sizeof why);
    mc_reply_text_free(&L.text);
    if (ok && !L.taken)
      consume_line(a, line_len);
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

/* Under --payload auto, requests whose tensors come to less than this go
   as base64: for them a file costs more (measured with movconf fuzz
   --no-large through the numpy adapter) than base64 does. */
#define SHM_MIN_BYTES ((size_t)1 << 16)

/* The request's input bytes and the bytes of the output the specification
   gives it (none when the input is invalid), saturating. */
static size_t request_bytes(const mc_request *req, size_t max_output_bytes) {
  size_t total = 0, out = 0;
  for (int i = 0; i < req->n_inputs; i++)
    total = req->inputs[i]->nbytes > SIZE_MAX - total ? SIZE_MAX : total + req->inputs[i]->nbytes;
  mc_type type;
  int rank;
  int64_t shape[MC_TENSOR_MAX_RANK], count;
  mc_error err;
  if (mc_optimized_output_shape(req, max_output_bytes, &type, &rank, shape, &err) == MC_OK &&
      mc_shape_elements(rank, shape, &count) && mc_storage_bytes(type, count, &out))
    total = out > SIZE_MAX - total ? SIZE_MAX : total + out;
  return total;
}

static bool wants_shm(const adapter *a, const mc_request *req, size_t max_output_bytes) {
  if (!a->offers_shm || a->payload == MC_ADAPTER_PAYLOAD_BASE64)
    return false;
  return a->payload == MC_ADAPTER_PAYLOAD_SHARED_MEMORY ||
         request_bytes(req, max_output_bytes) >= SHM_MIN_BYTES;
}

/* One request and its reply, through a fresh shared memory file when the
   adapter offered the payload and the request is worth it: closed as soon
   as the reply is read, so a write after the reply reaches nothing movconf
   reads. Where the file cannot be made the request goes as base64, which
   every adapter takes. */
static void exchange(adapter *a, const mc_request *req, uint64_t call, size_t max_output_bytes,
                     mc_impl_result *r) {
  char why[200];
  if (wants_shm(a, req, max_output_bytes) &&
      !mc_shm_region_open(&a->region, req, max_output_bytes, why, sizeof why) && !a->warned_shm) {
    fprintf(stderr, "movconf: no shared memory for %s (%s): its requests go as base64\n", a->label,
            why);
    a->warned_shm = true;
  }
  exchange_lines(a, req, call, max_output_bytes, r);
  mc_shm_region_close(&a->region);
}

/* ---- the mc_impl interface ---- */

static bool claimed(const adapter *a, const mc_request *req, mc_impl_result *r) {
  mc_type type = req->inputs[0]->type;
  if (type >= 0 && type < MC_TYPE_COUNT && a->claims[req->op][type])
    return true;
  r->outcome = MC_OUTCOME_UNSUPPORTED;
  snprintf(r->message, sizeof r->message, "the adapter's handshake does not list %s for %s",
           mc_type_name(type), mc_op_name(req->op));
  return false;
}

/* Restarts a stopped adapter; on failure reports the case as a crash. */
static bool ensure_running(adapter *a, mc_impl_result *r) {
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
  if (!start(a, why, sizeof why)) {
    a->restart_failures++;
    r->outcome = MC_OUTCOME_CRASH;
    snprintf(r->message, sizeof r->message, "restarting the adapter failed: %s", why);
    return false;
  }
  a->restart_failures = 0;
  return true;
}

static void exec_run(mc_impl *self, const mc_request *req, mc_impl_result *result) {
  adapter *a = self->state;
  if (!mc_impl_request_carried(req, "adapter", result) || !claimed(a, req, result) ||
      !ensure_running(a, result))
    return;
  exchange(a, req, self->calls, self->options.max_output_bytes, result);
  mc_sanitizer_judge_call(&a->sanitizer, result);
  if (self->options.fresh_process_per_case)
    stop(a);
}

/* A timing request gets the time its runs ask for on top of --timeout. */
static void exec_time_itself(mc_impl *self, const mc_request *req, const mc_timing_request *timing,
                             mc_impl_result *result, mc_self_timing *own) {
  adapter *a = self->state;
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
  stop(self->state);
}

/* After the last reply: closes the adapter's input (the signal to exit) and
   reads its output to the end; a line there is a reply nobody asked for,
   charged to the last request (a second reply to it). */
static bool exec_settle(mc_impl *self, mc_impl_result *late) {
  adapter *a = self->state;
  if (a->pid <= 0 || a->served == 0)
    return false;
  close(a->in_fd);
  a->in_fd = -1;
  size_t line_len;
  io_status s = read_line(a, mc_deadline_after(SHUTDOWN_GRACE_SECONDS),
                          reply_limit(self->options.max_output_bytes), &line_len);
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

static void free_adapter(adapter *a) {
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
  adapter *a = self->state;
  if (a->pid > 0) {
    if (a->in_fd >= 0)
      close(a->in_fd);
    a->in_fd = -1;
    siginfo_t info;
    mc_child_wait_end(a->pid, a->grace_spent ? 0 : SHUTDOWN_GRACE_SECONDS, &info);
    stop(a);
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
  adapter *a = calloc(1, sizeof *a);
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
  a->handshake_timeout = handshake_allowance(options);
  a->stop_at = options->stop_at;
  char why[400];
  if (options->sanitize && !mc_sanitizer_open(&a->sanitizer, why, sizeof why)) {
    snprintf(err, errlen, "%.400s", why);
    free_adapter(a);
    free(impl);
    return NULL;
  }
  if (!start(a, why, sizeof why)) {
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
  impl->time_itself = a->times_itself ? exec_time_itself : NULL;
  return impl;
}
