/* Text from outside movconf (an implementation's messages, case ids, file
   names) made safe for a terminal, a JSON report and XML 1.0, and the
   standard streams held to the same rule. In the common layer because
   every layer above writes such text: the harness's reports, the
   implementations' relayed output, the fuzz engine, the command line. */
#ifndef MOVCONF_COMMON_SAFE_TEXT_H
#define MOVCONF_COMMON_SAFE_TEXT_H

/* Text an implementation supplied (or any text bound for a report), made
   safe for a terminal, JSON and XML 1.0: valid UTF-8 is kept except that
   a backslash becomes \\, control characters become \n, \r, \t or \xHH,
   C1 controls, U+FFFE/U+FFFF and the bidirectional controls (U+061C,
   U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) become \uHHHH; every byte
   that is not part of well-formed UTF-8 becomes \xHH. Heap; never NULL. */
char *mc_safe_text(const char *text);
/* Text read back from a report, which anyone may have crafted, made safe
   as mc_safe_text does except that a backslash stays: a report movconf
   wrote holds text mc_safe_text made safe, shown as it is. Heap. */
char *mc_safe_report_text(const char *text);
/* The text mc_safe_text made safe, back as it was (a report read again,
   e.g. by report merge, is written as the run wrote it). Heap. */
char *mc_unsafe_text(const char *safe);
/* From here on, every byte written through stdout and stderr follows the
   rule of mc_safe_text, except that newlines, tabs, carriage returns and
   backslashes stay (movconf's own layout): no text that came from outside
   can reach a terminal or a log as an escape sequence or invalid UTF-8,
   whichever command or layer printed it. A write the descriptor refuses
   for now (O_NONBLOCK set by a process sharing it) waits instead of
   failing. Called once by main(), before anything is written. */
void mc_safe_standard_streams(void);
/* In a child that runs an implementation: stdout and stderr unfiltered
   again (what the child writes is relayed, and made safe, by the runner). */
void mc_plain_standard_streams(void);

#endif
