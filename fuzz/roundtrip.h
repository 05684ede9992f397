/* The round-trip properties of the fuzz_roundtrip target, shared with
   fuzz_to_case so that a finding becomes the case that shows it:
   - SpaceToBatch then BatchToSpace with crops = pads is the identity;
   - BatchToSpace with zero crops then SpaceToBatch with zero pads too;
   - SpaceToDepth then DepthToSpace in the same mode, and the reverse;
   - ShuffleChannels with group, then with C / group on the same axis;
   - block size 1 (all-ones block_shape with zero crops/pads, block_size 1,
     patches of 1x1 with strides 1) is the identity. */
#ifndef MOVCONF_FUZZ_ROUNDTRIP_H
#define MOVCONF_FUZZ_ROUNDTRIP_H

#include "movconf/ops.h"

/* True when req (already accepted by an implementation) must return its
   data unchanged. */
bool mc_roundtrip_is_identity(const mc_request *req);

/* When req (already accepted) has an inverse, fills *inv: the inverse
   operation applied to forward, its output, with req's side inputs and
   attributes (pointers into req). False when req has none. */
bool mc_roundtrip_inverse(const mc_request *req, const mc_tensor *forward, mc_request *inv);

#endif
