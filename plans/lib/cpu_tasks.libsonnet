// The cpu plan's tasks, each with the data, word vectors and schedule of its Table 1 runs: one
// definition for plans/cpu.jsonnet and the plans that set arms beside its runs
// (plans/elmo_losses.jsonnet), so that a run both describe is the same run, trained once.
// Each task is an experiment without `configs` and `seeds`; `prepare` lists the steps that make the
// data files the tasks read from the shared data.
local shared = std.extVar('SHARED_DATA_DIR');

{
  // The training and held-out parts of files with no training split here, and LitBank's fold 0.
  snli_split:: {
    command: ['python', 'scripts/split_for_selection.py', shared + '/snli/snli_1.0_dev.jsonl', 'runs/data/snli_split'],
    outputs: ['runs/data/snli_split/train_part.jsonl', 'runs/data/snli_split/heldout_part.jsonl'],
  },
  up_split:: {
    command: ['python', 'scripts/split_for_selection.py', shared + '/srl_up_ewt/en_ewt-up-dev.conllu', 'runs/data/up_split'],
    outputs: ['runs/data/up_split/train_part.conllu', 'runs/data/up_split/heldout_part.conllu'],
  },
  litbank_fold0:: {
    command: ['python', 'scripts/litbank_coref_split.py', '--litbank', shared + '/litbank', '--split', '0', '--output-dir', 'runs/data/litbank_fold0'],
    outputs: ['runs/data/litbank_fold0/' + part + '.conll' for part in ['train', 'dev', 'test']],
  },

  glove:: shared + '/glove/glove.6B.50d.txt.gz',  // GloVe 6B 50-d, every task's word vectors here
  ner:: import 'ner_conll2003.libsonnet',  // all of CoNLL-2003, 40 epochs
  // SST-5 on all of its training sentences (the paper: every phrase of 4 tokens or more, 93,570 of them
  // with six times the sentences' tokens, about ten minutes an epoch here), batches of 32 (the config: 100),
  // so that an epoch makes 267 updates. 25 epochs with the config's patience of 5: with 15, patience ended
  // the three baselines by their 12th epoch, and the three ELMo runs were best at their 11th, 13th and 14th.
  sst:: {
    task: 'sst',
    overrides: { 'trainer.num_epochs': 25, 'data_loader.batch_sampler.batch_size': 32 },
    data: "SST-5: all 8,544 training sentences, whole sentences only (SST_TRAIN_ON=sentences; the paper: every phrase of 4 tokens or more), all of dev and test",
    environment: {
      SST_TRAIN_DATA: shared + '/sst/train.txt',
      SST_DEV_DATA: shared + '/sst/dev.txt',
      SST_TEST_DATA: shared + '/sst/test.txt',
      SST_WORD_VECTORS: $.glove,
    },
  },
  // The runs read whole sentences; the biLM's fine-tuning text (Table 7) is those sentences either way.
  sst_sentences:: $.sst { environment+: { SST_TRAIN_ON: 'sentences' } },

  // Figure 1's parts of SST-5 and SNLI train in epochs of 100 updates (batches of 32; the part is passed
  // over again within an epoch: data_loader.batches_per_epoch), validating on all of dev after each, at
  // most 20 of them (2,000 updates: Table 1's SST-5 runs were best after 1,300 to 3,200), and the
  // configs' patience (5 epochs, 500 updates) ends most. Counted in passes over the data, 1% of SST-5 (85
  // sentences, 3 batches) validated every 3 updates, and patience ended the first three baselines after
  // 18 to 27 updates (training loss 1.61 -> 1.55), at the majority class: not a trained model.
  epochs_of(updates, batch_size):: {
    'data_loader.batches_per_epoch': updates,
    // dev and test read whole: without this block AllenNLP builds their loaders from data_loader's, `updates` batches too
    validation_data_loader: { batch_sampler: { type: 'bucket', batch_size: batch_size } },
  },
  epochs_of_100_updates:: $.epochs_of(100, 32) { 'trainer.num_epochs': 20 },
  // SNLI's ELMo model without what the paper adds to it alone (50% dropout after the attention, ℓ2 1e-4 on
  // the weight matrices): λ on the mix is its only regulariser.
  snli_no_added_regularization:: {
    'model.attention_dropout': 0.0,
    'model.regularizer.regexes': [['scalar_parameters', { type: 'l2', alpha: 0.001 }]],
  },
  snli:: {
    task: 'snli',
    overrides: { 'trainer.num_epochs': 15 },
    data: 'SNLI 1.0 has no open training split here: the 6,889 pairs of 70% of its dev set (by premise) to train, the other 2,953 to select on, all of its test set to test',
    environment: {
      SNLI_TRAIN_DATA: $.snli_split.outputs[0],
      SNLI_DEV_DATA: $.snli_split.outputs[1],
      SNLI_TEST_DATA: shared + '/snli/snli_1.0_test.jsonl',
      SNLI_WORD_VECTORS: $.glove,
    },
  },
  // SQuAD: 10,000 of its 87,599 training questions (an epoch of all of them takes about 69 minutes here),
  // 2,000 of the dev questions to select on and to score (SQuAD's test set is not public). 12 epochs:
  // with 6, on 2026-11-26, both runs were still gaining about 4 F1 an epoch (dev F1 after epochs 1-6:
  // baseline 14.5 / 23.7 / 29.1 / 34.3 / 38.0 / 44.6; ELMo 15.5 / 19.9 / 24.2 / 27.9 after 4), so
  // Table 1 would have compared where each stopped, not what each learns; the runner extends them.
  squad:: {
    task: 'squad',
    train_limit: 10000,
    eval_limit: 2000,
    overrides: { 'trainer.num_epochs': 12 },
    data: 'SQuAD 1.1: 10,000 questions of the reconstructed train set, 2,000 of the official dev set (seeded samples)',
    environment: {
      SQUAD_TRAIN_DATA: shared + '/squad/train-v1.1.reconstructed.json',
      SQUAD_DEV_DATA: shared + '/squad/dev-v1.1.json',
      SQUAD_WORD_VECTORS: $.glove,
    },
  },
  // SRL: He et al.'s tagger with 4 interleaved highway LSTM layers of 300 instead of 8 (half the
  // arithmetic: docs/throughput.md), 60 epochs (the config: 500) with patience 10: with 30, every run of
  // 2026-11-26 and this machine's first baseline (held-out F1 45.07 at epoch 30 of 30, training loss still
  // falling, 0.54 -> 0.46 in its last epoch) was best at or near its last epoch, still learning.
  srl:: {
    task: 'srl',
    overrides: { 'trainer.num_epochs': 60, 'trainer.patience': 10, 'model.encoder.num_layers': 4 },
    data: 'Universal PropBank 1.0 (English Web Treebank) for OntoNotes: the 3,996 predicate frames of 80% of its dev split (by sentence) to train, the other 981 to select on, all 4,799 of its test split to test',
    environment: {
      SRL_DATA_FORMAT: 'universal_propbank',
      SRL_TRAIN_DATA: $.up_split.outputs[0],
      SRL_DEV_DATA: $.up_split.outputs[1],
      SRL_TEST_DATA: shared + '/srl_up_ewt/en_ewt-up-test.conllu',
      SRL_WORD_VECTORS: $.glove,
    },
  },
  // Figure 1's parts of SRL train in epochs of 50 updates, as many as an epoch of all 3,996 frames makes
  // (batches of 80), so that Table 1's 60 epochs and patience of 10 count the same updates at every
  // fraction (1% is 40 frames, one batch: passed over 50 times an epoch).
  srl_epochs_of_50_updates:: $.epochs_of(50, 80),
  // LitBank's documents come as one file each, with ten train/dev/test folds of ids: fold 0 is written
  // as three CoNLL-2012 files first (litbank_fold0, docs/coref.md). The sizes below are docs/coref.md's
  // LitBank runs': with the config's own (50-sentence training windows, whole documents, 250
  // antecedents) an epoch took about 8 minutes here (this plan's first coreference runs, 7a6e742).
  // 40 epochs with the config's patience of 10: with 20, the five runs of 2026-11-27 that reached the 20th
  // were best at their 15th to 20th, dev F1 still creeping up (about 40 -> 42 over the last ten).
  coref:: {
    task: 'coref',
    overrides: {
      'trainer.num_epochs': 40,
      'dataset_reader.max_training_sentences': 8,
      'validation_dataset_reader.max_sentences': 20,
      'model.max_antecedents': 30,
    },
    data: 'LitBank coreference (CC BY 4.0), fold 0 (80 / 10 / 10 documents) for OntoNotes',
    environment: {
      COREF_TRAIN_DATA: $.litbank_fold0.outputs[0],
      COREF_DEV_DATA: $.litbank_fold0.outputs[1],
      COREF_TEST_DATA: $.litbank_fold0.outputs[2],
      COREF_WORD_VECTORS: $.glove,
    },
  },

  prepare:: [$.snli_split, $.up_split, $.litbank_fold0],
}
