/* A plugin with a planted fault, for the tests that prove the suite and
   `movconf fuzz` find real-looking bugs. It wraps movconf's own kernels as
   examples/plugin_movconf does (loading that plugin, whose path is compiled
   in) and damages the output afterwards, as the environment variable
   MOVCONF_PLANTED says (one fault, or several joined by '+', as in
   "b2s-crop-off-by-one+split4:65535"):
     b2s-tail-shift   BatchToSpace, outputs above 4096 elements: the last
                      quarter shifted by one element, as a thread split with
                      an off-by-one start would
     d2s-swap         DepthToSpace, every element type: the first two output
                      elements exchanged (a fault that does not depend on the
                      type, so a fuzzer must report it once)
     s2d-tail         SpaceToDepth, data channels a multiple of 16 and outputs
                      above 2^16 elements whose innermost extent is not a
                      multiple of 16: the last element (the tail of the last
                      vector row) repeats the one before it
     split4:T         every operation, outputs above T output elements: the
                      rows (all but the innermost extent) split over 4
                      threads as rows/4 each, so the rows/4*4.. leftover rows
                      are never written (they keep movconf's fill)
     tail:T           every operation, outputs above T output elements: the
                      output copied in 32-byte vectors and the tail after the
                      last whole vector never written
     split4:T:B, tail:T:B  the same, only in element types of B bits (a
                      fault of one kernel, e.g. the byte-typed one)
     overread         every operation: the data input copied into a buffer of
                      its size, then one byte read past that buffer's end. It
                      passes every case (the byte is read, not used, and the
                      heap has it); built with -fsanitize=address
                      (plugin_planted_asan) and run with --sanitize address,
                      each case is a memory-error
     data-overread    every operation: the byte after the data input's last
                      one read where movconf put it (no copy): between its
                      end and the guard page the 64-byte alignment leaves
                      (a plain run cannot see it), or the guard page itself
     signed-overflow, divide-by-zero, memcpy-null
                      every operation: that undefined behaviour, which only
                      UBSan reports (built with -fsanitize=undefined too)
   Built with PLANTED_CXX (plugin_planted_cxx), every run() also throws and
   catches a C++ exception (tests/planted_throw.cpp).
   A BatchToSpace bug of another cause than split4's, for the test that
   movconf fuzz keeps distinct bugs distinct (fuzz_distinct.sh, which joins
   it with split4:65535):
     b2s-crop-off-by-one  rank-3 data whose crops_begin on the last axis is
                      not 0: every output row starts one element late (the
                      last element repeats), at any size
     sc-group3-copy   ShuffleChannels with a group of 3 or more: the data
                      copied unshuffled, as a kernel that only knows group 2
                      would (fuzz_planted.sh: found and shrunk)
     sl-reverse-swap  Slice with a negative step: the first two output
                      elements exchanged (fuzz_planted.sh: shrunk to rank
                      1, a step of -1, no axes)
     tr-reverse-swap  Transpose with the empty input_order (the axes
                      reversed): the first two output elements exchanged
                      (fuzz_planted.sh: one finding, whatever the rank)
     pad-reflect-begin-swap  Pad in reflect mode with a positive pads_begin
                      value: the first two output elements exchanged
                      (fuzz_planted.sh: shrunk to rank 1, one pad before)
     ss-end-mask-reverse-swap  StridedSlice with an ordinary entry (no
                      ellipsis, new-axis or shrink bit) read backwards to
                      its end_mask: the first two output elements exchanged
                      (fuzz_planted.sh: the masks follow the dropped axes)
     ga-batch-swap    Gather with batch_dims naming at least one batch
                      axis: the first output elements of the first two
                      batches exchanged (fuzz_planted.sh: the batch axes
                      shrink together)
   And for the tests that every finding reproduces (fuzz_distinct.sh):
     d2s-swap-after-first-call  d2s-swap from the process's second call on:
                      a fresh process running one case passes (flaky)
     cap-wrong-error  an output above the request's max_output_bytes is
                      rejected naming batch_not_divisible, not
                      output_too_large: a failure only under a small cap
   And for fuzz_findings.sh (issue 39: a finding is one bug):
     b2s-narrow-sides BatchToSpace rejects valid requests whose side inputs
                      are narrower than 64 bits
     b2s-mixed-sides  BatchToSpace rejects valid requests whose side inputs
                      differ in type
     sl-negative-start  Slice with a start below -1: the first two output
                      elements exchanged
     only-sl          supports() declines every operation but Slice
     slow-large       every operation, outputs above 4096 elements: 2 s
                      more per call, as a slow implementation's
     last:T           every operation, outputs above T elements: the last
                      element never written (fuzz_findings.sh: one finding
                      whatever the rank)
     slow-kib:US      every operation: US microseconds per KiB the call
                      moves (data in, output out; one KiB at least), as a
                      Python adapter's cost grows with the bytes
   And for the second fill (issue 39, item 5; evidence_messages.sh):
     skip:K           every operation: output element K (flat) never
                      written, it keeps whatever the buffer held
     fill-bits:K      every operation: output element K written with the
                      bits of bytes 0xa5 (movconf's first fill), as a data
                      value of those bits moved there would be: a wrong
                      element that was written
   Unset or anything else: no fault. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "movconf/plugin.h"
#include "movconf/tensor.h"
#include "plugin_wrap.h"

static const movconf_plugin_v3 *inner;
static movconf_plugin_v3 table;

/* The next fault of a '+'-joined list after the one at p, or NULL. */
static const char *next_fault(const char *p) {
  const char *plus = strchr(p, '+');
  return plus ? plus + 1 : NULL;
}

