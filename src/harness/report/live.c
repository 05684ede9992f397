/* A run while cases run: the progress line and the live failure
   lines, both on standard error (the report and its grouped failure list
   stay on the table's stream). */
#include "harness/report/live.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/text.h"

static bool continuation_byte(char ch) {
  return ((unsigned char)ch & 0xC0) == 0x80;
}

/* Bytes of s that make at most cols characters, never cutting a UTF-8
   sequence (columns are counted as characters: close enough for ids). */
static size_t fit(const char *s, size_t cols) {
  size_t i = 0, n = 0;
  for (; s[i]; i++)
    if (!continuation_byte(s[i]) && n++ == cols)
      break;
  return i;
}

static int columns(const char *s) {
  int n = 0;
  for (; *s; s++)
    n += !continuation_byte(*s);
  return n;
}

/* Blanks the progress line, so that a full line can be printed. */
static void clear_line(mc_live *live) {
  if (live->drawn > 0)
    fprintf(stderr, "\r%*s\r", live->drawn, "");
  live->drawn = 0;
}

/* Redraws the progress line over the last one, naming the current case
   when with_case; end is "" or "\n". */
static void draw(mc_live *live, bool with_case, const char *end) {
  char line[4 * MC_LIVE_COLUMNS + 1];
  const mc_run_report *r = live->report;
  int n = snprintf(line, sizeof line, "[file %d/%d] %d cases, %d failed", live->file, live->files,
                   r->count, mc_report_problems(r));
  if (with_case && live->current[0] && n > 0 && (size_t)n < sizeof line)
    snprintf(line + n, sizeof line - (size_t)n, ": %s", live->current);
  line[fit(line, MC_LIVE_COLUMNS - 1)] = '\0'; /* the last column would wrap on some terminals */
  int cols = columns(line);
  int pad = live->drawn > cols ? live->drawn - cols : 0; /* what is left of a longer line */
  fprintf(stderr, "\r%s%*s%s", line, pad, "", end);
  live->drawn = *end ? 0 : cols + pad;
  live->last_draw = mc_now_seconds();
}

void mc_live_starting(void *ctx, const mc_case *c, const char *file) {
  mc_live *live = ctx;
  (void)file;
  if (!live->progress)
    return;
  char *safe = mc_safe_text(c->id); /* ids come from case files */
  snprintf(live->current, sizeof live->current, "%.*s", (int)fit(safe, MC_LIVE_COLUMNS), safe);
  free(safe);
  if (mc_now_seconds() - live->last_draw >= MC_LIVE_REDRAW_SECONDS)
    draw(live, true, "");
}

/* What follows the case id on a failure line (heap, unsafe text). */
static char *failure_text(const mc_case_result *c) {
  if (c->expect == MC_EXPECT_UNEXPECTED_PASS)
    return mc_strdupf("expected %s: %s", mc_verdict_name(c->expected_verdict),
                      c->expect_reason ? c->expect_reason : "");
  return mc_strdupf("%s", c->detail ? c->detail : "");
}

/* FAIL VERDICT: ID  DETAIL, one line, everything made safe. */
static void announce(const mc_case_result *c) {
  const char *label =
      c->expect == MC_EXPECT_UNEXPECTED_PASS ? "xpass" : mc_verdict_name(c->verdict);
  char *raw = failure_text(c);
  char *id = mc_safe_text(c->id), *detail = mc_safe_text(raw);
  size_t cut = fit(detail, MC_LIVE_DETAIL_CHARS);
  fprintf(stderr, "FAIL %s: %s%s%.*s%s\n", label, id, *detail ? "  " : "", (int)cut, detail,
          detail[cut] ? "..." : "");
  free(detail);
  free(id);
  free(raw);
}

void mc_live_observe(void *ctx, const mc_run_report *r, const mc_case_result *latest) {
  mc_live *live = ctx;
  (void)r;
  if (!live->announce || !mc_case_result_is_problem(latest))
    return;
  clear_line(live);
  announce(latest);
  live->last_draw = 0; /* the next case is named at once */
}

void mc_live_file(void *ctx, int file) {
  ((mc_live *)ctx)->file = file;
}

void mc_live_finish(void *ctx) {
  mc_live *live = ctx;
  if (live->progress && live->report->count > 0)
    draw(live, false, "\n");
}
