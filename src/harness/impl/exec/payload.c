/* Under --payload auto, which requests go through a shared memory file
   and which as base64. */
#include "harness/impl/exec/adapter.h"

#include <stdint.h>

#include "movconf/oracle.h"
#include "movconf/tensor.h"

/* Under --payload auto, requests whose tensors come to less than this go
   as base64: for them a file costs more (measured with movconf fuzz
   --no-large through the numpy adapter) than base64 does. */
#define SHM_MIN_BYTES ((size_t)1 << 16)

size_t mc_adapter_expected_output_bytes(const mc_request *req, size_t max_output_bytes) {
  mc_type type;
  int rank;
  int64_t shape[MC_TENSOR_MAX_RANK], count;
  mc_error err;
  size_t out;
  if (mc_oracle_output_shape(req, max_output_bytes, &type, &rank, shape, &err) == MC_OK &&
      mc_shape_elements(rank, shape, &count) && mc_storage_bytes(type, count, &out))
    return out;
  return SIZE_MAX;
}

/* The request's input bytes and the bytes of the output the specification
   gives it (none when the input is invalid), saturating. */
static size_t request_bytes(const mc_request *req, size_t max_output_bytes) {
  size_t total = 0, out = mc_adapter_expected_output_bytes(req, max_output_bytes);
  for (int i = 0; i < req->n_inputs; i++)
    total = req->inputs[i]->nbytes > SIZE_MAX - total ? SIZE_MAX : total + req->inputs[i]->nbytes;
  if (out != SIZE_MAX)
    total = out > SIZE_MAX - total ? SIZE_MAX : total + out;
  return total;
}

bool mc_adapter_wants_shm(const mc_adapter *a, const mc_request *req, size_t max_output_bytes) {
  if (!a->offers_shm || a->payload == MC_ADAPTER_PAYLOAD_BASE64)
    return false;
  return a->payload == MC_ADAPTER_PAYLOAD_SHARED_MEMORY ||
         request_bytes(req, max_output_bytes) >= SHM_MIN_BYTES;
}