/* Whether the faults of MOVCONF_PLANTED (faults, or NULL) include name. */
static bool planted(const char *faults, const char *name) {
  size_t len = strlen(name);
  for (const char *p = faults; p; p = next_fault(p))
    if (strncmp(p, name, len) == 0 && (p[len] == '\0' || p[len] == '+'))
      return true;
  return false;
}

static int64_t element_count(const movconf_plugin_output *o) {
  int64_t n = 1;
  for (int d = 0; d < o->rank; d++)
    n *= o->shape[d];
  return n;
}

static void shift_last_quarter(const movconf_plugin_output *o) {
  int64_t n = element_count(o);
  if (n <= 4096)
    return;
  for (int64_t i = n - 1; i > n - n / 4; i--)
    mc_copy_element(o->data, i, o->data, i - 1, (mc_type)o->type);
}

static void swap_first_two(const movconf_plugin_output *o) {
  if (element_count(o) < 2)
    return;
  uint64_t a = mc_load_bits(o->data, (mc_type)o->type, 0);
  uint64_t b = mc_load_bits(o->data, (mc_type)o->type, 1);
  mc_store_bits(o->data, (mc_type)o->type, 0, b);
  mc_store_bits(o->data, (mc_type)o->type, 1, a);
}

/* Output elements 0 and the first of index 1 on axis 0 exchanged. */
static void swap_first_of_batches(const movconf_plugin_output *o) {
  const int64_t n = element_count(o);
  if (n < 2 || o->rank < 1 || o->shape[0] < 2)
    return;
  const int64_t second = n / o->shape[0];
  uint64_t a = mc_load_bits(o->data, (mc_type)o->type, 0);
  mc_store_bits(o->data, (mc_type)o->type, 0, mc_load_bits(o->data, (mc_type)o->type, second));
  mc_store_bits(o->data, (mc_type)o->type, second, a);
}

static void repeat_vector_tail(const movconf_plugin_request_v3 *request,
                               const movconf_plugin_output *o) {
  const movconf_plugin_tensor *data = &request->inputs[0];
  int64_t n = element_count(o);
  if (n <= 65536 || data->rank < 3 || data->shape[1] % 16 != 0 || o->shape[o->rank - 1] % 16 == 0)
    return;
  mc_copy_element(o->data, n - 1, o->data, n - 2, (mc_type)o->type);
}

/* The first output element the size fault at p leaves unwritten (n:
   none), when it is "split4:T", "tail:T" or "last:T" and the output has more than T
   elements. */
