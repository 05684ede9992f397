/* The pipes movconf makes to talk to a hosted implementation or relay
   its text: kept apart from child.c (ending children) and child_text.c
   (relaying their text), which both need pipes, so that neither depends
   on the other for one. */
#ifndef MOVCONF_HARNESS_CHILD_PIPE_H
#define MOVCONF_HARNESS_CHILD_PIPE_H

#include <stdbool.h>

/* pipe(2) with both ends above the standard descriptors (when movconf
   runs with one of them closed, pipe() can hand them out) and
   close-on-exec. False with errno when it cannot be made. */
bool mc_child_pipe(int fds[2]);

#endif
