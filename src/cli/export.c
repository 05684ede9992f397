/* movconf export: options, then src/harness/export/ writes the files. */
#include <stdio.h>

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
    "  -h, --help              show this text\n"
    "\n"
    "selection:\n";

/* Then mc_selection_options_help, then: */
static const char export_usage_tail[] =
    "\n"
    "Exit status: 0 when every selected case was exported or skipped with a reason and\n"
    "every file loaded; 1 when a file did not load or could not be written; 2 usage\n"
    "error.\n";

enum { OPT_FORMAT = 256, OPT_OUT };

static const struct option export_options[] = {{"format", required_argument, NULL, OPT_FORMAT},
                                               {"out", required_argument, NULL, OPT_OUT},
                                               MC_SELECTION_LONG_OPTIONS,
                                               {"help", no_argument, NULL, 'h'},
                                               {NULL, 0, NULL, 0}};

typedef struct export_options_t {
  mc_export_format format;
  bool have_format;
  const char *out_dir;
  mc_case_choice cases;
} export_options_t;

/* -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, export_options_t *o) {
  *o = (export_options_t){.cases = mc_case_choice_default()};
  int opt;
  while ((opt = getopt_long(argc, argv, "h", export_options, NULL)) != -1) {
    if (opt == 'h') {
      printf("%s%s%s", export_usage, mc_selection_options_help, export_usage_tail);
      return 0;
    }
    if (mc_is_selection_option(opt)) {
      if (mc_apply_selection_option("export", opt, optarg, &o->cases) >= 0)
        return mc_usage_error("export");
    } else if (opt == OPT_FORMAT) {
      o->have_format = mc_export_format_from_name(optarg, &o->format);
      if (!o->have_format) {
        fprintf(stderr, "movconf export: --format takes onnx or npy, not '%s'\n", optarg);
        return mc_usage_error("export");
      }
    } else if (opt == OPT_OUT) {
      o->out_dir = optarg;
    } else {
      return mc_option_error("export", argv[optind - 1], export_options);
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
  mc_path_list files = {0};
  if (!mc_collect_chosen_files(&o.cases, argc - optind, argv + optind, &files)) {
    mc_path_list_free(&files);
    return 2;
  }
  mc_selection sel = {0};
  mc_selection_load(files.paths, files.count, &sel);
  mc_export_counts counts;
  bool ok = mc_export_selection(o.format, &sel, &o.cases.filter, o.out_dir, &counts);
  if (ok)
    mc_export_counts_print(stdout, &counts);
  mc_selection_free(&sel);
  mc_path_list_free(&files);
  return ok && counts.unloaded_files == 0 ? 0 : 1;
}
