/* movconf report: commands over finished reports, merge and html: their
   options here, their work in the harness (src/harness/report/). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* ---- report merge ---- */

static const char merge_usage[] =
    "usage: movconf report merge [options] SHARD.json...\n"
    "\n"
    "Joins the JSON reports of 'movconf run --shard K/N --json FILE', K from 1 to N,\n"
    "into the report of the whole run: the cases in the order the whole run lists\n"
    "them, the per-operation table recomputed. Refuses a report that is not a shard's,\n"
    "shards of different selections or implementations (same --op, --type, --case,\n"
    "--tier or PATHS, same N), a shard given twice and a missing shard, naming them.\n"
    "\n"
    "options:\n"
    "  --json FILE             write the merged report as JSON ('-': standard output,\n"
    "                          the table then goes to standard error)\n"
    "  --junit FILE            write it as JUnit XML ('-' as for --json)\n"
    "  --quiet                 print only the summary table, not each failure\n"
    "  -h, --help              show this text\n"
    "\n"
    "Exit status: as the whole run would have exited: 0 when no case failed\n"
    "unexpectedly, no expected failure passed, every file loaded and at least one case\n"
    "ran; 1 otherwise; 2 usage errors and reports that cannot be merged.\n";

enum { OPT_JSON = 256, OPT_JUNIT, OPT_QUIET };
static const struct option merge_options[] = {{"json", required_argument, NULL, OPT_JSON},
                                              {"junit", required_argument, NULL, OPT_JUNIT},
                                              {"quiet", no_argument, NULL, OPT_QUIET},
                                              {"help", no_argument, NULL, 'h'},
                                              {NULL, 0, NULL, 0}};

typedef struct merge_options_t {
  const char *json_path, *junit_path;
  bool quiet;
} merge_opts;

/* -1 to go on, else the exit status. */
static int parse_merge_options(int argc, char **argv, merge_opts *o) {
  *o = (merge_opts){0};
  int opt;
  while ((opt = getopt_long(argc, argv, "h", merge_options, NULL)) != -1) {
    if (opt == 'h') {
      fputs(merge_usage, stdout);
      return 0;
    } else if (opt == OPT_JSON) {
      o->json_path = optarg;
    } else if (opt == OPT_JUNIT) {
      o->junit_path = optarg;
    } else if (opt == OPT_QUIET) {
      o->quiet = true;
    } else {
      return mc_option_error("report merge", argv[optind - 1], merge_options);
    }
  }
  if (optind >= argc) {
    fputs("movconf report merge: give the JSON reports of the shards\n", stderr);
    return mc_usage_error("report merge");
  }
  return -1;
}

/* No output replaces a shard's report or the other output. */
static int check_merge_outputs(const merge_opts *o, int n, char **paths) {
  const mc_named_file outputs[] = {{"--json", o->json_path}, {"--junit", o->junit_path}};
  mc_named_file *inputs = calloc((size_t)n, sizeof *inputs);
  for (int i = 0; i < n; i++)
    inputs[i] = (mc_named_file){"a shard's report", paths[i]};
  int status = mc_check_outputs("report merge", outputs, 2, inputs, n);
  free(inputs);
  return status;
}

static int write_merged(const merge_opts *o, const mc_run_report *r) {
  mc_report_files out;
  if (!mc_open_reports("report merge", o->json_path, o->junit_path, &out))
    return 2;
  mc_report_print_table(r, !o->quiet, out.table);
  mc_report_print_stopped(r, out.table);
  bool written = mc_write_reports("report merge", &out, r, o->json_path, o->junit_path);
  int status = mc_run_status("report merge", r);
  return written ? status : 1;
}

static int report_merge(int argc, char **argv) {
  merge_opts o;
  int status = parse_merge_options(argc, argv, &o);
  if (status >= 0)
    return status;
  int n = argc - optind;
  char **paths = argv + optind;
  if ((status = check_merge_outputs(&o, n, paths)) >= 0)
    return status;
  mc_run_report report;
  status = mc_report_merge(paths, n, &report) ? write_merged(&o, &report) : 2;
  free((char *)report.impl);
  mc_run_report_free(&report);
  return status;
}

/* ---- report html ---- */

static const char html_usage[] =
    "usage: movconf report html REPORT.json... -o FILE\n"
    "\n"
    "Renders JSON reports as one self-contained HTML page (inline CSS, no script,\n"
    "nothing fetched from the network), for people to look at:\n"
    "  run reports (movconf run --json), one per implementation: a matrix of\n"
    "    operations x implementations with pass rates, the verdict counts per\n"
    "    operation, and the failures grouped by operation and verdict as in the\n"
    "    terminal report, each expandable to its file, inputs, attributes,\n"
    "    clauses (with their text), origin and detail; a wrong-output case with\n"
    "    a \"picture\" (spec/runner.md) shows the expected and the returned\n"
    "    elements around the first difference, each marked correct, wrong,\n"
    "    unwritten or taken from another place\n"
    "  bench reports (movconf bench --json): each workload's GB/s as a bar\n"
    "    with the ceiling's mark (streaming stores) and memcpy's\n"
    "A report is taken as untrusted (anyone can craft one): every text from it is\n"
    "HTML-escaped, its control characters and bidirectional overrides shown escaped\n"
    "(\\x1b, \\u202e), and the page's Content-Security-Policy forbids any script and\n"
    "any fetch. Pictures are capped when a report is read: at most 16 x 16 cells\n"
    "(what movconf writes), each text cut at 256 bytes, and a picture of more than\n"
    "64 KiB of JSON left out (the page says so). A shard's report (run --shard)\n"
    "beside a report of the same implementation that holds all its cases (the\n"
    "merged or whole run) is refused: its cases would show twice. A report of\n"
    "more than 2^25 JSON values is refused before it is parsed.\n"
    "\n"
    "  -o, --output FILE  the page to write (written whole or not at all); '-' for\n"
    "                     standard output\n"
    "  -h, --help         show this text\n"
    "\n"
    "Exit status: 0 when the page was written; 2 on a usage error or a report that\n"
    "cannot be read, is neither a run nor a bench report, or is a shard beside its run.\n";

static int report_html(int argc, char **argv) {
  static const struct option options[] = {{"output", required_argument, NULL, 'o'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
  const char *output = NULL;
  int opt;
  while ((opt = getopt_long(argc, argv, "ho:", options, NULL)) != -1) {
    if (opt == 'h') {
      fputs(html_usage, stdout);
      return 0;
    }
    if (opt == 'o')
      output = optarg;
    else
      return mc_option_error("report html", argv[optind - 1], options);
  }
  int n = argc - optind;
  if (n < 1 || !output) {
    fprintf(stderr, "movconf report html: %s\n",
            n < 1 ? "name at least one JSON report"
                  : "-o FILE is required (- for standard output)");
    return mc_usage_error("report html");
  }
  mc_named_file *inputs = mc_realloc_or_abort(NULL, sizeof *inputs * (size_t)n);
  for (int i = 0; i < n; i++)
    inputs[i] = (mc_named_file){"the report", argv[optind + i]};
  mc_named_file out = {"-o", output};
  int status = mc_check_outputs("report html", &out, 1, inputs, n);
  free(inputs);
  if (status >= 0)
    return status;
  mc_text page = {0};
  status =
      mc_report_html(argv + optind, n, &page) && mc_write_text_output("report html", output, &page)
          ? 0
          : 2;
  mc_text_free(&page);
  return status;
}

/* ---- report ---- */

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

static const report_subcommand subcommands[] = {{"merge", report_merge}, {"html", report_html}};

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
