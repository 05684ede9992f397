/* The process adapter's entry, for the --impl dispatcher (impl.c). */
#ifndef MOVCONF_HARNESS_IMPL_EXEC_H
#define MOVCONF_HARNESS_IMPL_EXEC_H

#include <stddef.h>

#include "harness/harness.h"

/* exec:'COMMAND ARGS' (impl_exec.c): starts command with /bin/sh -c, speaking
   the JSON Lines protocol of spec/adapter-protocol.md, and reads its
   handshake. NULL and a message in err when it cannot start or its
   handshake is wrong. */
mc_impl *mc_impl_open_exec(const char *command, const mc_impl_options *options, char *err,
                           size_t errlen);

#endif
