/* movconf run on standard error while cases run: a progress line naming
   the current case (on a terminal) and one line for each case that fails
   the run, the moment it is judged. */
#ifndef MOVCONF_HARNESS_REPORT_LIVE_H
#define MOVCONF_HARNESS_REPORT_LIVE_H

#include <stdbool.h>

#include "harness/harness.h"

/* Widest progress line, in columns; at most ten redraws a second. */
#define MC_LIVE_COLUMNS 100
#define MC_LIVE_REDRAW_SECONDS 0.1
/* Characters of a failure's detail on its live line. */
#define MC_LIVE_DETAIL_CHARS 120

typedef struct mc_live {
  const mc_run_report *report; /* the run's, for the counts */
  bool progress;               /* standard error is a terminal: draw the progress line */
  bool announce;               /* print each failure as it comes (not --quiet) */
  int file, files;             /* the file being run (from 1) and how many */
  int drawn;                   /* columns of the progress line on screen (0: none) */
  double last_draw;            /* mc_now_seconds() of the last redraw */
  char current[256];           /* id of the case running, made safe and cut to fit */
} mc_live;

/* For mc_runner's starting and observe hooks (ctx: an mc_live). */
void mc_live_starting(void *ctx, const mc_case *c, const char *file);
void mc_live_observe(void *ctx, const mc_run_report *r, const mc_case_result *latest);
/* For mc_run_selection's progress (ctx: an mc_live): the file about to run
   (from 1); after the run, the progress line's last state, without a case,
   kept. */
void mc_live_file(void *ctx, int file);
void mc_live_finish(void *ctx);

#endif
