/* Inside movconf gen: the descriptor of an operation (its parameters and
   its builder, in src/gen/ops/<slug>.c), the table of them (gen_ops.c) and
   the helpers the builders share (gen_build.c, and the families
   ops/batch_space_common.c and ops/space_depth_common.c). Not public: src/gen/ only. */
#ifndef MOVCONF_GEN_BUILD_H
#define MOVCONF_GEN_BUILD_H

#include "cases/json.h"
#include "cases/payload.h"
#include "gen/gen.h"

/* Builds the request of one operation from p into c (op, attrs none and
   input pointers already set, n_inputs the op's full count: a builder
   lowers it to leave out trailing optional inputs, such as Slice-8's
   axes); on failure writes why to err. */
#define MC_GEN_MAX_SIDE 64 /* values of one generated side input */

typedef bool mc_gen_build_fn(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err,
                             size_t n);

typedef struct mc_gen_op_desc {
  const char *const *param_names; /* NULL-terminated */
  mc_gen_build_fn *build;
} mc_gen_op_desc;

/* The descriptor of op, NULL for no operation. */
const mc_gen_op_desc *mc_gen_op_of(mc_op op);

/* Writes the message to err; returns false. */
bool mc_gen_fail(char *err, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Parameter values (generators/README.md): NULL when absent. */
const cJSON *mc_gen_param(const mc_gen_params *p, const char *name);
/* An integer: a JSON number within 2^53, or a decimal string within 64 bits. */
bool mc_gen_read_int(const cJSON *v, const char *what, mc_int *out, char *err, size_t n);
bool mc_gen_read_i64(const cJSON *v, const char *what, int64_t *out, char *err, size_t n);
bool mc_gen_get_i64(const mc_gen_params *p, const char *name, int64_t def, int64_t *out, char *err,
                    size_t n);
bool mc_gen_read_list(const cJSON *v, const char *what, mc_int *out, int max, int *count, char *err,
                      size_t n);
bool mc_gen_read_i64_list(const cJSON *v, const char *what, int64_t *out, int max, int *count,
                          char *err, size_t n);

/* The data input (type, fill) of the given shape, and side inputs. */
bool mc_gen_make_data(mc_gen_case *c, const mc_gen_params *p, int rank, const int64_t *shape,
                      uint64_t case_seed, char *err, size_t n);
/* Raw style: the data of shape raw (the data_shape parameter). */
bool mc_gen_raw_data(mc_gen_case *c, const mc_gen_params *p, const cJSON *raw, uint64_t case_seed,
                     char *err, size_t n);
/* Raw style only: the data_shape parameter is required. */
bool mc_gen_required_raw_data(mc_gen_case *c, const mc_gen_params *p, uint64_t case_seed, char *err,
                              size_t n);
bool mc_gen_side_types(const mc_gen_params *p, mc_type *out, int count, char *err, size_t n);
bool mc_gen_side_tensor(mc_tensor *t, mc_type type, int rank, const int64_t *shape,
                        const mc_int *values, int count, const char *name, char *err, size_t n);
bool mc_gen_side_vector(mc_tensor *t, mc_type type, const int64_t *values, int count,
                        const char *name, char *err, size_t n);

/* An integer-list attribute: absent when the parameter is absent or null. */
bool mc_gen_list_attr(mc_gen_case *c, const mc_gen_params *p, const char *name, mc_attr id,
                      char *err, size_t n);
/* An integer attribute: absent when the parameter is absent or null. */
bool mc_gen_int_attr(mc_gen_case *c, const mc_gen_params *p, const char *name, mc_attr id,
                     char *err, size_t n);

/* How the rules of BatchToSpace-2 and SpaceToBatch-2 differ. */
typedef struct mc_gen_batch_rules {
  const char *names[3];    /* the side inputs */
  const char *margins;     /* the policy parameter: crops or pads */
  const char *batch_param; /* BatchToSpace: sub_batch (times the blocks); SpaceToBatch: batch */
  bool (*margin)(const char *policy, int64_t d, int64_t b, uint64_t random, int64_t *begin,
                 int64_t *end, char *err, size_t n);
  uint64_t salt;     /* of the random margins' seeds */
  bool times_blocks; /* batch = batch_param * prod(block) */
} mc_gen_batch_rules;

/* By rules, or raw when data_shape is given (ops/batch_space_common.c). */
bool mc_gen_batch_build(mc_gen_case *c, const mc_gen_params *p, const mc_gen_batch_rules *r,
                        uint64_t case_seed, char *err, size_t n);

/* SpaceToDepth-1 and DepthToSpace-1 (ops/space_depth_common.c). */
bool mc_gen_depth_attrs(mc_gen_case *c, const mc_gen_params *p, int64_t *bs, char *err, size_t n);
bool mc_gen_depth_data(mc_gen_case *c, const mc_gen_params *p, const char *spatial_name,
                       int64_t spatial_scale, int64_t bs, bool scale_channels, uint64_t case_seed,
                       char *err, size_t n);

#endif
