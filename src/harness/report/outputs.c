/* The files a command will write, checked before it starts: see
   mc_check_outputs in report_files.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/text.h"
#include "harness/report/report_files.h"

/* The input or earlier output that path is, or NULL. */
static const mc_named_file *same_as(const char *path, const mc_named_file *files, int n) {
  for (int i = 0; i < n; i++)
    if (files[i].path && strcmp(files[i].path, "-") != 0 && mc_same_file(path, files[i].path))
      return &files[i];
  return NULL;
}

int mc_check_outputs(const char *command, const mc_named_file *outputs, int n_outputs,
                     const mc_named_file *inputs, int n_inputs) {
  for (int i = 0; i < n_outputs; i++) {
    const mc_named_file *out = &outputs[i];
    if (!out->path || strcmp(out->path, "-") == 0)
      continue;
    struct stat st; /* a device or FIFO is a stream: /dev/null may take two reports */
    bool stream = stat(out->path, &st) == 0 && !S_ISREG(st.st_mode);
    const mc_named_file *clash = stream ? NULL : same_as(out->path, inputs, n_inputs);
    if (!clash && !stream)
      clash = same_as(out->path, outputs, i);
    if (clash) {
      fprintf(stderr, "movconf %s: %s %s is the same file as %s %s: nothing was written\n", command,
              out->name, out->path, clash->name, clash->path);
      return 2;
    }
    if (!mc_output_check(out->path)) {
      fprintf(stderr, "movconf %s: %s %s: cannot write: %s\n", command, out->name, out->path,
              strerror(errno));
      return 2;
    }
  }
  return -1;
}

mc_named_file *mc_case_file_inputs(const mc_path_list *files, int room) {
  mc_named_file *inputs = mc_realloc_or_abort(NULL, sizeof *inputs * (size_t)(files->count + room));
  for (int i = 0; i < files->count; i++)
    inputs[i] = (mc_named_file){"the case file", files->paths[i]};
  return inputs;
}

mc_named_file mc_plugin_input(const char *impl_spec) {
  bool plugin = impl_spec && strncmp(impl_spec, "plugin:", 7) == 0;
  return (mc_named_file){"the plugin", plugin ? impl_spec + 7 : NULL};
}
