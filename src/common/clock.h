/* Time for deadlines and durations: the monotonic clock, in seconds. */
#ifndef MOVCONF_COMMON_CLOCK_H
#define MOVCONF_COMMON_CLOCK_H

/* Seconds on the monotonic clock (not wall time: never jumps). */
double mc_now_seconds(void);

/* A deadline: a time on that clock, or MC_NO_DEADLINE for none. */
#define MC_NO_DEADLINE (-1.0)
/* The deadline seconds from now; MC_NO_DEADLINE when seconds <= 0. */
double mc_deadline_after(double seconds);
/* The earlier of mc_deadline_after(seconds) and stop_at (a time on this
   clock after which nothing may wait; <= 0: none). */
double mc_deadline_within(double seconds, double stop_at);
/* True once the deadline has passed (never for MC_NO_DEADLINE). */
int mc_deadline_passed(double deadline);
/* True once stop_at, the run's own stop (fuzz --time), has passed (never
   when stop_at <= 0): what ran into it was cut short by movconf, not by
   the implementation. */
int mc_stop_passed(double stop_at);
/* Milliseconds left until the deadline, for poll(): 0 once it has passed,
   -1 (wait for ever) for MC_NO_DEADLINE. */
int mc_millis_until(double deadline);
/* Sleeps a few milliseconds: the step of a polling wait. */
void mc_sleep_briefly(void);

#endif
