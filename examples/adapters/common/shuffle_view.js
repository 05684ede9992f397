'use strict';
// ShuffleChannels-1 as a composite of reshape and transpose, for the
// libraries that have no channel shuffle (the ONNX Runtime and TensorFlow.js
// adapters): the data viewed as [outer, group, C / group, inner], axes 1 and 2
// transposed, viewed back as the input's shape (spec/shuffle_channels_1.md).

const { Unsupported } = require('./protocol.js');

const product = (dims) => dims.reduce((p, d) => p * d, 1);

// The first view of a request's data as JavaScript numbers: [outer, group,
// C / group, inner]. The libraries have no axis to check, so an axis outside
// [-rank, rank - 1] cannot be expressed (unsupported), nor can a value above
// 2^53. group goes into the view as it is; where it does not divide C (or is
// 0 or negative) the third entry is -1, left for the library's reshape to
// infer, which then rejects the view.
function shuffleView(shape, attributes) {
  const rank = shape.length;
  const axis = attributes.axis === undefined ? 1 : attributes.axis;
  const group = attributes.group === undefined ? 1 : attributes.group;
  if (typeof axis !== 'number' || axis < -rank || axis >= rank)
    throw new Unsupported(`axis ${axis} of rank ${rank}: the composite has no axis the ` +
                          'library could check');
  if (typeof group !== 'number')
    throw new Unsupported(`group ${group} is not exact as a JavaScript number`);
  const at = axis < 0 ? axis + rank : axis;
  const outer = product(shape.slice(0, at));
  const inner = product(shape.slice(at + 1));
  if (!Number.isSafeInteger(outer) || !Number.isSafeInteger(inner))
    throw new Unsupported(`shape [${shape}]: the view's sizes are not exact as JavaScript numbers`);
  const channels = shape[at];
  const perGroup = group >= 1 && channels % group === 0 ? channels / group : -1;
  return [outer, group, perGroup, inner];
}

module.exports = { shuffleView };
