/* movconf export: the cases as files other runners read (docs/export.md):
   ONNX node tests (model.onnx, test_data_set_0/input_N.pb, output_0.pb)
   for the cases an ONNX operator of the same meaning computes, and NumPy
   files with a JSON manifest (desc.json) for every case. */
#ifndef MOVCONF_HARNESS_EXPORT_H
#define MOVCONF_HARNESS_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "harness/harness.h"

typedef enum mc_export_format { MC_EXPORT_ONNX, MC_EXPORT_NPY } mc_export_format;

/* "onnx" or "npy"; false for any other name. */
bool mc_export_format_from_name(const char *name, mc_export_format *out);

/* Why a case is not exported: X(NAME, key, why). */
#define MC_EXPORT_SKIP_LIST(X)                                                                     \
  X(EXPECTED_ERROR, "expected-error", "an expected error: an ONNX node test has only outputs")     \
  X(NO_OPERATOR, "no-onnx-operator", "no ONNX operator has the same meaning")                      \
  X(RANK_NOT_4, "rank-not-4", "ONNX DepthToSpace and SpaceToDepth take 4-D data only")             \
  X(S2D_DEPTH_FIRST, "s2d-depth-first", "ONNX SpaceToDepth has the blocks_first order only")       \
  X(TYPE_NOT_IN_ONNX, "type-not-in-onnx", "ONNX has no 1-bit element type (u1)")                   \
  X(TYPE_NOT_IN_OPERATOR, "type-not-in-operator",                                                  \
    "the element type is outside the ONNX operator's type constraint at its version")              \
  X(SLICE_SCALAR, "slice-scalar", "ONNX Slice takes data of rank 1 or more")                       \
  X(SLICE_START_CLAMP, "slice-start-clamp",                                                        \
    "a negative step's start below -dim: ONNX clamps it to 0, Slice-8 to -1 (errata E32)")         \
  X(SLICE_EMPTY_AXIS, "slice-negative-step-empty-axis",                                            \
    "a negative step over an empty axis: ONNX's clamp into [0, dim-1] has no value")               \
  X(PAD_SYMMETRIC, "pad-symmetric", "ONNX Pad has no symmetric mode (constant, reflect, edge)")    \
  X(PAD_NEGATIVE, "pad-negative",                                                                  \
    "a negative pad: Pad-12 pads, then crops (errata E50); ONNX Pad's crops are not mapped")       \
  X(PAD_SCALAR, "pad-scalar", "rank-0 data: nothing to pad, and ONNX Pad's pads would be empty")   \
  X(GATHER_BATCH_DIMS, "gather-batch-dims", "batch_dims names batch axes: ONNX Gather has none")   \
  X(GATHER_INDICES_TYPE, "gather-indices-type",                                                    \
    "indices of a type other than int32 and int64, which ONNX Gather's Tind is")                   \
  X(GATHER_OUT_OF_RANGE, "gather-index-out-of-range",                                              \
    "an index outside [-d, d-1]: Gather-8 writes zeros, ONNX Gather calls it an error")            \
  X(LIST_TOO_LONG, "attribute-list-too-long",                                                      \
    "a list attribute of more than 40 values, of which movconf keeps 40 (an invalid case)")        \
  X(FOLDER_TAKEN, "folder-taken", "another case's id gives the same folder name")                  \
  X(NO_EXPECTED_BYTES, "expected-digest-unmatched",                                                \
    "the expected output is a digest the oracle's output does not match")

#define MC_EXPORT_SKIP_ENUM(NAME, key, why) MC_EXPORT_SKIP_##NAME,
typedef enum mc_export_skip {
  MC_EXPORT_SKIP_LIST(MC_EXPORT_SKIP_ENUM) MC_EXPORT_SKIP_COUNT
} mc_export_skip;
#undef MC_EXPORT_SKIP_ENUM

const char *mc_export_skip_key(mc_export_skip s);
const char *mc_export_skip_why(mc_export_skip s);

/* What an export did, per operation. */
typedef struct mc_export_counts {
  long exported[MC_OP_COUNT];
  long skipped[MC_OP_COUNT][MC_EXPORT_SKIP_COUNT];
  int unloaded_files; /* case files that did not load (said on stderr) */
} mc_export_counts;

/* Writes the selected cases of sel (filter as movconf run selects them)
   under out_dir, a folder that must be new or empty: one folder per case.
   False, said on stderr, when a file cannot be written or out_dir is not
   empty. */
bool mc_export_selection(mc_export_format format, mc_selection *sel, const mc_case_filter *filter,
                         const char *out_dir, mc_export_counts *counts);
/* The counts: one line per operation, then one per operation and reason. */
void mc_export_counts_print(FILE *out, const mc_export_counts *counts);

#endif
