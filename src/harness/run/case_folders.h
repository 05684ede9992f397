/* Where a command's case files are (src/harness/run/case_folders.c). */
#ifndef MOVCONF_HARNESS_RUN_CASE_FOLDERS_H
#define MOVCONF_HARNESS_RUN_CASE_FOLDERS_H

#include <stdbool.h>
#include <stdio.h>

#include "cases/cases.h"

/* Where movconf's own folders (conformance/, conformance-large/,
   generators/, spec/) are: $MOVCONF_DATA_DIR when set; else, installed,
   share/movconf beside the program's bin/ folder (from /proc/self/exe); in
   the build tree, the source tree through the link movconf-data beside the
   program. how says which, for --version and --help. */
typedef struct mc_data_location {
  char dir[4096];
  const char *how;
} mc_data_location;
const mc_data_location *mc_data_root(void);
/* Prints the data root and how it was found (movconf --version, run --help). */
void mc_print_data_root(FILE *out);

/* The folder movconf uses by default for name ("conformance", "generators"):
   ./name when it is a folder and MOVCONF_DATA_DIR is unset, else the data
   root's (static storage, kept for the process's life, for up to four
   names). */
const char *mc_default_dir(const char *name);
/* The case folders of --tier TIER into paths: conformance/ (default, or
   NULL), conformance-large/ (large) or both (all); returns how many. */
int mc_tier_folders(const char *tier, char *paths[2]);

/* The case files of the given paths (mc_find_case_files); with no paths,
   mc_default_dir("conformance"). Prints why a path is
   missing and returns false then. */
bool mc_collect_case_files(int n, char **paths, mc_path_list *out);
/* The case files of --tier TIER (mc_tier_folders), leaving out the folders
   of the operations other than op (MC_OP_INVALID: none left out). */
bool mc_collect_tier_files(const char *tier, int op, mc_path_list *out);

#endif
