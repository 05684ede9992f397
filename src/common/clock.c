/* Time for deadlines and durations: see clock.h. */
#include "common/clock.h"

#include <limits.h>
#include <time.h>

double mc_now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double mc_deadline_after(double seconds) {
  return seconds > 0 ? mc_now_seconds() + seconds : MC_NO_DEADLINE;
}

double mc_deadline_within(double seconds, double stop_at) {
  double deadline = mc_deadline_after(seconds);
  if (stop_at <= 0)
    return deadline;
  return deadline == MC_NO_DEADLINE || stop_at < deadline ? stop_at : deadline;
}

int mc_deadline_passed(double deadline) {
  return deadline != MC_NO_DEADLINE && mc_now_seconds() >= deadline;
}

int mc_stop_passed(double stop_at) {
  return stop_at > 0 && mc_now_seconds() >= stop_at;
}

int mc_millis_until(double deadline) {
  if (deadline == MC_NO_DEADLINE)
    return -1;
  double left = (deadline - mc_now_seconds()) * 1000.0;
  if (left <= 0)
    return 0;
  return left >= (double)INT_MAX ? INT_MAX : (int)left + 1;
}

void mc_sleep_briefly(void) {
  struct timespec ts = {0, 2 * 1000 * 1000};
  nanosleep(&ts, NULL);
}
