/* What crosses the socket between movconf and the forked child that hosts a
   plugin (impl_plugin.c is the parent side, plugin_host.c the child). Both
   sides are the same binary, so the messages are plain structs. */
#ifndef MOVCONF_HARNESS_PLUGIN_WIRE_H
#define MOVCONF_HARNESS_PLUGIN_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "movconf/ops.h"

#define MC_WIRE_MAGIC 0x4d435031u /* "MCP1" */

/* How long the child waits for copies of itself that the plugin forked to
   return from the plugin function, exec or end: after the function, for
   copies of fork(); when the requests end, for copies of a raw clone that
   may return after their case was answered. The parent listens longer for
   the child's last report. */
#define MC_WIRE_COPY_WAIT_MS 2000

typedef struct mc_wire_tensor {
  int32_t type, rank;
  int64_t shape[MC_TENSOR_MAX_RANK];
  uint64_t nbytes;
} mc_wire_tensor;

/* A request: the attributes as they are but for their strings, which
   follow, string_len[attr] bytes for each string attribute (in the
   attribute table's order; -1: absent); then each input's nbytes bytes. */
typedef struct mc_wire_request {
  uint32_t magic;
  int32_t op, n_inputs;
  mc_attrs attrs; /* string pointers cleared */
  int64_t string_len[MC_ATTR_COUNT];
  uint64_t max_output_bytes;
  uint64_t call;        /* mc_impl.calls of this request, for blaming it later */
  uint32_t output_fill; /* the byte the output buffer starts as (mc_impl_output_fill) */
  /* Not 0: only ask supports(); the reply is MC_WIRE_SUPPORTED or
     MC_WIRE_UNSUPPORTED, and nothing runs. */
  uint32_t supports_only;
  mc_wire_tensor inputs[MC_MAX_INPUTS];
} mc_wire_request;

/* The attributes of req into w: every value as it is, the strings cleared
   and their lengths in w->string_len (-1: absent); strings[] gets the
   strings to send after w, in the attribute table's order. */
void mc_wire_put_attrs(mc_wire_request *w, const mc_request *req,
                       const char *strings[MC_ATTR_COUNT]);

/* The other side: reads the strings that follow w with read_full from fd
   into strings[] (owned, NULL when absent) and sets *attrs to w's
   attributes with them. False when a string cannot be read or held. */
bool mc_wire_get_attrs(const mc_wire_request *w, bool (*read_full)(int fd, void *buf, size_t len),
                       int fd, char *strings[MC_ATTR_COUNT], mc_attrs *attrs);

typedef enum mc_wire_kind {
  MC_WIRE_HELLO = 1,   /* loaded: name and version */
  MC_WIRE_LOAD_FAILED, /* could not load: message; the child exits */
  MC_WIRE_OUTPUT,      /* output.nbytes bytes follow */
  MC_WIRE_REJECTED,    /* error, message */
  MC_WIRE_UNSUPPORTED,
  MC_WIRE_FAULT,       /* broke the ABI (message); the child serves on */
  MC_WIRE_FATAL_FAULT, /* a fault the child caught (message, blame_call); it exits */
  MC_WIRE_FRAMES,      /* the stack (message) of a signal the child dies of next */
  MC_WIRE_SUPPORTED    /* supports() said yes to a supports_only request */
} mc_wire_kind;

typedef struct mc_wire_reply {
  uint32_t magic;
  int32_t kind; /* mc_wire_kind */
  /* The request's call number this reply answers (0: none, the greeting);
     the parent takes no reply to another call than the one it waits for,
     but for a FATAL_FAULT that blames an earlier call. */
  uint64_t call;
  /* MC_WIRE_FATAL_FAULT: the call whose case caused it (a write to its
     output after its run() returned), 0 or the current call: this one. */
  uint64_t blame_call;
  /* The child's quarantine of earlier outputs is full: end it after this
     case (its addresses are never reused, so a late write is never
     charged to the wrong case). */
  int32_t retire;
  /* MC_WIRE_REJECTED: movconf rejected on the plugin's behalf (a suite
     limit, MC-L3 or MC-L4, on the output it announced): the plugin itself
     accepted the input. */
  int32_t by_runner;
  mc_wire_tensor output;
  char error[64];
  char message[512];
  char name[128];
  char version[64];
} mc_wire_reply;

/* The child: loads the plugin at path, answers requests on fd until EOF,
   then exits, after settle_ms when the plugin left threads behind (a late
   write they make is then still reported). memory_limit_mb: extra address
   space allowed (0: none). */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void mc_plugin_host_main(int fd, const char *path, size_t memory_limit_mb, int settle_ms);

#endif
