/* The plugin host's entry, for the --impl dispatcher (impl.c). */
#ifndef MOVCONF_HARNESS_IMPL_PLUGIN_H
#define MOVCONF_HARNESS_IMPL_PLUGIN_H

#include <stddef.h>

#include "harness/harness.h"

/* plugin:PATH (impl_plugin.c): a shared library speaking
   include/movconf/plugin.h, run in a forked child process. */
mc_impl *mc_impl_open_plugin(const char *path, const mc_impl_options *options, char *err,
                             size_t errlen);

#endif
