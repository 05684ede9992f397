'use strict';
// StridedSlice-1 as a composite of ONNX Slice, Squeeze and Unsqueeze, for
// the ONNX Runtime adapters (ONNX has no StridedSlice): the entries walked as
// spec/strided_slice_1.md's SS-S2 walks them. An ordinary entry is a Slice
// of its data axis; a shrink entry b is a Slice b..b+1 step 1 and a Squeeze
// of that axis (out of range, the Slice is empty and Squeeze refuses it); a
// new axis is an Unsqueeze at its output position; the ellipsis and the
// axes after the entries are left whole. What the walk itself would reject
// (several ellipses, more indexing entries than axes, lengths that differ,
// mask elements other than 0 and 1, a zero stride the Slice never reads)
// has no exact composite: unsupported.

const { INT64_MAX, Unsupported } = require('./protocol.js');

const INT64_MIN = -(2n ** 63n);
const MASK_NAMES = ['begin_mask', 'end_mask', 'new_axis_mask', 'shrink_axis_mask', 'ellipsis_mask'];

// A mask attribute as one bit per entry (`count` of them; a short list is
// padded with zeros, elements past the entries are ignored, as in SS).
function entryBits(list, name, count) {
  if (list === undefined) return new Array(count).fill(false);
  if (!Array.isArray(list)) throw new Error(`${name} is not a list`);
  for (const v of list)
    if (v !== 0 && v !== 1) throw new Unsupported(`${name}: element ${v} is no bit; ONNX has no masks`);
  return Array.from({ length: count }, (_, i) => list[i] === 1);
}

// Slice's [start, end, step] for an ordinary entry: a masked begin is the
// first element in the direction of reading, a masked end past the last
// (0, INT64_MAX or INT64_MIN by the stride's sign: ONNX Slice clamps them to
// exactly those).
function ordinaryRange(begin, end, stride, beginMasked, endMasked) {
  const start = beginMasked ? (stride > 0n ? 0n : INT64_MAX) : begin;
  const stop = endMasked ? (stride > 0n ? INT64_MAX : INT64_MIN) : end;
  return [start, stop, stride];
}

// Slice's [start, end, step] for a shrink entry at index b: b .. b+1, and
// -1 .. the end (an end of 0 would be the first element).
function shrinkRange(b) {
  return [b, b === -1n || b === INT64_MAX ? INT64_MAX : b + 1n, 1n];
}

// The kind of each entry (SS-S1: ellipsis, then new axis, then shrink).
function entryKinds(bit, count) {
  return Array.from({ length: count }, (_, i) => (bit.ellipsis_mask[i] ? 'ellipsis'
    : bit.new_axis_mask[i] ? 'new' : bit.shrink_axis_mask[i] ? 'shrink' : 'ordinary'));
}

// The composite of begin, end, stride (BigInt arrays; stride null when
// absent), the request's attributes and the data's rank: Slice's axes,
// starts, ends and steps, the axes to Squeeze (of the Slice's output), the
// positions to Unsqueeze (of the final output) and the output rank.
function stridedSlicePlan({ begin, end, stride }, attributes, rank) {
  const count = begin.length;
  const steps = stride === null ? begin.map(() => 1n) : stride;
  if (end.length !== count || steps.length !== count)
    throw new Unsupported(`begin, end and stride of lengths ${count}, ${end.length}, ${steps.length} have no composite`);
  const bit = Object.fromEntries(MASK_NAMES.map((name) => [name, entryBits(attributes[name], name, count)]));
  const kinds = entryKinds(bit, count);
  const indexed = kinds.filter((k) => k === 'shrink' || k === 'ordinary').length;
  if (kinds.filter((k) => k === 'ellipsis').length > 1)
    throw new Unsupported('several ellipsis entries have no composite');
  if (indexed > rank) throw new Unsupported(`${indexed} indexing entries on rank ${rank} have no composite`);
  if (steps.some((s, i) => s === 0n && kinds[i] !== 'ordinary'))
    throw new Unsupported('a zero stride the composite never reads has no form in it');
  const plan = { axes: [], starts: [], ends: [], steps: [], squeeze: [], unsqueeze: [] };
  let k = 0;
  let out = 0;
  kinds.forEach((kind, i) => {
    if (kind === 'ellipsis') {
      k += rank - indexed;
      out += rank - indexed;
    } else if (kind === 'new') {
      plan.unsqueeze.push(BigInt(out++));
    } else {
      if (kind === 'shrink') plan.squeeze.push(BigInt(k));
      else out++;
      const [start, stop, step] = kind === 'shrink' ? shrinkRange(begin[i])
        : ordinaryRange(begin[i], end[i], steps[i], bit.begin_mask[i], bit.end_mask[i]);
      plan.axes.push(BigInt(k++));
      plan.starts.push(start);
      plan.ends.push(stop);
      plan.steps.push(step);
    }
  });
  plan.outputRank = out + rank - k;
  return plan;
}

module.exports = { stridedSlicePlan };
