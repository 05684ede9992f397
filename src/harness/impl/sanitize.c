/* Sanitizer reports of implementations under test: see sanitize.h. */
#define _GNU_SOURCE /* dl_iterate_phdr, RTLD_NOLOAD */
#include "harness/impl/sanitize.h"

#include "harness/impl/child_contain.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/impl/elf_names.h"
#include "movconf/tensor.h"

/* The AddressSanitizer runtime of the compiler movconf was built with, and
   clang's shared one (for plugins clang built), as configured. */
#ifndef MOVCONF_ASAN_RUNTIME
#define MOVCONF_ASAN_RUNTIME ""
#endif
#ifndef MOVCONF_CLANG_ASAN_RUNTIME
#define MOVCONF_CLANG_ASAN_RUNTIME ""
#endif
/* Where a sanitized plugin host sends the reports of runtimes that ignore
   log_path (mc_sanitizer_host_loaded). */
#define REPORTS_ENV "MOVCONF_SANITIZER_REPORTS"

/* Whether this program itself runs with AddressSanitizer (then the runtime
   is already first in every process it starts by exec of itself). */
#if defined(__SANITIZE_ADDRESS__)
#define HOST_HAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOST_HAS_ASAN 1
#endif
#endif
#ifndef HOST_HAS_ASAN
#define HOST_HAS_ASAN 0
#endif

