/* What the files of the process adapter (impl/exec/) share: the adapter's
   state, how reading and writing its pipes ended, one reply line being
   read, and each file's entry points. Nothing outside impl/exec/ uses it. */
#ifndef MOVCONF_HARNESS_EXEC_ADAPTER_H
#define MOVCONF_HARNESS_EXEC_ADAPTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "harness/harness.h"
#include "harness/impl/child_text.h"
#include "harness/impl/exec/reply_text.h"
#include "harness/impl/exec/shm_region.h"
#include "harness/impl/sanitize.h"

#define FIRST_READ_BUFFER_BYTES ((size_t)1 << 16)

/* How long an adapter that closed its output gets to exit, so that the
   report can say how it ended. */
#define EXIT_GRACE_SECONDS 1.0

typedef struct mc_adapter {
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
} mc_adapter;

typedef enum io_status { IO_OK, IO_CLOSED, IO_TIMEOUT, IO_TOO_LONG, IO_FAILED } io_status;

/* One reply line being read: the line sits in a->buf, cJSON sees its
   skeleton (reply_text.c), and a large output is decoded in place in the
   line's own buffer, which then becomes the output's storage: nothing a
   reply says costs more than the one line. */
typedef struct mc_reply_line {
  mc_adapter *a;
  size_t n; /* the line's length in a->buf */
  mc_reply_text text;
  bool taken; /* a->buf became the output: the line is consumed already */
} mc_reply_line;

/* ---- process.c: the adapter's process and pipes ---- */

/* Starts command under /bin/sh -c with fresh pipes; false with why. */
bool mc_adapter_spawn(mc_adapter *a, char *why, size_t whylen);
/* Kills the adapter's process group and reaps the adapter. The group is
   signalled before the reap, while its id cannot have been reused. */
void mc_adapter_stop(mc_adapter *a);
/* Reads until a->buf holds a whole line of at most max_len bytes (the
   newline not counted) and sets *line_len to its length. */
io_status mc_adapter_read_line(mc_adapter *a, double deadline, size_t max_len, size_t *line_len);
/* Drops a line and its newline from the front of the buffer. */
void mc_adapter_consume_line(mc_adapter *a, size_t line_len);
io_status mc_adapter_write_all(mc_adapter *a, const char *data, size_t n, double deadline);

/* ---- json_line.c: strict JSON lines ---- */

/* Writes what to why and returns false. */
bool mc_adapter_fail(char *why, size_t whylen, const char *what);
/* One line parsed strictly; numbers carry their text offset in valueint. */
cJSON *mc_adapter_parse_line(const char *line, size_t n, char *why, size_t whylen);
/* Every member of obj is one of allowed, none twice. */
bool mc_adapter_check_keys(const cJSON *obj, const char *where, const char *const *allowed, int n,
                           char *why, size_t whylen);
/* A number written as a plain decimal integer ([-]digits) within int64. */
bool mc_adapter_plain_integer(const char *line, size_t n, const cJSON *item, int64_t *out);

/* ---- handshake.c ---- */

/* The wait for the handshake: the larger of --handshake-timeout and
   --timeout; <= 0 in either: none. */
double mc_adapter_handshake_allowance(const mc_impl_options *o);
/* Starts the adapter and reads its handshake; leaves it stopped on failure. */
bool mc_adapter_start(mc_adapter *a, char *why, size_t whylen);

/* ---- request.c, payload.c ---- */

/* Streams request id to the adapter, as base64 or through a->region. */
io_status mc_adapter_send_request(mc_adapter *a, const mc_request *req, uint64_t id,
                                  size_t max_output_bytes, double deadline);
/* The bytes of the output the specification gives req; SIZE_MAX when its
   input is invalid. */
size_t mc_adapter_expected_output_bytes(const mc_request *req, size_t max_output_bytes);

/* Whether req goes through a shared memory file (--payload, the handshake). */
bool mc_adapter_wants_shm(const mc_adapter *a, const mc_request *req, size_t max_output_bytes);

/* ---- reply.c, reply_output.c ---- */

/* Judges one reply line; false with why on a protocol violation. */
bool mc_adapter_read_reply(mc_reply_line *L, uint64_t id, size_t max_output_bytes,
                           mc_impl_result *r, char *why, size_t whylen);
/* Reads "output": {"type", "shape", "base64" or "bytes"} into r->output. */
bool mc_adapter_read_output(mc_reply_line *L, const cJSON *out, size_t max_output_bytes,
                            mc_impl_result *r, char *why, size_t whylen);
/* The longest reply line an output within the cap can need. */
size_t mc_adapter_reply_limit(size_t max_output_bytes);

#endif