static int64_t first_unwritten_by(const char *p, const movconf_plugin_output *o) {
  char kind[8];
  long long threshold;
  unsigned bits = 0;
  int64_t n = element_count(o);
  int fields = sscanf(p, "%7[a-z0-9]:%lld:%u", kind, &threshold, &bits);
  if (o->rank < 1 || fields < 2 || n <= threshold ||
      (fields == 3 && bits != mc_type_bits((mc_type)o->type)))
    return n;
  if (strcmp(kind, "split4") == 0) {
    int64_t row = o->shape[o->rank - 1], rows = row ? n / row : 0;
    return rows / 4 * 4 * row;
  }
  if (strcmp(kind, "last") == 0)
    return n - 1;
  if (strcmp(kind, "tail") == 0) {
    int64_t per_vector = 256 / (int64_t)mc_type_bits((mc_type)o->type);
    return n / per_vector * per_vector;
  }
  return n;
}

/* The first output element the size faults among faults leave unwritten. */
static int64_t first_unwritten(const char *faults, const movconf_plugin_output *o) {
  int64_t first = element_count(o);
  for (const char *p = faults; p; p = next_fault(p)) {
    int64_t from = first_unwritten_by(p, o);
    first = from < first ? from : first;
  }
  return first;
}

/* The bytes holding elements from..n-1 as movconf left them before run(),
   or NULL when there are none. *base is the index of the first element the
   copy holds. */
static uint8_t *save_unwritten(const movconf_plugin_output *o, int64_t from, int64_t *base) {
  int64_t n = element_count(o);
  unsigned bits = mc_type_bits((mc_type)o->type);
  if (from >= n)
    return NULL;
  size_t first_byte = (size_t)from * bits / 8;
  uint8_t *copy = malloc(o->nbytes - first_byte);
  if (copy)
    memcpy(copy, (uint8_t *)o->data + first_byte, o->nbytes - first_byte);
  *base = (int64_t)(first_byte * 8 / bits);
  return copy;
}

static void restore_unwritten(const movconf_plugin_output *o, int64_t from, const uint8_t *copy,
                              int64_t base) {
  for (int64_t i = from; copy && i < element_count(o); i++)
    mc_copy_element(o->data, i, copy, i - base, (mc_type)o->type);
}

/* K of the fault "name:K" among faults, or -1 when there is none. */
static int64_t planted_index(const char *faults, const char *name) {
  size_t len = strlen(name);
  long long k;
  for (const char *p = faults; p; p = next_fault(p))
    if (strncmp(p, name, len) == 0 && p[len] == ':' && sscanf(p + len + 1, "%lld", &k) == 1)
      return k;
  return -1;
}

/* slow-kib:US: US microseconds for each KiB the call moves. */
static void sleep_per_kib(int64_t us, const movconf_plugin_request_v3 *request,
                          const movconf_plugin_output *output) {
  if (us <= 0)
    return;
  uint64_t kib = (request->inputs[0].nbytes + output->nbytes) / 1024;
  uint64_t total = (uint64_t)us * (kib ? kib : 1);
  struct timespec t = {(time_t)(total / 1000000), (long)(total % 1000000) * 1000};
  while (nanosleep(&t, &t) != 0 && errno == EINTR)
    ; /* interrupted: the rest */
}

/* fill-bits:K: element k written as the byte 0xa5 spread over it. */
static void write_fill_bits(const movconf_plugin_output *o, int64_t k) {
  static const uint8_t fill[8] = {0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5};
  unsigned bits = mc_type_bits((mc_type)o->type);
  if (k >= 0 && k < element_count(o))
    mc_store_bits(o->data, (mc_type)o->type, k,
                  mc_load_bits(fill, (mc_type)o->type, bits < 8 ? k % (8 / bits) : 0));
}

/* Element index of side input t, nonzero. */
static int side_value_nonzero(const movconf_plugin_tensor *t, int64_t index) {
  return index < t->shape[0] && mc_load_bits(t->data, (mc_type)t->type, index) != 0;
}

static void crop_off_by_one(const movconf_plugin_request_v3 *request,
                            const movconf_plugin_output *o) {
  const movconf_plugin_tensor *crops_begin = &request->inputs[2];
  if (request->inputs[0].rank != 3 || o->rank != 3 || !side_value_nonzero(crops_begin, 2))
    return;
  int64_t width = o->shape[2], rows = element_count(o) / (width ? width : 1);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t j = 0; j + 1 < width; j++)
      mc_copy_element(o->data, r * width + j, o->data, r * width + j + 1, (mc_type)o->type);
}

