/* The movconf command: subcommands and the pieces they share. */
#ifndef MOVCONF_CLI_H
#define MOVCONF_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "cases/cases.h"
#include "common/text.h"
#include "harness/harness.h"

int mc_cmd_run(int argc, char **argv);
int mc_cmd_check_cases(int argc, char **argv);
int mc_cmd_bench(int argc, char **argv);
int mc_cmd_clauses(int argc, char **argv);
int mc_cmd_gen(int argc, char **argv);

/* The case files of the given paths (mc_find_case_files); with no paths,
   ./conformance, or the source tree's when absent. Prints why a path is
   missing and returns false then. */
bool mc_collect_case_files(int n, char **paths, mc_path_list *out);

/* The operation an --op option names: its name, slug or clause prefix in
   any case (BatchToSpace-2, batch_to_space_2, b2s); -1 when none. */
int mc_op_from_option(const char *text);

#endif
