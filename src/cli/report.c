/* movconf report: commands over finished reports. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char report_usage[] =
    "usage: movconf report SUBCOMMAND [options] REPORTS...\n"
    "\n"
    "Commands over the JSON reports of 'movconf run --json':\n"
    "  merge A.json B.json... [--json OUT] [--junit OUT]\n"
    "                          join the reports of the shards of one run (run --shard\n"
    "                          K/N): refuses missing or overlapping shards and shards\n"
    "                          of another selection, prints the table of the whole run\n"
    "                          and exits as it would have (0 or 1)\n"
    "  html REPORT.json... -o report.html\n"
    "                          run and bench JSON reports as one self-contained HTML\n"
    "                          page, no network access needed\n"
    "\n"
    "'movconf report SUBCOMMAND --help' shows a subcommand's options.\n"
    "Exit status: 0 all good, 1 a case failed, 2 usage error or reports that do not fit.\n";

typedef struct report_subcommand {
  const char *name;
  int (*run)(int argc, char **argv);
} report_subcommand;

static const report_subcommand subcommands[] = {{"merge", mc_cmd_report_merge},
                                                {"html", mc_cmd_report_html}};

int mc_cmd_report(int argc, char **argv) {
  if (argc < 2) {
    fputs(report_usage, stderr);
    return 2;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(report_usage, stdout);
    return 0;
  }
  for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
    if (strcmp(argv[1], subcommands[i].name) == 0) {
      static char program[64];
      snprintf(program, sizeof program, "movconf report %s", subcommands[i].name);
      argv[1] = program;
      return subcommands[i].run(argc - 1, argv + 1);
    }
  fprintf(stderr, "movconf report: unknown subcommand '%s' (merge or html)\n\n%s", argv[1],
          report_usage);
  return 2;
}
