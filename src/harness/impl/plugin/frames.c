/* Stack frames for crash reports: see frames.h. */
#define _GNU_SOURCE /* dladdr */
#include "harness/impl/plugin/frames.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 32

void mc_frames_prepare(void) {
  void *frames[2];
  backtrace(frames, 2); /* the first call loads libgcc's unwinder */
}

static const char *base_name(const char *path) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  return slash ? slash + 1 : path ? path : "?";
}

/* Where the signal handler's frames end: after the frames of the host's
   own module (the handler and what it called) comes the kernel's signal
   trampoline, and after it the code that was interrupted. */
static int first_interrupted_frame(void *const *frames, int depth) {
  Dl_info self;
  void *here = (void *)(uintptr_t)first_interrupted_frame;
  if (!dladdr(here, &self))
    return depth > 2 ? 2 : 0;
  int i = 0;
  Dl_info info;
  /* A sanitizer's backtrace interceptor may come first. */
  while (i < depth && !(dladdr(frames[i], &info) && info.dli_fbase == self.dli_fbase))
    i++;
  while (i < depth && dladdr(frames[i], &info) && info.dli_fbase == self.dli_fbase)
    i++;
  return i + 1 < depth ? i + 1 : 0;
}

void mc_frames_describe(char *buf, size_t n, int max) {
  void *frames[MAX_DEPTH];
  int depth = backtrace(frames, MAX_DEPTH);
  int skip = first_interrupted_frame(frames, depth);
  size_t used = 0;
  buf[0] = '\0';
  for (int i = skip; i < depth && i < skip + max && used + 1 < n; i++) {
    Dl_info info;
    memset(&info, 0, sizeof info);
    const char *sep = i > skip ? " < " : "";
    uintptr_t at = (uintptr_t)frames[i];
    int w;
    if (dladdr(frames[i], &info) && info.dli_sname)
      w = snprintf(buf + used, n - used, "%s%s+0x%lx (%s)", sep, info.dli_sname,
                   (unsigned long)(at - (uintptr_t)info.dli_saddr), base_name(info.dli_fname));
    else if (info.dli_fname)
      w = snprintf(buf + used, n - used, "%s%s+0x%lx", sep, base_name(info.dli_fname),
                   (unsigned long)(at - (uintptr_t)info.dli_fbase));
    else
      w = snprintf(buf + used, n - used, "%s0x%lx", sep, (unsigned long)at);
    if (w < 0)
      break;
    used += (size_t)w < n - used ? (size_t)w : n - used - 1;
  }
}
