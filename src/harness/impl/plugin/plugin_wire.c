/* The attributes of a request across the plugin host's socket: see
   plugin_wire.h. */
#include "harness/impl/plugin/plugin_wire.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void mc_wire_put_attrs(mc_wire_request *w, const mc_request *req,
                       const char *strings[MC_ATTR_COUNT]) {
  w->attrs = req->attrs;
  for (int i = 0; i < MC_ATTR_COUNT; i++) {
    strings[i] = NULL;
    w->string_len[i] = -1;
  }
  for (int i = 0; i < mc_op_attr_count(req->op); i++) {
    mc_attr id = mc_op_attr(req->op, i);
    if (mc_attr_kind_of(id) != MC_ATTR_KIND_STRING)
      continue;
    strings[id] = mc_attrs_string(&req->attrs, id);
    w->string_len[id] = strings[id] ? (int64_t)strlen(strings[id]) : -1;
    mc_attrs_set_string(&w->attrs, id, NULL);
  }
}

/* Reads an optional string of len bytes (len < 0: absent). */
static bool read_string(bool (*read_full)(int, void *, size_t), int fd, int64_t len, char **out) {
  *out = NULL;
  if (len < 0)
    return true;
  if ((uint64_t)len >= SIZE_MAX || !(*out = malloc((size_t)len + 1)))
    return false;
  (*out)[len] = '\0';
  return read_full(fd, *out, (size_t)len);
}

bool mc_wire_get_attrs(const mc_wire_request *w, bool (*read_full)(int fd, void *buf, size_t len),
                       int fd, char *strings[MC_ATTR_COUNT], mc_attrs *attrs) {
  *attrs = w->attrs;
  for (int i = 0; i < MC_ATTR_COUNT; i++) {
    strings[i] = NULL;
    if (mc_attr_kind_of((mc_attr)i) != MC_ATTR_KIND_STRING)
      continue;
    if (!read_string(read_full, fd, w->string_len[i], &strings[i]))
      return false;
    mc_attrs_set_string(attrs, (mc_attr)i, strings[i]);
  }
  return true;
}
