/* movconf report: commands that work on reports already written. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char report_usage[] =
    "usage: movconf report html REPORT.json... -o FILE\n"
    "\n"
    "subcommands:\n"
    "  html   render run and bench JSON reports as one self-contained HTML page\n"
    "         -o, --output FILE  the page to write ('-': standard output)\n"
    "\n"
    "  -h, --help   show this text; 'movconf report SUBCOMMAND --help' tells more\n";

int mc_cmd_report(int argc, char **argv) {
  if (argc < 2) {
    fputs(report_usage, stderr);
    return 2;
  }
  const char *sub = argv[1];
  if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
    fputs(report_usage, stdout);
    return 0;
  }
  static char program[] = "movconf report html";
  if (strcmp(sub, "html") == 0) {
    argv[1] = program;
    return mc_cmd_report_html(argc - 1, argv + 1);
  }
  fprintf(stderr, "movconf report: unknown subcommand '%s'\n\n", sub);
  fputs(report_usage, stderr);
  return 2;
}