/* Reads the byte just past a heap copy of the data input. */
static void read_past_copy(const movconf_plugin_request_v3 *request) {
  size_t n = (size_t)request->inputs[0].nbytes;
  uint8_t *copy = malloc(n ? n : 1);
  if (!copy)
    return;
  memcpy(copy, request->inputs[0].data, n);
  volatile uint8_t past = copy[n ? n : 1]; /* the planted one-byte over-read */
  (void)past;
  free(copy);
}

static void read_past_data(const movconf_plugin_request_v3 *request) {
  const volatile uint8_t *data = request->inputs[0].data;
  volatile uint8_t past = data[request->inputs[0].nbytes];
  (void)past;
}

/* Undefined behaviour that leaves the output alone. */
static void undefined_behaviour(const char *fault, const movconf_plugin_request_v3 *request) {
  volatile int big = INT_MAX, zero = 0, sink = 0;
  const void *volatile none = NULL;
  volatile size_t no_bytes = 0;
  if (planted(fault, "signed-overflow"))
    sink = big + request->inputs[0].rank;
  else if (planted(fault, "divide-by-zero"))
    sink = request->inputs[0].rank / zero; /* then SIGFPE, unless UBSan's report ends it */
  else if (planted(fault, "memcpy-null"))
    memcpy((void *)&sink, none, no_bytes);
  (void)sink;
}

/* sc-group3-copy: the output is the data, unshuffled, for group >= 3. */
static void copy_unshuffled(const movconf_plugin_request_v3 *request,
                            const movconf_plugin_output *output) {
  const movconf_plugin_attr *group =
      movconf_plugin_find_attr(request->n_attrs, request->attrs, "group");
  if (group && group->kind == MOVCONF_PLUGIN_ATTR_INT && group->value.i >= 3 &&
      request->inputs[0].nbytes == output->nbytes)
    memcpy(output->data, request->inputs[0].data, (size_t)output->nbytes);
}

/* Whether side input `index` of a request, 1-D, holds a value below 0
   (sign -1) or above 0 (sign 1). */
static bool side_value_signed(const movconf_plugin_request_v3 *request, int index, int sign) {
  const movconf_plugin_tensor *s = &request->inputs[index];
  mc_tensor side = {.type = (mc_type)s->type,
                    .rank = s->rank,
                    .data = (uint8_t *)s->data,
                    .nbytes = (size_t)s->nbytes};
  for (int a = 0; a < s->rank && a < MC_TENSOR_MAX_RANK; a++)
    side.shape[a] = s->shape[a];
  int64_t v;
  for (int64_t i = 0; s->rank == 1 && i < s->shape[0]; i++)
    if (mc_side_value(&side, i, &v) && (sign < 0 ? v < 0 : v > 0))
      return true;
  return false;
}

/* Whether a Slice request's step input holds a negative value. */
static bool negative_step(const movconf_plugin_request_v3 *request) {
  return side_value_signed(request, 3, -1);
}

/* pad-reflect-begin-swap: a reflect Pad request that pads before some axis. */
static bool reflect_padded_before(const movconf_plugin_request_v3 *request) {
  const movconf_plugin_attr *mode =
      movconf_plugin_find_attr(request->n_attrs, request->attrs, "pad_mode");
  return request->op == MOVCONF_PLUGIN_PAD && mode && mode->kind == MOVCONF_PLUGIN_ATTR_STRING &&
         strcmp(mode->value.s, "reflect") == 0 && side_value_signed(request, 1, 1);
}

/* Bit i of the integer-list attribute name of a request (0 past its end). */
static bool mask_bit(const movconf_plugin_request_v3 *request, const char *name, int64_t i) {
  const movconf_plugin_attr *m = movconf_plugin_find_attr(request->n_attrs, request->attrs, name);
  return m && m->kind == MOVCONF_PLUGIN_ATTR_INTS && i < m->value.ints.count &&
         m->value.ints.values[i] == 1;
}

