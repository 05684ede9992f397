/* A plugin request's attribute as movconf holds it (mc_attrs), by its
   name: shared by the example plugin (plugin_movconf.c) and the runner's
   test mock (tests/plugin_mock.c), which both hand requests to movconf's
   own code. */
#ifndef MOVCONF_EXAMPLES_ATTR_VIEW_H
#define MOVCONF_EXAMPLES_ATTR_VIEW_H

#include "movconf/ops.h"
#include "movconf/plugin.h"

/* Sets attribute a of a request of op in attrs; an attribute the operation
   does not have is left out (movconf sends none). */
static inline void mc_view_plugin_attr(const movconf_plugin_attr *a, mc_op op, mc_attrs *attrs) {
  int id = mc_op_attr_from_name(op, a->name);
  if (id < 0)
    return;
  if (a->kind == MOVCONF_PLUGIN_ATTR_INT) {
    mc_attrs_set_int(attrs, (mc_attr)id, a->value.i);
  } else if (a->kind == MOVCONF_PLUGIN_ATTR_STRING) {
    mc_attrs_set_string(attrs, (mc_attr)id, a->value.s);
  } else if (a->kind == MOVCONF_PLUGIN_ATTR_INTS) {
    mc_int_list *l = mc_attrs_list_slot(attrs, (mc_attr)id);
    l->count = a->value.ints.count;
    for (int i = 0; i < l->count && i < MC_MAX_ATTR_LEN; i++)
      l->v[i] = a->value.ints.values[i];
  }
}

#endif
