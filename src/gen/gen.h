/* The generator: conformance vectors expanded from the descriptions in
   generators/ (generators/README.md). gen.c reads the descriptions and
   writes the files; gen_build.c turns one combination of parameters into a
   request, through the operation's builder (src/gen/ops/<slug>.c, a row of
   gen_ops.c). The one public header of src/gen/. */
#ifndef MOVCONF_GEN_H
#define MOVCONF_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "cases/cases.h"
#include "movconf/ops.h"

/* Parameters one case is built from: names and JSON values of the
   description (the group's "set", one combination of "vary", one entry of
   each "cycle"). */
#define MC_GEN_MAX_PARAMS 32
typedef struct mc_gen_params {
  int n;
  const char *name[MC_GEN_MAX_PARAMS];
  const cJSON *value[MC_GEN_MAX_PARAMS];
  size_t max_input_bytes; /* the data input's bound; 0: MC_GEN_MAX_INPUT_BYTES */
} mc_gen_params;

/* Largest data input gen builds: generated cases stay small. */
#define MC_GEN_MAX_INPUT_BYTES ((size_t)1 << 20)
/* A tier group (generators/README.md, "Tiers") may raise its bounds up to
   these: the case loader's limit on one tensor given by fill (256 MiB) and
   the runner's default output cap (1 GiB), so that every case it writes
   loads and runs with the defaults. */
#define MC_GEN_TIER_MAX_INPUT_BYTES ((size_t)256 << 20)
#define MC_GEN_TIER_MAX_OUTPUT_BYTES ((size_t)1 << 30)
#define MC_GEN_MAX_STRING 64

/* One built request; owns its tensors. */
typedef struct mc_gen_case {
  mc_request req;
  mc_tensor tensors[MC_MAX_INPUTS];
  char mode[MC_GEN_MAX_STRING], auto_pad[MC_GEN_MAX_STRING];
  mc_payload_kind fill; /* how the data was made, for the case writer */
  uint64_t fill_param;
} mc_gen_case;

/* Builds the request of op from params; case_seed seeds a prng fill and
   random margins. On failure writes why to err (the description is wrong)
   and returns false, owning nothing. */
bool mc_gen_build(mc_op op, const mc_gen_params *params, uint64_t case_seed, mc_gen_case *out,
                  char *err, size_t errlen);
void mc_gen_case_free(mc_gen_case *c);

/* The parameter names mc_gen_build accepts for op, NULL-terminated. */
const char *const *mc_gen_param_names(mc_op op);

/* Writes a parameter value compactly (integers, strings, null, arrays). */
void mc_gen_format_value(const cJSON *v, char *buf, size_t n);

/* The tiers a group may belong to (generators/README.md, "Tiers"),
   NULL-terminated: a tier's files go to OUT-<tier>/<op slug>/. */
#define MC_GEN_MAX_TIERS 4
extern const char *const mc_gen_tiers[];

/* The folder a tier's files go under: OUT-<tier>, or OUT itself for tier
   NULL (trailing slashes of OUT dropped). Heap. */
char *mc_gen_folder(const char *out, const char *tier);

/* What movconf gen was asked to do. */
typedef struct mc_gen_options {
  const char *out;        /* the conformance folder written (or compared); the groups of a
                             tier go to OUT-<tier>/<op slug>/ instead */
  const char *generators; /* the folder of the descriptions */
  int op;                 /* mc_op, or -1 for all */
  bool check;             /* compare only, write nothing */
  bool progress;          /* show a long group's progress on stderr (a terminal) */
} mc_gen_options;

typedef struct mc_gen_counts {
  int groups, valid, invalid;
  int in_tier[MC_GEN_MAX_TIERS]; /* cases of the tier groups, by index in mc_gen_tiers */
} mc_gen_counts;

/* One operation: every group of generators/<op slug>.json to its file,
   then stale files swept (only when every group succeeded). Each file is
   streamed as its cases are made and never passes the loader's limit
   (MC_CASE_MAX_FILE_BYTES): a group that would is refused as soon as it
   does, and its file left as it was. Progress and problems go to stderr.
   Returns 0, 1 (a description error, a group too large or, with check, a
   difference) or 2 (I/O). */
int mc_gen_op(const mc_gen_options *o, mc_op op, mc_gen_counts *counts);
/* movconf gen's work: the descriptions' folder checked (a usage error, 2,
   said once before any output folder is touched), then every operation
   asked for (o->op, or all), a line of counts each on stdout and the
   folders the cases went to; returns the worst mc_gen_op status. */
int mc_gen_all(const mc_gen_options *o);

#endif
