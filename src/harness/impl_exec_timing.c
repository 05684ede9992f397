/* The timing request of movconf bench to a process adapter
   (harness/impl_exec_timing.h, spec/adapter-protocol.md section 15). It
   starts and talks to the adapter itself, with blocking I/O and one generous
   deadline per line: the bench trusts the adapter it times (movconf run is
   where adapters are isolated and every fault is classified). */
#include "harness/impl_exec_timing.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cases/cases_internal.h"
#include "harness/internal.h"
#include "movconf/tensor.h"

/* How long one line may take: a timing request runs the workload for
   runs * min_run_seconds and more (spec section 15). */
#define LINE_DEADLINE_SECONDS 600.0

struct mc_exec_timing {
  pid_t pid;
  FILE *to;  /* the adapter's stdin */
  int from;  /* the adapter's stdout */
  char *buf; /* bytes read and not consumed */
  size_t len, cap;
  uint64_t next_id;
  bool claims[MC_OP_COUNT][MC_TYPE_COUNT];
};

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the process ---- */

static bool spawn(mc_exec_timing *a, const char *command, char *err, size_t errlen) {
  int to_child[2], from_child[2];
  if (pipe(to_child) != 0) {
    snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
    return false;
  }
  if (pipe(from_child) != 0) {
    snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
    close(to_child[0]);
    close(to_child[1]);
    return false;
  }
  fflush(NULL);
  a->pid = fork();
  if (a->pid == 0) {
    dup2(to_child[0], 0);
    dup2(from_child[1], 1);
    close(to_child[0]);
    close(to_child[1]);
    close(from_child[0]);
    close(from_child[1]);
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  a->from = from_child[0];
  a->to = a->pid > 0 ? fdopen(to_child[1], "w") : NULL;
  if (!a->to) {
    snprintf(err, errlen, "cannot start /bin/sh -c '%s': %s", command, strerror(errno));
    close(to_child[1]);
    return false;
  }
  return true;
}

void mc_exec_timing_close(mc_exec_timing *a) {
  if (!a)
    return;
  if (a->to)
    fclose(a->to); /* end of input: the adapter should exit */
  close(a->from);
  if (a->pid > 0) {
    double give_up = now_seconds() + 2.0;
    while (waitpid(a->pid, NULL, WNOHANG) == 0) {
      if (now_seconds() > give_up) {
        kill(a->pid, SIGKILL);
        waitpid(a->pid, NULL, 0);
        break;
      }
      nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
    }
  }
  free(a->buf);
  free(a);
}

/* ---- lines ---- */

/* The next line (without its '\n', NUL-terminated in a->buf) and its
   length, or false when the adapter ended or took too long. */
static bool read_line(mc_exec_timing *a, size_t *line_len, char *err, size_t errlen) {
  double deadline = now_seconds() + LINE_DEADLINE_SECONDS;
  size_t scanned = 0;
  for (;;) {
    char *nl = a->len > scanned ? memchr(a->buf + scanned, '\n', a->len - scanned) : NULL;
    if (nl) {
      *nl = '\0';
      *line_len = (size_t)(nl - a->buf);
      return true;
    }
    scanned = a->len;
    if (a->cap - a->len < 65536) {
      size_t cap = a->cap ? 2 * a->cap : 1 << 20;
      char *grown = realloc(a->buf, cap);
      if (!grown) {
        snprintf(err, errlen, "out of memory for the adapter's reply");
        return false;
      }
      a->buf = grown;
      a->cap = cap;
    }
    int wait_ms = (int)((deadline - now_seconds()) * 1000);
    struct pollfd p = {.fd = a->from, .events = POLLIN};
    if (wait_ms <= 0 || poll(&p, 1, wait_ms) == 0) {
      snprintf(err, errlen, "no reply within %.0f s", LINE_DEADLINE_SECONDS);
      return false;
    }
    ssize_t got = read(a->from, a->buf + a->len, a->cap - a->len - 1);
    if (got <= 0 && !(got < 0 && errno == EINTR)) {
      snprintf(err, errlen, "the adapter closed its output (it exited)");
      return false;
    }
    a->len += got > 0 ? (size_t)got : 0;
  }
}

/* Drops the line just read from the buffer. */
static void consume_line(mc_exec_timing *a, size_t line_len) {
  a->len -= line_len + 1;
  memmove(a->buf, a->buf + line_len + 1, a->len);
}

/* ---- the handshake ---- */

static bool read_claims(mc_exec_timing *a, const cJSON *ops, char *err, size_t errlen) {
  if (!cJSON_IsObject(ops)) {
    snprintf(err, errlen, "the handshake's \"ops\" is not an object");
    return false;
  }
  for (const cJSON *op = ops->child; op; op = op->next) {
    mc_op o = mc_op_from_name(op->string);
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(op, "types");
    if (o == MC_OP_INVALID || !cJSON_IsArray(types)) {
      snprintf(err, errlen, "the handshake claims \"%.60s\" oddly", op->string);
      return false;
    }
    for (const cJSON *t = types->child; t; t = t->next) {
      mc_type type = cJSON_IsString(t) ? mc_type_from_name(t->valuestring) : MC_TYPE_INVALID;
      if (type != MC_TYPE_INVALID)
        a->claims[o][type] = true;
    }
  }
  return true;
}

static bool read_handshake(mc_exec_timing *a, char *name, size_t namelen, char *err,
                           size_t errlen) {
  size_t n;
  if (!read_line(a, &n, err, errlen))
    return false;
  cJSON *root = cJSON_Parse(a->buf);
  consume_line(a, n);
  const cJSON *protocol = cJSON_GetObjectItemCaseSensitive(root, "protocol");
  const cJSON *who = cJSON_GetObjectItemCaseSensitive(root, "name");
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "version");
  bool ok = cJSON_IsString(protocol) && strcmp(protocol->valuestring, MC_ADAPTER_PROTOCOL) == 0 &&
            cJSON_IsString(who) && cJSON_IsString(version);
  if (!ok)
    snprintf(err, errlen, "not a %s handshake", MC_ADAPTER_PROTOCOL);
  else if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "timing"))) {
    snprintf(err, errlen,
             "%s does not declare the timing request (\"timing\": true, "
             "spec/adapter-protocol.md section 15)",
             who->valuestring);
    ok = false;
  } else {
    snprintf(name, namelen, "%s %s", who->valuestring, version->valuestring);
    ok = read_claims(a, cJSON_GetObjectItemCaseSensitive(root, "ops"), err, errlen);
  }
  cJSON_Delete(root);
  return ok;
}

