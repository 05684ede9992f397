/* The test plugins that wrap movconf's own kernels (plugin_movconf, whose
   path PLUGIN_MOVCONF_PATH the build compiles in) and change what they
   answer: the one loader of the wrapped plugin (tests/plugin_planted.c,
   tests/plugin_contain.c). */
#ifndef MOVCONF_TESTS_PLUGIN_WRAP_H
#define MOVCONF_TESTS_PLUGIN_WRAP_H

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "movconf/plugin.h"

#ifndef PLUGIN_MOVCONF_PATH
#error "PLUGIN_MOVCONF_PATH must name the plugin_movconf module"
#endif

/* plugin_movconf's table when movconf asks for ABI version 3, else NULL:
   the wrappers speak version 3 only. */
static const movconf_plugin_v3 *wrapped_plugin(uint32_t abi_version) {
  if (abi_version != MOVCONF_PLUGIN_ABI_V3)
    return NULL;
  void *lib = dlopen(PLUGIN_MOVCONF_PATH, RTLD_NOW | RTLD_LOCAL);
  void *sym = lib ? dlsym(lib, MOVCONF_PLUGIN_ENTRY_NAME) : NULL;
  if (!sym)
    return NULL;
  movconf_plugin_entry_fn entry;
  memcpy(&entry, &sym, sizeof entry); /* ISO C has no object-to-function cast */
  return entry(abi_version);
}

#endif