/* Element i of 1-D side input `index` of a request, when it can be read. */
static bool side_at(const movconf_plugin_request_v3 *request, int index, int64_t i, int64_t *v) {
  const movconf_plugin_tensor *s = &request->inputs[index];
  mc_tensor side = {
      .type = (mc_type)s->type, .rank = 1, .data = (uint8_t *)s->data, .nbytes = (size_t)s->nbytes};
  side.shape[0] = s->rank == 1 ? s->shape[0] : 0;
  return i < side.shape[0] && mc_side_value(&side, i, v);
}

/* ss-end-mask-reverse-swap: a StridedSlice entry that is ordinary, has its
   end_mask bit and a negative stride. */
static bool end_masked_backwards(const movconf_plugin_request_v3 *request) {
  if (request->op != MOVCONF_PLUGIN_STRIDED_SLICE || request->n_inputs < 4)
    return false;
  const int64_t m = request->inputs[1].rank == 1 ? request->inputs[1].shape[0] : 0;
  for (int64_t i = 0; i < m; i++) {
    int64_t stride;
    if (!mask_bit(request, "ellipsis_mask", i) && !mask_bit(request, "new_axis_mask", i) &&
        !mask_bit(request, "shrink_axis_mask", i) && mask_bit(request, "end_mask", i) &&
        side_at(request, 3, i, &stride) && stride < 0)
      return true;
  }
  return false;
}

/* ga-batch-swap: a Gather whose batch_dims, normalized over the indices'
   rank, is at least 1 (the output's first axis is then the first batch
   axis). */
static bool gathers_by_batch(const movconf_plugin_request_v3 *request) {
  const movconf_plugin_attr *c =
      movconf_plugin_find_attr(request->n_attrs, request->attrs, "batch_dims");
  if (request->op != MOVCONF_PLUGIN_GATHER || !c || c->kind != MOVCONF_PLUGIN_ATTR_INT)
    return false;
  const int64_t q = request->inputs[1].rank;
  return c->value.i > 0 || (c->value.i < 0 && c->value.i + q > 0);
}

#ifdef PLANTED_CXX
void planted_throw_and_catch(void);
#endif

/* b2s-narrow-sides and b2s-mixed-sides: whether the request's side
   inputs have the rejected types. */
static bool rejected_sides(const char *fault, const movconf_plugin_request_v3 *request) {
  if (request->op != MOVCONF_PLUGIN_BATCH_TO_SPACE)
    return false;
  bool narrow = false, mixed = false;
  for (int i = 1; i < request->n_inputs; i++) {
    narrow |= mc_type_bits((mc_type)request->inputs[i].type) < 64;
    mixed |= request->inputs[i].type != request->inputs[1].type;
  }
  return (narrow && planted(fault, "b2s-narrow-sides")) ||
         (mixed && planted(fault, "b2s-mixed-sides"));
}

/* A Slice request whose start holds a value below -1 (sl-negative-start). */
static bool start_below_minus_one(const movconf_plugin_request_v3 *request) {
  const movconf_plugin_tensor *s = &request->inputs[1];
  mc_tensor start = {
      .type = (mc_type)s->type, .rank = 1, .data = (uint8_t *)s->data, .nbytes = (size_t)s->nbytes};
  start.shape[0] = s->rank == 1 ? s->shape[0] : 0;
  int64_t v;
  for (int64_t i = 0; i < start.shape[0]; i++)
    if (mc_side_value(&start, i, &v) && v < -1)
      return true;
  return false;
}

/* The inner plugin's verdict on the request, with the faults of
   cap-wrong-error and the b2s side types. */
static int output_shape(const movconf_plugin_request_v3 *request, movconf_plugin_output *output,
                        movconf_plugin_message *message) {
  const char *fault = getenv("MOVCONF_PLANTED");
  int status = inner->output_shape(request, output, message);
  if (status == MOVCONF_PLUGIN_OK && rejected_sides(fault, request)) {
    snprintf(message->error, sizeof message->error, "batch_not_divisible");
    return MOVCONF_PLUGIN_REJECTED;
  }
  if (status == MOVCONF_PLUGIN_REJECTED && planted(fault, "cap-wrong-error") &&
      strcmp(message->error, "output_too_large") == 0)
    snprintf(message->error, sizeof message->error, "batch_not_divisible");
  return status;
}

