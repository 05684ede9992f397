/* movconf report html: a stub until the HTML report is built here. */
#include <stdio.h>

#include "cli/cli.h"

int mc_cmd_report_html(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("movconf report html: not built\n", stderr);
  return 2;
}