bool mc_sanitizer_open(mc_sanitizer *s, char *err, size_t errlen) {
  const char *tmp = getenv("TMPDIR");
  snprintf(s->dir, sizeof s->dir, "%s/movconf-sanitize-XXXXXX",
           tmp && strlen(tmp) < 30 ? tmp : "/tmp");
  /* mkdtemp makes it 0700: no other user reaches it. */
  bool made = mkdtemp(s->dir) != NULL;
  s->dir_fd = made ? open(s->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
  if (s->dir_fd < 0) {
    snprintf(err, errlen, "--sanitize: cannot create a folder for the reports in %s",
             tmp ? tmp : "/tmp");
    if (made)
      rmdir(s->dir);
    s->dir[0] = '\0';
    return false;
  }
  return true;
}

/* Calls fn with the folder and the name of each entry in it. */
static void each_report(const mc_sanitizer *s, void (*fn)(int dir, const char *name, void *ctx),
                        void *ctx) {
  int fd = openat(s->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* an offset of its own */
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d && fd >= 0)
    close(fd);
  for (struct dirent *e; d && (e = readdir(d));)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
      fn(s->dir_fd, e->d_name, ctx);
  if (d)
    closedir(d);
}

/* An entry, never what a link names; a folder only when empty. */
static void remove_entry(int dir, const char *name, void *ctx) {
  (void)ctx;
  if (unlinkat(dir, name, 0) != 0)
    unlinkat(dir, name, AT_REMOVEDIR);
}

/* Whether path is still the folder open at fd (not a link, not another). */
static bool still_at(const char *path, int fd) {
  struct stat at_path, opened;
  return fstatat(AT_FDCWD, path, &at_path, AT_SYMLINK_NOFOLLOW) == 0 && fstat(fd, &opened) == 0 &&
         S_ISDIR(at_path.st_mode) && at_path.st_dev == opened.st_dev &&
         at_path.st_ino == opened.st_ino;
}

void mc_sanitizer_close(mc_sanitizer *s) {
  if (!s->dir[0])
    return;
  each_report(s, remove_entry, NULL);
  if (still_at(s->dir, s->dir_fd))
    rmdir(s->dir);
  close(s->dir_fd);
  s->dir[0] = '\0';
}

void mc_sanitizer_child_env(const mc_sanitizer *s) {
  char options[256];
  snprintf(options, sizeof options,
           "log_path=%s/report:exitcode=%d:detect_leaks=0:abort_on_error=0:handle_segv=0:"
           "handle_abort=0:allocator_may_return_null=1",
           s->dir, MC_SANITIZER_EXIT_STATUS);
  setenv("ASAN_OPTIONS", options, 1);
  snprintf(options, sizeof options, "log_path=%s/report:print_stacktrace=1:halt_on_error=0",
           s->dir);
  setenv("UBSAN_OPTIONS", options, 1);
  snprintf(options, sizeof options, "%s/report", s->dir);
  setenv(REPORTS_ENV, options, 1);
}

/* What a plugin file says about the sanitizers it was built with. */
typedef struct plugin_facts {
  bool instrumented; /* it names __asan_* or __ubsan_* symbols */
  bool clang_shared; /* it needs clang's shared runtime (-shared-libasan) */
  bool gcc_ubsan;    /* it needs gcc's UBSan runtime */
  char gcc_asan[64]; /* the gcc ASan runtime it needs (libasan.so.N), or "" */
  char cxx[192];     /* the C++ runtimes it needs, space-separated */
} plugin_facts;

static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void note_needed(const char *library, void *ctx) {
  plugin_facts *f = ctx;
  if (starts_with(library, "libasan.so"))
    snprintf(f->gcc_asan, sizeof f->gcc_asan, "%s", library);
  f->gcc_ubsan |= starts_with(library, "libubsan.so");
  f->clang_shared |= starts_with(library, "libclang_rt.asan");
  if (starts_with(library, "libstdc++.so") || starts_with(library, "libc++.so") ||
      starts_with(library, "libc++abi.so")) {
    size_t used = strlen(f->cxx);
    snprintf(f->cxx + used, sizeof f->cxx - used, "%s%s", used ? " " : "", library);
  }
}

static void note_symbol(const char *name, void *ctx) {
  plugin_facts *f = ctx;
  f->instrumented |= starts_with(name, "__asan_") || starts_with(name, "__ubsan_");
}

/* False when path is no ELF file movconf can read (a name the loader
   searches for, say). */
static bool examine_plugin(const char *path, plugin_facts *f) {
  memset(f, 0, sizeof *f);
  mc_elf_visitor v = {note_needed, note_symbol, f};
  return mc_elf_visit_names(path, &v);
}

/* The ASan runtime the plugin was built for, which must come first in the
   process: the libasan.so.N gcc linked it with; clang's (its __asan_ and
   __ubsan_ symbols are left for the executable's runtime to define, or it
   names clang's shared runtime); none for gcc's UBSan alone, whose runtime
   stands by itself. A host built with ASan has its own: gcc's is a shared
   library named first again, clang's is linked in. */
static const char *asan_runtime_for(const plugin_facts *f, bool examined) {
  if (HOST_HAS_ASAN) {
#if defined(__clang__)
    return "";
#else
    return MOVCONF_ASAN_RUNTIME;
#endif
  }
  if (f->gcc_asan[0])
    return f->gcc_asan;
  if (examined && f->gcc_ubsan)
    return "";
  const char *clang_runtime = MOVCONF_CLANG_ASAN_RUNTIME;
  bool clang_built = f->clang_shared || (f->instrumented && !f->gcc_ubsan);
  return clang_built && clang_runtime[0] ? clang_runtime : MOVCONF_ASAN_RUNTIME;
}

void mc_sanitizer_preload(const char *plugin, char *list, size_t n) {
  const char *user = getenv("MOVCONF_ASAN_RUNTIME");
  if (user && user[0]) {
    snprintf(list, n, "%s", user);
    return;
  }
  plugin_facts f;
  bool examined = examine_plugin(plugin, &f);
  const char *runtime = asan_runtime_for(&f, examined);
  /* ASan intercepts __cxa_throw when it starts: a C++ runtime loaded later
     (with the plugin) leaves the interceptor nothing to call, and the first
     throw ends in "AddressSanitizer: CHECK failed". */
  bool asan_in_process = HOST_HAS_ASAN || runtime[0];
  snprintf(list, n, "%s%s%s", runtime, runtime[0] && f.cxx[0] ? " " : "",
           asan_in_process ? f.cxx : "");
}

void mc_sanitizer_load_hint(const char *plugin, char *err, size_t errlen) {
  char list[400];
  mc_sanitizer_preload(plugin, list, sizeof list);
  size_t used = strnlen(err, errlen - 1);
  snprintf(err + used, errlen - used,
           " (under --sanitize the plugin host preloads '%s'; a plugin built for another "
           "sanitizer runtime loads with that runtime named in MOVCONF_ASAN_RUNTIME)",
           list);
}

void mc_sanitizer_plugin_env(const mc_sanitizer *s, const char *plugin) {
  mc_sanitizer_child_env(s);
  char list[512];
  mc_sanitizer_preload(plugin, list, sizeof list);
  if (list[0])
    setenv("LD_PRELOAD", list, 1);
}

bool mc_sanitizer_check_plugin(const char *plugin, char *err, size_t errlen) {
  plugin_facts f;
  if (!examine_plugin(plugin, &f) || f.instrumented)
    return true;
  snprintf(err, errlen,
           "--sanitize address: %s has no sanitizer instrumentation (no __asan_ or __ubsan_ "
           "symbol), so no memory error of its own would be reported: build it with "
           "-fsanitize=address (spec/plugin-abi.md, section 13)",
           plugin);
  return false;
}

/* Points a loaded sanitizer runtime's reports at the folder. */
static int direct_reports(struct dl_phdr_info *info, size_t size, void *ctx) {
  (void)size;
  const char *base = strrchr(info->dlpi_name, '/');
  base = base ? base + 1 : info->dlpi_name;
  void *lib = strstr(base, "san") ? dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD) : NULL;
  void *sym = lib ? dlsym(lib, "__sanitizer_set_report_path") : NULL;
  if (sym) {
    void (*set_report_path)(const char *);
    memcpy(&set_report_path, &sym, sizeof set_report_path);
    set_report_path(ctx);
  }
  if (lib)
    dlclose(lib);
  return 0;
}

