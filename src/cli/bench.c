/* movconf bench: option parsing over the benchmark engine (harness/bench/bench.h). */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>

#include "harness/bench/bench.h"
#include "movconf/version.h"

static const char bench_usage[] =
    "usage: movconf bench [options]\n"
    "\n"
    "Times the optimized kernels on named workloads next to two multithreaded copies of the\n"
    "same traffic (memcpy, and streaming stores: the ceiling) and the single-threaded oracle. "
    "Before timing a workload it checks that\n"
    "the kernels' output equals the oracle's bit for bit.\n"
    "\n"
    "options:\n"
    "  --threads N    threads for the kernels and the memcpy, 1 to 1024 (default:\n"
    "                 MOVCONF_THREADS, else the online CPUs)\n"
    "  --quick        smaller shapes (large dimensions divided by 4) and fewer runs, for CI\n"
    "  --filter GLOB  only workloads whose id matches GLOB, e.g. 's2d/*' or '*/f16'\n"
    "  --json FILE    also write every row as JSON\n"
    "  --list         print the workload ids and input shapes, run nothing\n"
    "  --impl plugin:PATH | exec:COMMAND\n"
    "                 also time another implementation on the same workloads, after the\n"
    "                 same bitwise check against the oracle: a plugin\n"
    "                 (include/movconf/plugin.h) is loaded into this process and timed in the\n"
    "                 same alternating runs; a process adapter must declare the timing\n"
    "                 request (spec/adapter-protocol.md section 15) and times its own calls\n"
    "                 with the same runs. A line under each row gives its time, GB/s,\n"
    "                 vs-ceiling and how many times faster movconf is\n"
    "  --timeout SECONDS\n"
    "                 a plugin's call (its loading, each timed call) that lasts longer\n"
    "                 ends the benchmark, which then fails (default 10; 0: none; at most\n"
    "                 86400)\n"
    "  -h, --help     show this text\n"
    "\n"
    "columns:\n"
    "  bytes      input bytes + output bytes of one call (1 kB = 10^3, 1 MB = 10^6 bytes)\n"
    "  time       median wall time of one call (CLOCK_MONOTONIC) over 9 timed runs (--quick:\n"
    "             5) after a warm-up call; the output is allocated once, so no run pays for\n"
    "             allocation or first-touch page faults; a run repeats the call until it\n"
    "             lasts 20 ms (--quick: 2 ms) and is divided by the call count\n"
    "  GB/s       bytes / time (1 GB = 10^9 bytes)\n"
    "  memcpy     GB/s of a memcpy of floor(bytes / 2) bytes from one buffer to another,\n"
    "             split into 4096-byte-aligned ranges over the same threads with the kernels'\n"
    "             pool (mc_optimized_copy), timed the same way in runs that alternate with\n"
    "             the kernels' runs (so both see the same load); it reads and writes that\n"
    "             many bytes, so its GB/s is 2 * floor(bytes / 2) / its time\n"
    "  vs-memcpy  GB/s / memcpy GB/s: 1.00 is as fast as copying the same traffic\n"
    "  ceiling    GB/s of the same copy with streaming (non-temporal) stores where the CPU\n"
    "             has them, same buffers, threads and pool, in the same alternating runs:\n"
    "             no line is read before it is written, the most a kernel that reads and\n"
    "             writes each byte once can move\n"
    "  vs-ceiling GB/s / ceiling GB/s\n"
    "  oracle     median time of one oracle call (single-threaded, allocates its output);\n"
    "             1 run with --quick, else up to 3 runs and no more once they took 10 s;\n"
    "             the run count is in brackets\n"
    "  speedup    oracle time / time\n"
    "Ratios compare figures measured in the same run; absolute figures depend on the\n"
    "machine and its load.\n"
    "\n"
    "Exit status: 0 when every selected workload ran and matched the oracle, 1 on a\n"
    "mismatch, a kernel error, a plugin that ended, crashed or timed out, or an\n"
    "unwritable --json file, 2 usage.\n";

enum { OPT_QUICK = 1000, OPT_FILTER, OPT_JSON, OPT_LIST };

/* --impl, --threads and --timeout are the implementation options of run,
   show and fuzz (mc_apply_impl_option): the same limits, the same messages. */
static const struct option bench_long_options[] = {
    {"threads", required_argument, NULL, MC_OPT_THREADS},
    {"quick", no_argument, NULL, OPT_QUICK},
    {"filter", required_argument, NULL, OPT_FILTER},
    {"json", required_argument, NULL, OPT_JSON},
    {"list", no_argument, NULL, OPT_LIST},
    {"impl", required_argument, NULL, MC_OPT_IMPL},
    {"timeout", required_argument, NULL, MC_OPT_TIMEOUT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* One option into o. Returns -1 to go on, else the exit status. */
static int apply_option(int opt, const char *value, mc_bench_options *o, bool *list) {
  mc_impl_choice impl = {.spec = o->impl,
                         .options = {.threads = o->threads, .timeout_seconds = o->timeout_seconds}};
  int status;
  switch (opt) {
  case MC_OPT_THREADS:
  case MC_OPT_IMPL:
  case MC_OPT_TIMEOUT:
    status = mc_apply_impl_option("bench", opt, value, &impl);
    o->impl = impl.spec;
    o->threads = impl.options.threads;
    o->timeout_seconds = impl.options.timeout_seconds;
    return status;
  case OPT_QUICK:
    o->quick = true;
    return -1;
  case OPT_FILTER:
    o->filter = value;
    return -1;
  case OPT_JSON:
    o->json_path = value;
    return -1;
  case OPT_LIST:
    *list = true;
    return -1;
  case 'h':
    fputs(bench_usage, stdout);
    return 0;
  default:
    return 2;
  }
}

/* Returns -1 to go on, else the exit status. */
static int parse_bench_options(int argc, char **argv, mc_bench_options *o, bool *list) {
  *o = (mc_bench_options){.version = MOVCONF_VERSION,
                          .timeout_seconds = mc_impl_choice_default().options.timeout_seconds};
  *list = false;
  opterr = 0; /* our own messages, in movconf's words */
  optind = 0; /* glibc: a full reset, so that a second parse starts afresh */
  int opt;
  while ((opt = getopt_long(argc, argv, "+:h", bench_long_options, NULL)) != -1) {
    if (opt == '?' || opt == ':') {
      const char *arg = argv[optind - 1];
      fprintf(stderr,
              opt == ':' ? "movconf bench: %s needs a value\n"
                         : "movconf bench: unknown argument '%s' (see movconf bench --help)\n",
              arg);
      return 2;
    }
    int status = apply_option(opt, optarg, o, list);
    if (status >= 0)
      return status;
  }
  if (optind < argc) {
    fprintf(stderr, "movconf bench: unknown argument '%s' (see movconf bench --help)\n",
            argv[optind]);
    return 2;
  }
  return -1;
}

int mc_cmd_bench(int argc, char **argv) {
  mc_bench_options o;
  bool list;
  int status = parse_bench_options(argc, argv, &o, &list);
  if (status < 0)
    status = mc_check_threads_environment("bench", o.threads);
  if (status >= 0)
    return status;
  if (list) {
    mc_bench_list(&o);
    return 0;
  }
  const mc_named_file json = {"--json", o.json_path}, plugin = mc_plugin_input(o.impl);
  if (mc_check_outputs("bench", &json, 1, &plugin, 1) >= 0)
    return 2;
  if (mc_bench_count(o.filter) == 0) {
    fprintf(stderr, "movconf bench: no workload matches '%s' (see movconf bench --list)\n",
            o.filter);
    return 2;
  }
  return mc_bench_run(&o);
}