mc_exec_timing *mc_exec_timing_open(const char *command, char *name, size_t namelen, char *err,
                                    size_t errlen) {
  mc_exec_timing *a = calloc(1, sizeof *a);
  if (!a) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  signal(SIGPIPE, SIG_IGN); /* an adapter that dies mid-request is an error, not our end */
  a->from = -1;
  a->next_id = 1;
  if (!spawn(a, command, err, errlen) || !read_handshake(a, name, namelen, err, errlen)) {
    mc_exec_timing_close(a);
    return NULL;
  }
  return a;
}

/* ---- the request (spec sections 5 and 6, plus "timing") ---- */

static void put_base64(FILE *f, const uint8_t *data, size_t n) {
  static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < n ? (uint32_t)data[i + 1] << 8 : 0) |
                 (i + 2 < n ? data[i + 2] : 0);
    char quad[4] = {digits[v >> 18], digits[(v >> 12) & 63],
                    i + 1 < n ? digits[(v >> 6) & 63] : '=', i + 2 < n ? digits[v & 63] : '='};
    fwrite(quad, 1, 4, f);
  }
}

static void put_tensor(FILE *f, const mc_tensor *t) {
  fprintf(f, "{\"type\":\"%s\",\"shape\":[", mc_type_name(t->type));
  for (int d = 0; d < t->rank; d++)
    fprintf(f, "%s%lld", d ? "," : "", (long long)t->shape[d]);
  fputs("],\"base64\":\"", f);
  put_base64(f, t->data, t->nbytes);
  fputs("\"}", f);
}

