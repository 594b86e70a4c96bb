// The readers of a config: `reader` reads the training data, `validation_reader` (default: the same)
// dev and test, except that
// - TRAIN_FRACTION (in (0, 1]) and TRAIN_LIMIT (a number of instances; empty: no limit) keep a
//   seeded random part of the training data: for runs sized to a machine, and the paper's
//   sample-efficiency curves (§5.4, Figure 1);
// - EVAL_LIMIT (a number of instances; empty: all) keeps a seeded random part of dev and of test,
//   the same part in every run: for runs sized to a machine only (the logs and the report say so).
local fraction = std.parseJson(std.extVar('TRAIN_FRACTION'));
local limit = std.extVar('TRAIN_LIMIT');
local eval_limit = std.extVar('EVAL_LIMIT');

{
  // The splits the vocabulary is built from. Without pretrained vectors, the training split's words:
  // a word seen only in dev or test would keep an untrained vector, so it is left to @@UNKNOWN@@.
  // With pretrained vectors, every split's: a dev or test word the vectors know gets its vector (one
  // they do not know keeps a random vector, untrained as @@UNKNOWN@@'s would be).
  vocabulary_splits(word_vectors, splits=['train', 'validation', 'test']):: if word_vectors == '' then ['train'] else splits,

  // A task's pretrained word vectors, `<TASK>_WORD_VECTORS`: `path` ('' when unset), and, read from
  // the file when the suite loads (tasks/environment.py), their size and whether their words are
  // lowercased, else the task's own choices.
  word_vectors(task):: {
    local variable = task + '_WORD_VECTORS',
    path: std.extVar(variable),
    dim(default):: if self.path == '' then default else std.parseInt(std.extVar(variable + '_DIM')),
    lowercase(default):: if self.path == '' then default else std.extVar(variable + '_LOWERCASE') == 'true',
  },

  readers(reader, validation_reader=reader):: {
    dataset_reader: if fraction == 1 && limit == '' then reader else {
      type: 'training_subset',
      reader: reader,
      fraction: fraction,
      [if limit != '' then 'limit']: std.parseInt(limit),
    },
    validation_dataset_reader: if eval_limit == '' then validation_reader else {
      type: 'evaluation_subset',
      reader: validation_reader,
      limit: std.parseInt(eval_limit),
    },
  },
}
