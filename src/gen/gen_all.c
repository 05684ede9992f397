/* movconf gen's whole run: every operation asked for through mc_gen_op,
   with its counts and where the cases went on stdout. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/gen.h"

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

int mc_gen_all(const mc_gen_options *o) {
  if (!generators_folder_usable(o->generators))
    return 2;
  int rc = 0, total = 0, in_tier[MC_GEN_MAX_TIERS] = {0};
  for (int op = 0; op < MC_OP_COUNT; op++) {
    if (o->op >= 0 && op != o->op)
      continue;
    mc_gen_counts counts = {0};
    int r = mc_gen_op(o, (mc_op)op, &counts);
    rc = r > rc ? r : rc;
    total += counts.valid + counts.invalid;
    for (int t = 0; mc_gen_tiers[t]; t++)
      in_tier[t] += counts.in_tier[t];
    printf("%-22s %3d groups %5d cases (%d valid, %d invalid)\n", mc_op_name((mc_op)op),
           counts.groups, counts.valid + counts.invalid, counts.valid, counts.invalid);
  }
  print_summary(o, total, in_tier);
  if (rc == 1 && o->check)
    printf("generated files are out of date: run movconf gen\n");
  return rc;
}
