/* Loads a plugin as the fuzz targets do (fuzz/fuzz_plugin_diff.c: dlopen
   into an executable that clang linked with its static sanitizer runtime)
   and calls its entry point. Exit 0 when it loaded and speaks the ABI, 1
   with the loader's message otherwise. Compiled by
   tests/sanitize_runtimes.sh with clang -fsanitize=address,undefined. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "movconf/plugin.h"

int main(int argc, char **argv) {
  void *lib = argc == 2 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
  void *sym = lib ? dlsym(lib, MOVCONF_PLUGIN_ENTRY_NAME) : NULL;
  if (!sym) {
    printf("not loaded: %s\n", argc == 2 ? dlerror() : "usage: plugin_load_host PLUGIN");
    return 1;
  }
  movconf_plugin_entry_fn entry;
  memcpy(&entry, &sym, sizeof entry);
  /* Version 3, else 2, else 1: every table begins with its version, name
     and version. */
  const movconf_plugin_v3 *table = entry(MOVCONF_PLUGIN_ABI_V3);
  if (!table)
    table = entry(MOVCONF_PLUGIN_ABI_V2);
  if (!table)
    table = entry(MOVCONF_PLUGIN_ABI_V1);
  printf("%s\n", table ? table->name : "the entry point returned NULL");
  return table ? 0 : 1;
}