static int run(const movconf_plugin_request_v3 *request, const movconf_plugin_output *output,
               movconf_plugin_message *message) {
  const char *fault = getenv("MOVCONF_PLANTED");
  if (planted(fault, "overread"))
    read_past_copy(request);
  if (planted(fault, "data-overread"))
    read_past_data(request);
  if (fault)
    undefined_behaviour(fault, request);
#ifdef PLANTED_CXX
  planted_throw_and_catch();
#endif
  int64_t unwritten = fault ? first_unwritten(fault, output) : 0, base = 0;
  uint8_t *before = fault ? save_unwritten(output, unwritten, &base) : NULL;
  if (planted(fault, "slow-large") && element_count(output) > 4096)
    sleep(2);
  sleep_per_kib(planted_index(fault, "slow-kib"), request, output);
  int64_t skipped = planted_index(fault, "skip");
  bool skips = skipped >= 0 && skipped < element_count(output);
  uint64_t held = skips ? mc_load_bits(output->data, (mc_type)output->type, skipped) : 0;
  int status = inner->run(request, output, message);
  restore_unwritten(output, unwritten, before, base);
  free(before);
  if (skips)
    mc_store_bits(output->data, (mc_type)output->type, skipped, held);
  write_fill_bits(output, planted_index(fault, "fill-bits"));
  if (status != MOVCONF_PLUGIN_OK || !fault)
    return status;
  if (planted(fault, "b2s-tail-shift") && request->op == MOVCONF_PLUGIN_BATCH_TO_SPACE)
    shift_last_quarter(output);
  if (planted(fault, "d2s-swap") && request->op == MOVCONF_PLUGIN_DEPTH_TO_SPACE)
    swap_first_two(output);
  static int calls;
  if (planted(fault, "d2s-swap-after-first-call") && ++calls > 1 &&
      request->op == MOVCONF_PLUGIN_DEPTH_TO_SPACE)
    swap_first_two(output);
  if (planted(fault, "s2d-tail") && request->op == MOVCONF_PLUGIN_SPACE_TO_DEPTH)
    repeat_vector_tail(request, output);
  if (planted(fault, "b2s-crop-off-by-one") && request->op == MOVCONF_PLUGIN_BATCH_TO_SPACE)
    crop_off_by_one(request, output);
  if (planted(fault, "sc-group3-copy") && request->op == MOVCONF_PLUGIN_SHUFFLE_CHANNELS)
    copy_unshuffled(request, output);
  if (planted(fault, "tr-reverse-swap") && request->op == MOVCONF_PLUGIN_TRANSPOSE &&
      request->inputs[1].rank == 1 && request->inputs[1].shape[0] == 0)
    swap_first_two(output);
  if (planted(fault, "pad-reflect-begin-swap") && reflect_padded_before(request))
    swap_first_two(output);
  if (planted(fault, "sl-reverse-swap") && request->op == MOVCONF_PLUGIN_SLICE &&
      negative_step(request))
    swap_first_two(output);
  if (planted(fault, "sl-negative-start") && request->op == MOVCONF_PLUGIN_SLICE &&
      start_below_minus_one(request))
    swap_first_two(output);
  if (planted(fault, "ss-end-mask-reverse-swap") && end_masked_backwards(request))
    swap_first_two(output);
  if (planted(fault, "ga-batch-swap") && gathers_by_batch(request))
    swap_first_of_batches(output);
  return status;
}

/* only-sl: every operation but Slice declined. */
static int supports(const movconf_plugin_query_v3 *query) {
  if (planted(getenv("MOVCONF_PLANTED"), "only-sl") && query->op != MOVCONF_PLUGIN_SLICE)
    return 0;
  return inner->supports ? inner->supports(query) : 1;
}

/* Version 3, the wrapped plugin's. */
const void *movconf_plugin_entry(uint32_t abi_version) {
  if (!(inner = wrapped_plugin(abi_version)))
    return NULL;
  table = *inner;
  table.name = "movconf-optimized-with-a-planted-fault";
  table.run = run;
  table.output_shape = output_shape;
  table.supports = supports;
  return &table;
}
