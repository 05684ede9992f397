/* The checks of `movconf check-cases` applied by `movconf run` to each file
   it loads (src/cases/check.c: clause ids in the registry, id prefixes,
   ids unique within the file and across the run's files), so that a run
   never passes on cases that check-cases refuses. */
#include "common/text.h"
#include "harness/harness.h"

#include <stdlib.h>

/* Problems named in full in one invalid-file entry; the rest are counted. */
#define SHOWN_PROBLEMS 3

typedef struct file_problems {
  mc_text text;
  int count;
} file_problems;

static void add_problem(void *ctx, const char *msg) {
  file_problems *p = ctx;
  if (p->count++ < SHOWN_PROBLEMS)
    mc_text_printf(&p->text, "%s%s", p->count > 1 ? "; " : "", msg);
}

char *mc_runner_file_problems(mc_runner *run, const mc_case_file *f) {
  file_problems p = {0};
  if (!run->case_ids)
    run->case_ids = mc_case_ids_new();
  mc_case_file_check(f, add_problem, &p);
  if (run->case_ids)
    mc_case_ids_check_file(run->case_ids, f, add_problem, &p);
  else
    add_problem(&p, "out of memory while checking that case ids are unique");
  const char *shown = p.text.p ? p.text.p : "";
  char *why = NULL;
  if (p.count > SHOWN_PROBLEMS)
    why = mc_strdupf("%s; and %d more (movconf check-cases lists them)", shown,
                     p.count - SHOWN_PROBLEMS);
  else if (p.count > 0)
    why = mc_strdupf("%s", shown);
  mc_text_free(&p.text);
  return why;
}
