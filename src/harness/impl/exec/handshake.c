/* Starting a process adapter and reading its handshake: the protocol,
   its name and version, the operations and types it claims, and what it
   offers beyond them (timing, shared memory). */
#include "harness/impl/exec/adapter.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "common/text.h"
#include "harness/impl/child.h"

/* Protocol name and version the adapter's handshake must announce. */
#define MC_ADAPTER_PROTOCOL "movconf-adapter/1"

/* The handshake is small; a longer first line is not one. */
#define HANDSHAKE_MAX_BYTES ((size_t)1 << 20)
#define NAME_MAX_CHARS 100

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
    if (!mc_adapter_check_keys(op, where, op_keys, 1, why, whylen))
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

static bool read_handshake(mc_adapter *a, const cJSON *root, char *why, size_t whylen) {
  /* "timing" (optional) declares the timing request of movconf bench,
     "shared_memory" (optional) the shared-memory payload. */
  static const char *const keys[] = {"protocol", "name",   "version",
                                     "ops",      "timing", "shared_memory"};
  if (!mc_adapter_check_keys(root, "the handshake", keys, 6, why, whylen))
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
double mc_adapter_handshake_allowance(const mc_impl_options *o) {
  if (o->timeout_seconds <= 0 || o->handshake_timeout_seconds <= 0)
    return 0;
  return o->timeout_seconds > o->handshake_timeout_seconds ? o->timeout_seconds
                                                           : o->handshake_timeout_seconds;
}

/* Starts the adapter and reads its handshake; leaves it stopped on failure. */
bool mc_adapter_start(mc_adapter *a, char *why, size_t whylen) {
  if (!mc_adapter_spawn(a, why, whylen))
    return false;
  size_t line_len = 0;
  const double own_deadline = mc_deadline_within(a->handshake_timeout, 0);
  const double deadline = mc_deadline_within(a->handshake_timeout, a->stop_at);
  io_status s = mc_adapter_read_line(a, deadline, HANDSHAKE_MAX_BYTES, &line_len);
  char problem[400];
  if (s != IO_OK) {
    siginfo_t info;
    if (s == IO_CLOSED && mc_child_wait_end(a->pid, EXIT_GRACE_SECONDS, &info)) {
      char end[160];
      mc_child_describe_end(&info, end, sizeof end);
      snprintf(why, whylen, "no handshake: the adapter %s", end);
    } else if (s == IO_TIMEOUT && deadline < own_deadline) {
      /* The run's own stop (fuzz --time, a stop signal) came first. */
      snprintf(why, whylen, "no handshake line before the campaign's time ran out (--time)");
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
    mc_adapter_stop(a);
    return false;
  }
  cJSON *root = mc_adapter_parse_line(a->buf, line_len, problem, sizeof problem);
  bool ok = root && read_handshake(a, root, problem, sizeof problem);
  cJSON_Delete(root);
  if (!ok) {
    snprintf(why, whylen, "bad handshake: %.300s", problem);
    mc_adapter_stop(a);
    return false;
  }
  mc_adapter_consume_line(a, line_len);
  return true;
}
