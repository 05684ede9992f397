/* The lists of a movconf/op_list.h row, unwrapped for a C table: names.c's
   operation table and the unit test that reads the rows back through it. */
#ifndef MOVCONF_COMMON_OP_ROWS_H
#define MOVCONF_COMMON_OP_ROWS_H

#include "movconf/ops.h"

#define MC_ROW_LIST(...) __VA_ARGS__
/* The number of input names of a row's (inputs), never empty. */
#define MC_ROW_INPUT_COUNT(inputs)                                                                 \
  ((int)(sizeof((const char *[]){MC_ROW_LIST inputs}) / sizeof(const char *)))
/* A row's (attrs) may be (), and C11 has no empty initializer: the array
   starts with a placeholder, MC_ATTR_COUNT, which the count leaves out. */
#define MC_ROW_ATTRS(attrs) ((const mc_attr[]){MC_ATTR_COUNT, MC_ROW_LIST attrs})
#define MC_ROW_ATTR_COUNT(attrs) ((int)(sizeof MC_ROW_ATTRS(attrs) / sizeof(mc_attr)) - 1)

#endif
