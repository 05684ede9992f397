/* movconf gen: options, then the generator (src/gen) per operation. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
                                          {"op", required_argument, NULL, 'p'},
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
    case 'p':
      if ((o->op = mc_op_from_option(optarg)) < 0) {
        fprintf(stderr,
                "movconf gen: --op takes an operation (BatchToSpace-2, batch_to_space_2 "
                "or b2s, ...), not '%s'\n",
                optarg);
        mc_suggest_op(optarg);
        return 2;
      }
      break;
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

/* "N cases written to OUT, M to OUT-large": the folders the cases went to
   (a tier's only when it has cases). */
static void print_summary(const mc_gen_options *o, int total, const int *in_tier) {
  int in_out = total;
  for (int t = 0; mc_gen_tiers[t]; t++)
    in_out -= in_tier[t];
  char *folder = mc_gen_folder(o->out, NULL);
  printf("%d cases %s %s", in_out, o->check ? "checked against" : "written to", folder);
  free(folder);
  for (int t = 0; mc_gen_tiers[t]; t++) {
    if (!in_tier[t])
      continue;
    folder = mc_gen_folder(o->out, mc_gen_tiers[t]);
    printf(", %d %s %s", in_tier[t], o->check ? "against" : "to", folder);
    free(folder);
  }
  printf("\n");
}

/* The descriptions' folder exists: else nothing is generated, and it is a
   usage error (exit 2), said once, before any output folder is touched. */
static bool generators_folder_usable(const char *dir) {
  struct stat st;
  const char *problem = stat(dir, &st) != 0    ? strerror(errno)
                        : !S_ISDIR(st.st_mode) ? "not a folder"
                                               : NULL;
  if (problem)
    fprintf(stderr, "movconf gen: --generators %s: %s\n", dir, problem);
  return !problem;
}

int mc_cmd_gen(int argc, char **argv) {
  mc_gen_options o;
  int parsed = parse_options(argc, argv, &o);
  if (parsed)
    return parsed == 1 ? 0 : 2;
  if (!generators_folder_usable(o.generators))
    return 2;
  int rc = 0, total = 0, in_tier[MC_GEN_MAX_TIERS] = {0};
  for (int op = 0; op < MC_OP_COUNT; op++) {
    if (o.op >= 0 && op != o.op)
      continue;
    mc_gen_counts counts = {0};
    int r = mc_gen_op(&o, (mc_op)op, &counts);
    rc = r > rc ? r : rc;
    total += counts.valid + counts.invalid;
    for (int t = 0; mc_gen_tiers[t]; t++)
      in_tier[t] += counts.in_tier[t];
    printf("%-22s %3d groups %5d cases (%d valid, %d invalid)\n", mc_op_name((mc_op)op),
           counts.groups, counts.valid + counts.invalid, counts.valid, counts.invalid);
  }
  print_summary(&o, total, in_tier);
  if (rc == 1 && o.check)
    printf("generated files are out of date: run movconf gen\n");
  return rc;
}