void mc_sanitizer_host_loaded(void) {
  char *reports = getenv(REPORTS_ENV);
  if (reports && reports[0])
    dl_iterate_phdr(direct_reports, reports);
}

typedef struct report_scan {
  char *summary;
  size_t n;
  pid_t pid;    /* the process the call ran in */
  pid_t inside; /* its number in its own PID namespace (0: unknown) */
  bool found;
  bool own_failure; /* the report is the sanitizer's own CHECK failure */
} report_scan;

/* Whether name is "report.PID" of the call's process: the name the
   runtimes give log_path's reports. Any other file in the folder is not a
   report of this call (another process wrote it) and never counts. */
static bool reported_by(const char *name, pid_t pid) {
  char own[32];
  snprintf(own, sizeof own, "report.%ld", (long)pid);
  return pid > 0 && strcmp(name, own) == 0;
}

void mc_sanitizer_started(mc_sanitizer *s, pid_t pid) {
  if (!s->dir[0]) /* off: no report will be looked for, so no /proc read */
    return;
  s->started = pid;
  s->started_inside = mc_child_pid_inside(pid);
}

/* The report's kind line, then its first frames ("#0 0x... in FUNC ..."). */
static void summarize(int dir, const char *file_name, void *ctx) {
  report_scan *scan = ctx;
  struct stat st;
  /* Only a regular file of the call's process, opened without following a link. */
  int fd = (reported_by(file_name, scan->pid) || reported_by(file_name, scan->inside))
               ? openat(dir, file_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
               : -1;
  FILE *f = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "r") : NULL;
  if (!f && fd >= 0)
    close(fd);
  char line[512], kind[256] = "", access[64] = "", frames[400] = "";
  int n_frames = 0;
  bool own_failure = false;
  while (f && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    char *what = strstr(line, "ERROR: AddressSanitizer: ");
    char *ub = strstr(line, "runtime error: ");
    char *in = strstr(line, " in ");
    char *check = strstr(line, "CHECK failed: ");
    if (!kind[0] && check) {
      snprintf(kind, sizeof kind, "%s %.200s",
               strstr(line, "AddressSanitizer") ? "AddressSanitizer" : "sanitizer", check);
      own_failure = true;
    } else if (!kind[0] && what) {
      char name[128] = "";
      sscanf(what + strlen("ERROR: AddressSanitizer: "), "%127s", name);
      snprintf(kind, sizeof kind, "AddressSanitizer: %s", name);
    } else if (!kind[0] && ub) {
      snprintf(kind, sizeof kind, "UndefinedBehaviorSanitizer: %.200s", ub);
    } else if (kind[0] && !access[0] &&
               (!strncmp(line, "READ of size", 12) || !strncmp(line, "WRITE of size", 13))) {
      const char *at = strstr(line, " at ");
      snprintf(access, sizeof access, ", %.*s", at ? (int)(at - line) : 60, line);
    } else if (kind[0] && n_frames < 4 && line[strspn(line, " ")] == '#' && in) {
      char fn[128];
      if (sscanf(in + 4, "%127s", fn) == 1) {
        size_t used = strlen(frames);
        snprintf(frames + used, sizeof frames - used, "%s%s", n_frames ? " < " : "", fn);
        n_frames++;
      }
    }
  }
  if (f)
    fclose(f);
  unlinkat(dir, file_name, 0);
  if (!scan->found && kind[0]) {
    snprintf(scan->summary, scan->n, "%s%s%s%s", kind, access, frames[0] ? "; in " : "", frames);
    scan->found = true;
    scan->own_failure = own_failure;
  }
}

void mc_sanitizer_judge_call(mc_sanitizer *s, pid_t pid, mc_impl_result *r) {
  char summary[400];
  pid_t inside = pid == s->started && s->started_inside != pid ? s->started_inside : 0;
  report_scan scan = {summary, sizeof summary, pid, inside, false, false};
  if (s->dir[0])
    each_report(s, summarize, &scan);
  if (!scan.found)
    return;
  mc_tensor_free(&r->output);
  r->outcome = MC_OUTCOME_CRASH;
  r->memory_error = !scan.own_failure;
  if (scan.own_failure)
    snprintf(
        r->message, sizeof r->message,
        "the sanitizer's runtime gave up (%.250s): a failure of the sanitized process's set-up, "
        "not a memory error; with a C++ plugin, its C++ runtime was loaded after the "
        "sanitizer's (spec/plugin-abi.md, section 13: MOVCONF_ASAN_RUNTIME)",
        summary);
  else
    snprintf(r->message, sizeof r->message, "%s", summary);
}
