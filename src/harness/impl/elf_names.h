/* The names a shared object's dynamic section gives: the libraries it
   needs (DT_NEEDED) and its dynamic symbols, read from the file without
   loading it, so that a plugin can be examined before a process is made
   for it (--sanitize: which sanitizer runtime it was built for, whether it
   is instrumented at all). */
#ifndef MOVCONF_HARNESS_ELF_NAMES_H
#define MOVCONF_HARNESS_ELF_NAMES_H

#include <stdbool.h>

typedef struct mc_elf_visitor {
  void (*needed)(const char *library, void *ctx); /* each DT_NEEDED entry */
  void (*symbol)(const char *name, void *ctx);    /* each dynamic symbol, defined or not */
  void *ctx;
} mc_elf_visitor;

/* Visits the names of the 64-bit ELF file at path (any file: every offset
   is checked against its size). False when it cannot be read or is no such
   file; the visitor may then have seen some names. */
bool mc_elf_visit_names(const char *path, const mc_elf_visitor *v);

#endif
