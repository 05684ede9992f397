/* movconf gen: options, then the generator (src/gen) per operation. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "gen/gen.h"

static const char gen_usage[] =
    "usage: movconf gen [--out DIR] [--op OP] [--check] [--generators DIR]\n"
    "\n"
    "Expands the conformance-vector descriptions of generators/ (one JSON file per\n"
    "operation, format in generators/README.md) into case files, one per group:\n"
    "DIR/<op>/generated/<group>.json. Every combination of a group's parameters becomes\n"
    "one case. A valid group's expected output is computed by the movconf oracle; an\n"
    "invalid group names the clause its inputs break and the error it expects, and gen\n"
    "fails when the oracle reports anything else, so that a mistake in a description\n"
    "cannot become a case. The output is byte-for-byte reproducible.\n"
    "\n"
    "options:\n"
    "  --out DIR          where the case files go (default: conformance)\n"
    "  --op OP            only this operation (BatchToSpace-2, batch_to_space_2 or b2s, ...)\n"
    "  --check            write nothing: compare what would be written with the files under\n"
    "                     DIR and report each file that differs, is missing or is extra\n"
    "  --generators DIR   where the descriptions are (default: generators, else the\n"
    "                     source tree's)\n"
    "\n"
    "Without --check, files of DIR/<op>/generated/ that no group produces are removed.\n"
    "Progress goes to stderr, a summary per operation to stdout.\n"
    "Exit status: 0 done (with --check: everything up to date), 1 a description is wrong\n"
    "or (--check) a file differs, 2 usage or I/O error.\n";

/* ---- options ---- */

/* 0 parsed, 1 --help shown, 2 usage error. */
static int parse_options(int argc, char **argv, mc_gen_options *o) {
  struct stat st;
  o->out = "conformance";
  o->generators = stat("generators", &st) == 0 ? "generators" : MOVCONF_SOURCE_DIR "/generators";
  o->op = -1;
  o->check = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(gen_usage, stdout);
      return 1;
    }
    if (!strcmp(a, "--check")) {
      o->check = true;
      continue;
    }
    bool takes = !strcmp(a, "--out") || !strcmp(a, "--op") || !strcmp(a, "--generators");
    if (!takes) {
      fprintf(stderr, "movconf gen: unknown argument '%s' (movconf help gen)\n", a);
      return 2;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "movconf gen: %s needs a value\n", a);
      return 2;
    }
    const char *value = argv[++i];
    if (!strcmp(a, "--out")) {
      o->out = value;
    } else if (!strcmp(a, "--generators")) {
      o->generators = value;
    } else if ((o->op = mc_op_from_option(value)) < 0) {
      fprintf(stderr,
              "movconf gen: --op takes an operation (BatchToSpace-2, batch_to_space_2 "
              "or b2s, ...), not '%s'\n",
              value);
      return 2;
    }
  }
  return 0;
}

int mc_cmd_gen(int argc, char **argv) {
  mc_gen_options o;
  int parsed = parse_options(argc, argv, &o);
  if (parsed)
    return parsed == 1 ? 0 : 2;
  int rc = 0, total = 0;
  for (int op = 0; op < MC_OP_COUNT; op++) {
    if (o.op >= 0 && op != o.op)
      continue;
    mc_gen_counts counts = {0};
    int r = mc_gen_op(&o, (mc_op)op, &counts);
    rc = r > rc ? r : rc;
    total += counts.valid + counts.invalid;
    printf("%-22s %3d groups %5d cases (%d valid, %d invalid)\n", mc_op_name((mc_op)op),
           counts.groups, counts.valid + counts.invalid, counts.valid, counts.invalid);
  }
  printf("%d cases %s %s\n", total, o.check ? "checked against" : "written to", o.out);
  if (rc == 1 && o.check)
    printf("generated files are out of date: run movconf gen\n");
  return rc;
}
