/* movconf: conformance runner for OpenVINO's data-movement operations. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "harness/impl/child.h"
#include "movconf/version.h"

static const char usage[] =
    "movconf " MOVCONF_VERSION " - conformance suite for OpenVINO data-movement operations\n"
    "(BatchToSpace-2, SpaceToBatch-2, SpaceToDepth-1, DepthToSpace-1, ExtractImagePatches-3,\n"
    "ShuffleChannels-1, Slice-8, Transpose-1, Pad-12, StridedSlice-1, Gather-8)\n"
    "\n"
    "usage: movconf <command> [options]\n"
    "\n"
    "commands:\n"
    "  run [PATHS...]          run conformance cases (default: all of conformance/) against an\n"
    "                          implementation and report pass/fail per case and per operation\n"
    "  show CASE_ID [PATHS...] one case: inputs, attributes, clauses, origin, expected result;\n"
    "                          with --impl, what an implementation returned, side by side\n"
    "  check-cases [PATHS...]  validate case files: format, payloads consistent with shapes,\n"
    "                          clause ids that exist, unique case ids\n"
    "  bench                   time the optimized kernels against memcpy and the oracle\n"
    "  clauses [PATHS...]      traceability matrix: the cases citing each clause of spec/;\n"
    "                          fails when a clause has no case\n"
    "  gen                     expand generators/ into the generated conformance cases\n"
    "  fuzz                    differential fuzzing of an implementation against the oracle,\n"
    "                          failures shrunk to minimal case files\n"
    "  report merge|html       join the JSON reports of run --shard shards; an HTML page\n"
    "                          of run and bench reports\n"
    "  export [PATHS...]       the cases as files other runners read: ONNX node tests\n"
    "                          (where an ONNX operator has the same meaning) or NumPy\n"
    "                          files with a JSON manifest\n"
    "  help [COMMAND]          show this text, or a command's options\n"
    "  help operations         the operations, one a line: name, slug (the name of its\n"
    "                          files and folders) and clause prefix, separated by tabs;\n"
    "                          with --json, also their inputs and attributes\n"
    "  help verdicts [--json]  the verdicts a case can get: name, whether it is a failure,\n"
    "                          how JUnit shows it, and what it means\n"
    "\n"
    "Case files are JSON (spec/case-format.md); clauses are defined in spec/.\n"
    "Exit status: 0 all good, 1 a case failed or a file is invalid, 2 usage error.\n";

static int print_usage(FILE *to, int status) {
  fputs(usage, to);
  return status;
}

/* For scripts (tools/conformance_matrix.py) with --json, else for people:
   the verdict list of src/harness/verdict/verdict_list.h. */
static int print_verdicts(int argc, char **argv) {
  bool json = argc == 1 && strcmp(argv[0], "--json") == 0;
  if (argc > 1 || (argc == 1 && !json)) {
    fputs("usage: movconf help verdicts [--json]\n", stderr);
    return 2;
  }
  if (!json) {
    mc_verdicts_print_help(stdout);
    return 0;
  }
  return mc_verdicts_write_json(stdout) ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return print_usage(stderr, 2);
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)
    return print_usage(stdout, 0);
  if (strcmp(cmd, "--version") == 0) {
    printf("movconf %s\n", MOVCONF_VERSION);
    mc_print_data_root(stdout);
    return 0;
  }
  char *help_argv[] = {NULL, "--help", NULL};
  if (strcmp(cmd, "help") == 0) {
    if (argc < 3)
      return print_usage(stdout, 0);
    if (strcmp(argv[2], "operations") == 0)
      return mc_cmd_help_operations(argc - 3, argv + 3);
    if (strcmp(argv[2], "verdicts") == 0)
      return print_verdicts(argc - 3, argv + 3);
    help_argv[0] = argv[2];
    argc = 2;
    argv = help_argv;
    cmd = argv[0];
  } else {
    argc--;
    argv++;
  }
  if (strcmp(cmd, MC_PLUGIN_HOST_COMMAND) == 0) /* a sanitized plugin host (--sanitize) */
    return mc_plugin_host_command(argc, argv);
  mc_plugin_host_fresh_exec(); /* a plugin's host holds none of movconf's memory */
  mc_safe_standard_streams();  /* one rule for every command's output */
  mc_child_guard_install();    /* a signal ends children and removes unfinished outputs */
  /* getopt_long names the program by argv[0] in its messages. */
  char program[64];
  snprintf(program, sizeof program, "movconf %s", cmd);
  argv[0] = program;
  if (strcmp(cmd, "run") == 0)
    return mc_cmd_run(argc, argv);
  if (strcmp(cmd, "check-cases") == 0)
    return mc_cmd_check_cases(argc, argv);
  if (strcmp(cmd, "bench") == 0)
    return mc_cmd_bench(argc, argv);
  if (strcmp(cmd, "clauses") == 0)
    return mc_cmd_clauses(argc, argv);
  if (strcmp(cmd, "gen") == 0)
    return mc_cmd_gen(argc, argv);
  if (strcmp(cmd, "fuzz") == 0)
    return mc_cmd_fuzz(argc, argv);
  if (strcmp(cmd, "show") == 0)
    return mc_cmd_show(argc, argv);
  if (strcmp(cmd, "report") == 0)
    return mc_cmd_report(argc, argv);
  if (strcmp(cmd, "export") == 0)
    return mc_cmd_export(argc, argv);
  fprintf(stderr, "movconf: unknown command '%s'\n\n", cmd);
  return print_usage(stderr, 2);
}