static void put_list(FILE *f, const char *name, const mc_int_list *list, bool *first) {
  if (list->count == 0)
    return;
  fprintf(f, "%s\"%s\":[", *first ? "" : ",", name);
  for (int i = 0; i < list->count; i++)
    fprintf(f, "%s%lld", i ? "," : "", (long long)list->v[i]);
  fputc(']', f);
  *first = false;
}

/* The attributes the bench's workloads give (block_size, mode, and the
   patch lists and padding). */
static void put_attributes(FILE *f, const mc_attrs *a) {
  bool first = true;
  fputc('{', f);
  if (a->has_block_size) {
    fprintf(f, "\"block_size\":%lld", (long long)a->block_size);
    first = false;
  }
  if (a->mode) {
    fprintf(f, "%s\"mode\":\"%s\"", first ? "" : ",", a->mode);
    first = false;
  }
  put_list(f, "sizes", &a->sizes, &first);
  put_list(f, "strides", &a->strides, &first);
  put_list(f, "rates", &a->rates, &first);
  if (a->auto_pad)
    fprintf(f, "%s\"auto_pad\":\"%s\"", first ? "" : ",", a->auto_pad);
  fputc('}', f);
}

static bool send_timing_request(mc_exec_timing *a, const mc_request *req, uint64_t id, int runs,
                                double min_run_seconds) {
  FILE *f = a->to;
  fprintf(f, "{\"id\":%llu,\"op\":\"%s\",\"attributes\":", (unsigned long long)id,
          mc_op_name(req->op));
  put_attributes(f, &req->attrs);
  fputs(",\"inputs\":{", f);
  for (int i = 0; i < req->n_inputs; i++) {
    fprintf(f, "%s\"%s\":", i ? "," : "", mc_op_input_name(req->op, i));
    put_tensor(f, req->inputs[i]);
  }
  fprintf(f, "},\"max_output_bytes\":%zu,\"timing\":{\"runs\":%d,\"min_run_seconds\":%.6f}}\n",
          MC_DEFAULT_MAX_OUTPUT_BYTES, runs, min_run_seconds);
  return fflush(f) == 0 && !ferror(f);
}

/* ---- the reply ---- */

static bool read_output_tensor(const cJSON *o, mc_tensor *out, char *detail, size_t len) {
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
  const cJSON *shape = cJSON_GetObjectItemCaseSensitive(o, "shape");
  const cJSON *b64 = cJSON_GetObjectItemCaseSensitive(o, "base64");
  mc_type t = cJSON_IsString(type) ? mc_type_from_name(type->valuestring) : MC_TYPE_INVALID;
  int rank = cJSON_IsArray(shape) ? cJSON_GetArraySize(shape) : -1;
  if (t == MC_TYPE_INVALID || rank < 0 || rank > MC_TENSOR_MAX_RANK || !cJSON_IsString(b64)) {
    snprintf(detail, len, "protocol violation: the output is not a tensor");
    return false;
  }
  int64_t dims[MC_TENSOR_MAX_RANK];
  int d = 0;
  for (const cJSON *dim = shape->child; dim; dim = dim->next)
    dims[d++] = cJSON_IsNumber(dim) ? (int64_t)dim->valuedouble : -1;
  char why[200];
  if (mc_tensor_alloc(out, t, rank, dims, MC_DEFAULT_MAX_OUTPUT_BYTES) != MC_OK ||
      !mc_base64_decode(b64->valuestring, out->data, out->nbytes, why, sizeof why)) {
    snprintf(detail, len, "protocol violation: the output's shape or base64 is wrong");
    mc_tensor_free(out);
    return false;
  }
  return true;
}

