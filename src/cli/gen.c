/* movconf gen: options, then the generator (src/gen) per operation. */
#include <stdio.h>
#include <unistd.h>

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
    "cannot become a case. The output is byte-for-byte reproducible. Each file is\n"
    "written as its cases are made, and a group whose file would pass the case loader's\n"
    "limit of 64 MiB is refused as soon as it does (its file left as it was).\n"
    "\n"
    "options:\n"
    "  --out DIR          where the case files go (default: conformance, else the data\n"
    "                     folder's, as for movconf run; movconf --version names it);\n"
    "                     a group of a size tier goes to DIR-<tier>/<op>/<group>.json\n"
    "                     instead (DIR-large/: conformance-large for the default DIR),\n"
    "                     out of the default run\n"
    "  --op OP            only this operation (BatchToSpace-2, batch_to_space_2 or b2s, ...)\n"
    "  --check            write nothing: compare what would be written with the files under\n"
    "                     DIR and report each file that differs, is missing or is extra\n"
    "  --generators DIR   where the descriptions are (default: generators, else the\n"
    "                     data folder's)\n"
    "\n"
    "Without --check, files of DIR/<op>/generated/ that no group produces are removed.\n"
    "Progress goes to stderr (a long group's case count too, on a terminal), a summary\n"
    "per operation to stdout.\n"
    "Exit status: 0 done (with --check: everything up to date), 1 a description is wrong\n"
    "or (--check) a file differs, 2 usage or I/O error.\n";

/* ---- options ---- */

/* 0 parsed, 1 --help shown, 2 usage error. */
static int parse_options(int argc, char **argv, mc_gen_options *o) {
  static const struct option options[] = {{"out", required_argument, NULL, 'o'},
                                          {"op", required_argument, NULL, MC_OPT_OP},
                                          {"generators", required_argument, NULL, 'g'},
                                          {"check", no_argument, NULL, 'c'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
  /* The same folders run and check-cases use: here, else the source tree's. */
  *o = (mc_gen_options){.out = mc_default_dir("conformance"),
                        .generators = mc_default_dir("generators"),
                        .op = -1,
                        .progress = isatty(STDERR_FILENO) != 0};
  int opt;
  while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
    switch (opt) {
    case 'h':
      fputs(gen_usage, stdout);
      return 1;
    case 'c':
      o->check = true;
      break;
    case 'o':
      o->out = optarg;
      break;
    case 'g':
      o->generators = optarg;
      break;
    case MC_OPT_OP: {
      mc_case_choice c = mc_case_choice_default();
      if (mc_apply_selection_option("gen", opt, optarg, &c) >= 0)
        return 2;
      o->op = c.filter.op;
      break;
    }
    default:
      return mc_option_error("gen", argv[optind - 1], options);
    }
  }
  if (optind < argc) {
    fprintf(stderr, "movconf gen: unexpected argument '%s'\n", argv[optind]);
    return mc_usage_error("gen");
  }
  return 0;
}

int mc_cmd_gen(int argc, char **argv) {
  mc_gen_options o;
  int parsed = parse_options(argc, argv, &o);
  if (parsed)
    return parsed == 1 ? 0 : 2;
  return mc_gen_all(&o);
}
