/* Calling a plugin (include/movconf/plugin.h) in the current process:
   loading it, presenting a movconf request in the ABI's terms, and checking
   the output it announces. Shared by the isolated plugin host
   (plugin_host.c) and the in-process fuzz target (fuzz/fuzz_plugin_diff.c),
   so that both hand a plugin exactly the same thing. */
#ifndef MOVCONF_HARNESS_PLUGIN_CALL_H
#define MOVCONF_HARNESS_PLUGIN_CALL_H

#include <stddef.h>

#include "movconf/ops.h"
#include "movconf/plugin.h"

/* A loaded plugin: its function table of ABI version 3, or of the newest
   older version it speaks. */
typedef struct mc_plugin {
  uint32_t abi;                /* MOVCONF_PLUGIN_ABI_V3, _V2 or _V1 */
  const char *name, *version;  /* the table's */
  const movconf_plugin_v3 *v3; /* when abi is 3 */
  const movconf_plugin_v2 *v2; /* when abi is 2 */
  const movconf_plugin_v1 *v1; /* when abi is 1 */
} mc_plugin;

/* Loads the plugin at path and returns it once its table is checked (ABI
   version, name, version, required functions), or NULL with a message in
   err; valid until the process ends. The entry point is asked for version
   3, then for 2, then for 1. While it runs, *phase (when phase is not NULL) names it,
   for a fault handler's messages. */
const mc_plugin *mc_plugin_load(const char *path, const char **phase, char *err, size_t errlen);

/* Longest attribute list handed to a plugin (case files allow 64 values). */
#define MC_PLUGIN_MAX_LIST 65536

/* One request as the ABI presents it, in every version. */
typedef struct mc_plugin_call {
  movconf_plugin_request request; /* version 1 */
  movconf_plugin_query query;     /* version 1 */
  movconf_plugin_request_v2 request_v2;
  movconf_plugin_query_v2 query_v2;
  movconf_plugin_request_v3 request_v3;
  movconf_plugin_query_v3 query_v3;
  movconf_plugin_tensor inputs[MC_MAX_INPUTS]; /* request_v3's list */
  int32_t input_types[MC_MAX_INPUTS];          /* query_v3's lists */
  int32_t input_ranks[MC_MAX_INPUTS];
  movconf_plugin_attr attrs[MC_ATTR_COUNT]; /* request_v2's list */
  int64_t *lists[MC_ATTR_COUNT];            /* list attributes at their true length (owned) */
} mc_plugin_call;

/* Presents req with the output cap max_output_bytes. Shapes, data and the
   attribute strings are referenced, not copied: req's tensors and strings
   must outlive the call, and each tensor's data must be non-NULL (the ABI
   promises that, even for empty tensors). Attribute lists get their true
   length; values past the MC_MAX_ATTR_LEN movconf keeps are 0. False when a
   list is longer than MC_PLUGIN_MAX_LIST or memory for it cannot be had. */
bool mc_plugin_call_init(mc_plugin_call *call, const mc_request *req, uint64_t max_output_bytes);
void mc_plugin_call_free(mc_plugin_call *call);

/* The plugin's functions, called with call in the plugin's version.
   supports() is 1 when the plugin has none; 0, without a call, for a
   version 1 or 2 plugin asked an operation its version does not have
   (version 1: the five first; version 2: and ShuffleChannels-1) or more
   inputs than its request holds. */
int mc_plugin_supports(const mc_plugin *p, const mc_plugin_call *call);
int mc_plugin_output_shape(const mc_plugin *p, const mc_plugin_call *call,
                           movconf_plugin_output *output, movconf_plugin_message *message);
int mc_plugin_run(const mc_plugin *p, const mc_plugin_call *call,
                  const movconf_plugin_output *output, movconf_plugin_message *message);

typedef enum mc_plugin_announced {
  MC_PLUGIN_ANNOUNCED_OK,       /* a tensor movconf can hold: *nbytes is its size */
  MC_PLUGIN_ANNOUNCED_FAULT,    /* not a tensor at all: the plugin broke the ABI */
  MC_PLUGIN_ANNOUNCED_REJECTED, /* beyond a suite limit: movconf rejects it on the
                                   plugin's behalf (MC-L3 or MC-L4, named in error) */
} mc_plugin_announced;

/* Checks the output output_shape() announced against the cap. On FAULT and
   REJECTED, message says why; on REJECTED, error holds the error name
   (shape_overflow or output_too_large). */
mc_plugin_announced mc_plugin_check_announced(const movconf_plugin_output *o, uint64_t cap,
                                              size_t *nbytes, char *error, size_t errorlen,
                                              char *message, size_t messagelen);

#endif