static int compare_doubles(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static bool read_timing(const cJSON *timing, int runs, mc_exec_timed *timed, char *detail,
                        size_t len) {
  const cJSON *seconds = cJSON_GetObjectItemCaseSensitive(timing, "seconds");
  const cJSON *calls = cJSON_GetObjectItemCaseSensitive(timing, "calls_per_run");
  if (!cJSON_IsArray(seconds) || cJSON_GetArraySize(seconds) != runs || !cJSON_IsNumber(calls) ||
      calls->valuedouble < 1) {
    snprintf(detail, len, "protocol violation: \"timing\" wants %d seconds and calls_per_run",
             runs);
    return false;
  }
  double values[100];
  int n = 0;
  for (const cJSON *s = seconds->child; s && n < 100; s = s->next)
    values[n++] = cJSON_IsNumber(s) && s->valuedouble > 0 ? s->valuedouble : 0;
  qsort(values, (size_t)n, sizeof values[0], compare_doubles);
  if (values[0] <= 0) {
    snprintf(detail, len, "protocol violation: a per-call time is not a positive number");
    return false;
  }
  timed->median_seconds = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  timed->runs = n;
  timed->calls_per_run = (long)calls->valuedouble;
  return true;
}

static mc_bench_impl_status judge_reply(const cJSON *root, uint64_t id, int runs, mc_tensor *out,
                                        mc_exec_timed *timed, char *detail, size_t len) {
  const cJSON *rid = cJSON_GetObjectItemCaseSensitive(root, "id");
  const cJSON *output = cJSON_GetObjectItemCaseSensitive(root, "output");
  const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
  const cJSON *unsupported = cJSON_GetObjectItemCaseSensitive(root, "unsupported");
  if (!cJSON_IsNumber(rid) || rid->valuedouble != (double)id) {
    snprintf(detail, len, "protocol violation: a reply without id %llu", (unsigned long long)id);
    return MC_BENCH_IMPL_FAILED;
  }
  if (cJSON_IsString(unsupported)) {
    snprintf(detail, len, "%s", unsupported->valuestring);
    return MC_BENCH_IMPL_UNSUPPORTED;
  }
  if (cJSON_IsString(error)) {
    snprintf(detail, len, "rejected: %s", error->valuestring);
    return MC_BENCH_IMPL_FAILED;
  }
  if (!output) {
    snprintf(detail, len, "protocol violation: no output, error or unsupported");
    return MC_BENCH_IMPL_FAILED;
  }
  if (!read_timing(cJSON_GetObjectItemCaseSensitive(root, "timing"), runs, timed, detail, len))
    return MC_BENCH_IMPL_FAILED;
  return read_output_tensor(output, out, detail, len) ? MC_BENCH_IMPL_OK : MC_BENCH_IMPL_FAILED;
}

mc_bench_impl_status mc_exec_timing_measure(mc_exec_timing *a, const mc_request *req, int runs,
                                            double min_run_seconds, mc_tensor *out,
                                            mc_exec_timed *timed, char *detail, size_t len) {
  memset(out, 0, sizeof *out);
  if (!a->claims[req->op][req->inputs[0]->type]) {
    snprintf(detail, len, "the handshake does not claim %s on %s", mc_op_name(req->op),
             mc_type_name(req->inputs[0]->type));
    return MC_BENCH_IMPL_UNSUPPORTED;
  }
  uint64_t id = a->next_id++;
  size_t n;
  if (!send_timing_request(a, req, id, runs, min_run_seconds)) {
    snprintf(detail, len, "cannot write the request: the adapter exited");
    return MC_BENCH_IMPL_FAILED;
  }
  if (!read_line(a, &n, detail, len))
    return MC_BENCH_IMPL_FAILED;
  cJSON *root = cJSON_ParseWithLength(a->buf, n);
  consume_line(a, n);
  if (!root) {
    snprintf(detail, len, "protocol violation: the reply is not JSON");
    return MC_BENCH_IMPL_FAILED;
  }
  mc_bench_impl_status s = judge_reply(root, id, runs, out, timed, detail, len);
  cJSON_Delete(root);
  return s;
}
