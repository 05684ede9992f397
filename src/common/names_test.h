/* A test hook of the attribute table (names.c): no operation has two
   integer attributes yet, so tests give one such a list to see every
   encoder and decoder carry them apart. Never called outside tests. */
#ifndef MOVCONF_COMMON_NAMES_TEST_H
#define MOVCONF_COMMON_NAMES_TEST_H

#include "movconf/ops.h"

/* op's attributes become attrs[0..count-1] (referenced, not copied);
   count < 0 gives it back the table's list. */
void mc_test_set_op_attrs(mc_op op, const mc_attr *attrs, int count);

#endif
