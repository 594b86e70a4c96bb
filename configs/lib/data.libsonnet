// The readers of a config: `reader` reads every split, except that TRAIN_FRACTION (in (0, 1]) and
// TRAIN_LIMIT (a number of instances; empty: no limit) keep a seeded random part of the training
// data: for runs sized to a machine, and the paper's sample-efficiency curves (§5.4, Figure 1).
local fraction = std.parseJson(std.extVar('TRAIN_FRACTION'));
local limit = std.extVar('TRAIN_LIMIT');

{
  readers(reader):: if fraction == 1 && limit == '' then { dataset_reader: reader } else {
    dataset_reader: {
      type: 'training_subset',
      reader: reader,
      fraction: fraction,
      [if limit != '' then 'limit']: std.parseInt(limit),
    },
    validation_dataset_reader: reader,
  },
}
