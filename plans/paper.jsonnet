// The paper's experiments as published: Peters et al. 2018, "Deep contextualized word representations",
// Table 1 (all six tasks, baseline and ELMo), Tables 2 and 3 (the ablations, on SQuAD, SNLI and SRL) and
// Figure 1 (SNLI and SRL on 0.1%, 1%, 10% and 100% of their training sets). Full data, the published
// original biLM, each config's own schedule; five seeds where the paper reports a mean ± std over five
// runs (SNLI, NER, SST-5), one elsewhere, as the paper reports one.
//
// Not runnable on a 2-core CPU (days per task): for GPUs, e.g.
//   PAPER_DATA_DIR=/data/elmo PAPER_ELMO_DIR=/models/elmo DEVICES=0 allennlp reproduce plans/paper.jsonnet
// or on a Slurm cluster, each run a job of one GPU (the `slurm` block below; docs/cluster.md):
//   PAPER_DATA_DIR=/shared/elmo PAPER_ELMO_DIR=/shared/models allennlp reproduce plans/paper.jsonnet --executor slurm
// PAPER_DATA_DIR holds the data in the layout of docs/reproduce.md ("plans/paper"); PAPER_ELMO_DIR the
// original biLM's elmo_2x4096_512_2048cnn_2xhighway_{options.json,weights.hdf5}.
local data = std.extVar('PAPER_DATA_DIR');
local elmo = std.extVar('PAPER_ELMO_DIR');
local ablations = ['top_layer', 'all_layers_lambda_1', 'all_layers_lambda_0_001', 'input_only', 'input_and_output', 'output_only'];
local five_seeds = [1, 2, 3, 4, 5];

local squad = {
  task: 'squad',
  data: 'SQuAD 1.1 train and dev (the test set is hidden: dev is both the development and the reported set)',
  environment: {
    SQUAD_TRAIN_DATA: data + '/squad/train-v1.1.json',
    SQUAD_DEV_DATA: data + '/squad/dev-v1.1.json',
    SQUAD_WORD_VECTORS: data + '/glove/glove.840B.300d.txt',
  },
};
local snli = {
  task: 'snli',
  data: 'SNLI 1.0 train, dev and test',
  environment: {
    SNLI_TRAIN_DATA: data + '/snli/snli_1.0_train.jsonl',
    SNLI_DEV_DATA: data + '/snli/snli_1.0_dev.jsonl',
    SNLI_TEST_DATA: data + '/snli/snli_1.0_test.jsonl',
    SNLI_WORD_VECTORS: data + '/glove/glove.840B.300d.txt',
  },
};
local srl = {
  task: 'srl',
  data: 'OntoNotes 5.0, the CoNLL-2012 SRL splits',
  environment: {
    SRL_DATA_FORMAT: 'conll2012',
    SRL_TRAIN_DATA: data + '/conll-2012/v4/data/train',
    SRL_DEV_DATA: data + '/conll-2012/v4/data/development',
    SRL_TEST_DATA: data + '/conll-2012/v4/data/test',
    SRL_WORD_VECTORS: data + '/glove/glove.6B.100d.txt',
  },
};
local coref = {
  task: 'coref',
  data: 'OntoNotes 5.0, the CoNLL-2012 coreference splits',
  environment: {
    COREF_TRAIN_DATA: data + '/conll-2012/train.english.v4_gold_conll',
    COREF_DEV_DATA: data + '/conll-2012/dev.english.v4_gold_conll',
    COREF_TEST_DATA: data + '/conll-2012/test.english.v4_gold_conll',
    COREF_WORD_VECTORS: data + '/glove/glove.840B.300d.txt',
  },
};
local ner = {
  task: 'ner',
  data: 'CoNLL-2003 English: eng.train, eng.testa (dev), eng.testb (test)',
  environment: {
    NER_TRAIN_DATA: data + '/conll2003/eng.train',
    NER_DEV_DATA: data + '/conll2003/eng.testa',
    NER_TEST_DATA: data + '/conll2003/eng.testb',
    NER_WORD_VECTORS: data + '/glove/glove.6B.50d.txt',
  },
};
local sst = {
  task: 'sst',
  data: 'Stanford Sentiment Treebank, fine-grained (5 classes), PTB trees',
  environment: {
    SST_TRAIN_DATA: data + '/sst/trees/train.txt',
    SST_DEV_DATA: data + '/sst/trees/dev.txt',
    SST_TEST_DATA: data + '/sst/trees/test.txt',
    SST_WORD_VECTORS: data + '/glove/glove.840B.300d.txt',
  },
};

{
  name: 'paper',
  description: 'The published setting: full data, the original biLM (2x4096_512_2048cnn_2xhighway), each config as written.',
  // For --executor slurm: one GPU a run. Time limits are generous guesses for one data-centre GPU with
  // the original biLM; a job that reaches its limit is submitted again with --recover (max_resubmits).
  slurm: {
    max_resubmits: 5,
    resources: {
      default: { gpus: 1, cpus: 8, mem_gb: 48, time_min: 720 },
      squad: { time_min: 1440 },  // the largest: about a day with ELMo on the 87,599 questions
      coref: { mem_gb: 64, time_min: 1440 },
    },
  },
  environment: {
    ELMO_OPTIONS_FILE: elmo + '/elmo_2x4096_512_2048cnn_2xhighway_options.json',
    ELMO_WEIGHT_FILE: elmo + '/elmo_2x4096_512_2048cnn_2xhighway_weights.hdf5',
  },
  experiments: [
    // Table 1
    squad { configs: ['baseline', 'elmo'], seeds: [1] },
    snli { configs: ['baseline', 'elmo'], seeds: five_seeds },
    srl { configs: ['baseline', 'elmo'], seeds: [1] },
    coref { configs: ['baseline', 'elmo'], seeds: [1] },
    ner { configs: ['baseline', 'elmo'], seeds: five_seeds },
    sst { configs: ['baseline', 'elmo'], seeds: five_seeds },
    // Tables 2 and 3
    squad { configs: ablations, seeds: [1] },
    snli { configs: ablations, seeds: [1] },
    srl { configs: ablations, seeds: [1] },
    // Figure 1
    snli { configs: ['baseline', 'elmo'], seeds: [1], train_fractions: [0.001, 0.01, 0.1, 1.0] },
    srl { configs: ['baseline', 'elmo'], seeds: [1], train_fractions: [0.001, 0.01, 0.1, 1.0] },
  ],
}
