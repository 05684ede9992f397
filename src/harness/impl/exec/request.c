/* A request to a process adapter, streamed as one JSON line: tensors in
   base64 or as offsets in the request's shared memory file. */
#include "harness/impl/exec/adapter.h"

#include <inttypes.h>
#include <stdio.h>

#include "cases/json.h"
#include "cases/payload.h"
#include "common/text.h"
#include "movconf/tensor.h"

/* The request streamed through the one JSON writer (cases/json.h): the
   text goes to the adapter in chunks, never whole into memory. */
typedef struct request_sink {
  mc_adapter *a;
  double deadline;
  io_status status;
} request_sink;

static bool send_chunk(void *ctx, const char *data, size_t n) {
  request_sink *s = ctx;
  s->status = mc_adapter_write_all(s->a, data, n, s->deadline);
  return s->status == IO_OK;
}

/* A tensor of the request: its bytes in base64, or the offset of its bytes
   in the request's shared memory file. */
static void put_tensor(mc_text *t, const mc_tensor *x, const mc_shm_region *region, int input) {
  mc_text_printf(t, "{\"type\":");
  mc_json_write_string(t, mc_type_name(x->type));
  mc_text_printf(t, ",\"shape\":");
  mc_json_write_shape(t, MC_JSON_PROTOCOL, x->rank, x->shape);
  if (region->fd >= 0) {
    mc_text_printf(t, ",\"offset\":%zu}", region->input_offset[input]);
    return;
  }
  mc_text_printf(t, ",\"base64\":\"");
  mc_base64_write(t, x->data, x->nbytes);
  mc_text_printf(t, "\"}");
}

static void put_region(mc_text *t, const mc_shm_region *region) {
  mc_text_printf(t, ",\"shared_memory\":{\"path\":");
  mc_json_write_string(t, region->path);
  mc_text_printf(t, ",\"size\":%zu,\"output_offset\":%zu,\"output_bytes\":%zu}", region->size,
                 region->output_offset, region->output_room);
}

io_status mc_adapter_send_request(mc_adapter *a, const mc_request *req, uint64_t id,
                                  size_t max_output_bytes, double deadline) {
  request_sink sink = {a, deadline, IO_OK};
  mc_text t = {.sink = send_chunk, .sink_ctx = &sink};
  mc_text_printf(&t, "{\"id\":%" PRIu64 ",\"op\":", id);
  mc_json_write_string(&t, mc_op_name(req->op));
  mc_text_printf(&t, ",\"attributes\":");
  mc_json_write_attrs(&t, MC_JSON_PROTOCOL, req);
  mc_text_printf(&t, ",\"inputs\":{");
  for (int i = 0; i < req->n_inputs; i++) {
    mc_text_printf(&t, i ? "," : "");
    mc_json_write_string(&t, mc_op_input_name(req->op, i));
    mc_text_printf(&t, ":");
    put_tensor(&t, req->inputs[i], &a->region, i);
  }
  mc_text_printf(&t, "},\"max_output_bytes\":%zu", max_output_bytes);
  if (a->region.fd >= 0)
    put_region(&t, &a->region);
  if (a->timing)
    mc_text_printf(&t, ",\"timing\":{\"runs\":%d,\"min_run_seconds\":%.6f}", a->timing->runs,
                   a->timing->min_run_seconds);
  mc_text_printf(&t, "}\n");
  bool sent = mc_text_flush(&t);
  mc_text_free(&t);
  return sent ? IO_OK : sink.status != IO_OK ? sink.status : IO_FAILED;
}
