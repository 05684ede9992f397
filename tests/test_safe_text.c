/* The safe text every report and stream goes through (mc_safe_text and
   mc_safe_report_text): controls and bidirectional overrides escaped,
   back as they were with mc_unsafe_text; and report html's escaping. */
#include <stdlib.h>

#include "check.h"
#include "common/text.h"
#include "harness/harness.h"

/* text made safe by make equals want, and mc_unsafe_text gives back raw. */
static void check_safe(char *(*make)(const char *), const char *text, const char *want,
                       const char *raw) {
  char *safe = make(text);
  CHECK_STR(safe, want);
  char *back = mc_unsafe_text(safe);
  CHECK_STR(back, raw);
  free(back);
  free(safe);
}

/* Each bidirectional control, alone between letters, as \uHHHH. */
static void bidi_controls_are_escaped(void) {
  static const struct {
    const char *utf8, *escaped;
  } bidi[] = {
      {"\xd8\x9c", "\\u061c"},     {"\xe2\x80\x8e", "\\u200e"}, {"\xe2\x80\x8f", "\\u200f"},
      {"\xe2\x80\xaa", "\\u202a"}, {"\xe2\x80\xab", "\\u202b"}, {"\xe2\x80\xac", "\\u202c"},
      {"\xe2\x80\xad", "\\u202d"}, {"\xe2\x80\xae", "\\u202e"}, {"\xe2\x81\xa6", "\\u2066"},
      {"\xe2\x81\xa7", "\\u2067"}, {"\xe2\x81\xa8", "\\u2068"}, {"\xe2\x81\xa9", "\\u2069"}};
  for (size_t i = 0; i < sizeof bidi / sizeof bidi[0]; i++) {
    char text[16], want[16];
    snprintf(text, sizeof text, "a%sb", bidi[i].utf8);
    snprintf(want, sizeof want, "a%sb", bidi[i].escaped);
    check_safe(mc_safe_text, text, want, text);
  }
  /* Their neighbours are letters and marks shown as they are. */
  check_safe(mc_safe_text, "\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xa5",
             "\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xa5", "\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xa5");
}

/* A report's text is already safe: its backslashes stay, what a crafted
   report holds raw is escaped. */
static void report_text_keeps_backslashes(void) {
  char *safe = mc_safe_report_text("id\\x1b \xe2\x80\xae\x1b\\\\");
  CHECK_STR(safe, "id\\x1b \\u202e\\x1b\\\\");
  free(safe);
  check_safe(mc_safe_text, "a\\b\n", "a\\\\b\\n", "a\\b\n");
}

/* On the page, a report's text can neither open an element nor leave an
   attribute's quotes, and its controls show escaped. */
static void page_text_is_escaped(void) {
  mc_text t = {0};
  mc_html_put_report_text(&t, "x\"><script>a='&'</script>\xe2\x80\xae\x1b\\n");
  CHECK_STR(t.p, "x&quot;&gt;&lt;script&gt;a=&#39;&amp;&#39;&lt;/script&gt;\\u202e\\x1b\\n");
  mc_text_free(&t);
}

int main(void) {
  bidi_controls_are_escaped();
  report_text_keeps_backslashes();
  page_text_is_escaped();
  return check_report();
}
