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
   C1 controls and U+FFFE/U+FFFF become \uHHHH; every byte that is not part
   of well-formed UTF-8 becomes \xHH. Heap; never NULL. */
char *mc_safe_text(const char *text);
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
