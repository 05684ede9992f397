/* movconf export: options, then src/harness/export/ writes the files. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "harness/export/export.h"

static const char export_usage[] =
    "usage: movconf export --format onnx|npy --out DIR [options] [PATHS...]\n"
    "\n"
    "Writes the cases of the given case files or directories (default: conformance/)\n"
    "in formats other runners read, one folder per case under DIR, a new or empty\n"
    "folder (docs/export.md):\n"
    "  onnx  ONNX node tests, test_ID/model.onnx and test_ID/test_data_set_0/input_N.pb,\n"
    "        output_0.pb (opset 13), for each valid case that an ONNX operator of the\n"
    "        same meaning computes: DepthToSpace and SpaceToDepth on 4-D data, Slice\n"
    "        where ONNX's clamping agrees with Slice-8's; the others are skipped\n"
    "  npy   every case (the few skipped are in docs/export.md): each input and the\n"
    "        expected output as a NumPy .npy file, bit-exact (bf16 stored as uint16,\n"
    "        f8 as uint8, u1/u4/i4 as their packed bytes), and desc.json: operation,\n"
    "        attributes, inputs, expected output or error, clauses, origin\n"
    "Prints the cases exported and skipped per operation, and per reason.\n"
    "\n"
    "options:\n"
    "  --format FORMAT         onnx or npy\n"
    "  --out DIR               where the folders go (made when missing; must be empty)\n"
    "  --op OP                 only cases of one operation (DepthToSpace-1, d2s...)\n"
    "  --type TYPE             only cases whose data input has this element type\n"
    "  --case GLOB             only cases whose id matches GLOB; given again, any of them\n"
    "  --tier TIER             without PATHS: default (conformance/), large\n"
    "                          (conformance-large/) or all (both)\n"
    "  -h, --help              show this text\n"
    "\n"
    "Exit status: 0 when every selected case was exported or skipped with a reason and\n"
    "every file loaded; 1 when a file did not load or could not be written; 2 usage\n"
    "error.\n";

enum { OPT_FORMAT = 256, OPT_OUT, OPT_OP, OPT_TYPE, OPT_CASE, OPT_TIER };

static const struct option export_options[] = {{"format", required_argument, NULL, OPT_FORMAT},
                                               {"out", required_argument, NULL, OPT_OUT},
                                               {"op", required_argument, NULL, OPT_OP},
                                               {"type", required_argument, NULL, OPT_TYPE},
                                               {"case", required_argument, NULL, OPT_CASE},
                                               {"tier", required_argument, NULL, OPT_TIER},
                                               {"help", no_argument, NULL, 'h'},
                                               {NULL, 0, NULL, 0}};

typedef struct export_options_t {
  mc_export_format format;
  bool have_format;
  const char *out_dir;
  const char *tier;
  mc_case_filter filter;
} export_options_t;

/* The problem with an option's value, or NULL. */
static const char *apply_option(export_options_t *o, int opt, const char *value) {
  switch (opt) {
  case OPT_FORMAT:
    o->have_format = mc_export_format_from_name(value, &o->format);
    return o->have_format ? NULL : "takes onnx or npy";
  case OPT_OUT:
    o->out_dir = value;
    return NULL;
  case OPT_OP:
    return (o->filter.op = mc_op_from_option(value)) < 0 ? "takes an operation (d2s, Slice-8...)"
                                                         : NULL;
  case OPT_TYPE:
    return (o->filter.type = mc_type_from_name(value)) == MC_TYPE_INVALID
               ? "takes an element type name (boolean, u8, ..., f32, u1, u4, i4)"
               : NULL;
  case OPT_CASE:
    if (o->filter.n_case_globs == MC_CASE_GLOBS_MAX)
      return "is given more than 64 times";
    o->filter.case_globs[o->filter.n_case_globs++] = value;
    return NULL;
  default: /* OPT_TIER */
    o->tier = value;
    return strcmp(value, "default") == 0 || strcmp(value, "large") == 0 || strcmp(value, "all") == 0
               ? NULL
               : "takes default, large or all";
  }
}

/* -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, export_options_t *o) {
  *o = (export_options_t){.filter = {.op = MC_OP_INVALID, .type = MC_TYPE_INVALID}};
  int opt;
  while ((opt = getopt_long(argc, argv, "h", export_options, NULL)) != -1) {
    if (opt == 'h') {
      fputs(export_usage, stdout);
      return 0;
    }
    if (opt == '?' || opt == ':')
      return mc_option_error("export", argv[optind - 1], export_options);
    const char *problem = apply_option(o, opt, optarg);
    if (problem) {
      fprintf(stderr, "movconf export: --%s %s, not '%s'\n", mc_option_name(export_options, opt),
              problem, optarg);
      return mc_usage_error("export");
    }
  }
  if (!o->have_format || !o->out_dir) {
    fprintf(stderr, "movconf export: --format and --out are required\n");
    return mc_usage_error("export");
  }
  return -1;
}

int mc_cmd_export(int argc, char **argv) {
  export_options_t o;
  int status = parse_options(argc, argv, &o);
  if (status >= 0)
    return status;
  char *tier_paths[2];
  int n_tier = mc_tier_folders(o.tier, tier_paths);
  mc_path_list files = {0};
  bool have_files = optind < argc ? mc_collect_case_files(argc - optind, argv + optind, &files)
                                  : mc_collect_case_files(n_tier, tier_paths, &files);
  if (!have_files) {
    mc_path_list_free(&files);
    return 2;
  }
  mc_selection sel = {0};
  mc_selection_load(files.paths, files.count, &sel);
  mc_export_counts counts;
  bool ok = mc_export_selection(o.format, &sel, &o.filter, o.out_dir, &counts);
  if (ok)
    mc_export_counts_print(stdout, &counts);
  mc_selection_free(&sel);
  mc_path_list_free(&files);
  return ok && counts.unloaded_files == 0 ? 0 : 1;
}
