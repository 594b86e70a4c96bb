// The paper's experiments sized for a 2-core CPU and the open data in SHARED_DATA_DIR (default
// ../shared/data; its README says what each folder is): Table 1 for all six tasks (baseline and ELMo,
// 3 seeds for NER and SST-5, 2 for SNLI, where the paper reports a mean ± std, 1 elsewhere), the
// Table 2 and 3 ablations on SNLI (1 seed), and a Figure 1 curve on SST-5. With the bundled biLM
// (bundled/bilm: set ELMO_OPTIONS_FILE and ELMO_WEIGHT_FILE below to use another). 32 runs, sized
// for about two hours on a 2-core CPU (docs/reproduce_cpu.md: the measured report and its time).
//
//   allennlp reproduce plans/cpu.jsonnet            # runs/reproduce/cpu, report in runs/reproduce/cpu/report
//
// What differs from the paper, and the report says so for every run: substitute data where the
// paper's is not open (Universal PropBank for OntoNotes SRL, LitBank for OntoNotes coreference;
// SNLI and SRL without a training split train on one split and select and test on another), small
// seeded parts of each training set (train_limit) and of dev and test (eval_limit, the same part in
// every run), few epochs, few seeds, our own small biLM.
local shared = std.extVar('SHARED_DATA_DIR');
local ablations = ['top_layer', 'all_layers_lambda_1', 'all_layers_lambda_0_001', 'input_only', 'input_and_output', 'output_only'];

local glove = shared + '/glove/glove.6B.50d.txt.gz';  // GloVe 6B 50-d, every task's word vectors here
// NER on the full CoNLL-2003 data (14,041 / 3,250 / 3,453 sentences), GloVe 6B 50-d as allennlp-models'
// NER config (the paper: 50-d Senna), 40 epochs with the config's patience of 25 (the config: 75).
local ner = {
  task: 'ner',
  overrides: { 'trainer.num_epochs': 40 },
  data: 'CoNLL-2003 English, all of eng.train / eng.testa (dev) / eng.testb (test); GloVe 6B 50-d',
  environment: {
    NER_TRAIN_DATA: shared + '/conll2003/eng.train',
    NER_DEV_DATA: shared + '/conll2003/eng.testa',
    NER_TEST_DATA: shared + '/conll2003/eng.testb',
    NER_WORD_VECTORS: glove,
  },
};
local sst = {
  task: 'sst',
  train_limit: 2000,
  eval_limit: 1000,
  overrides: { 'trainer.num_epochs': 5 },
  data: 'SST-5: 2,000 training phrases of 4 tokens or more from train, 1,000 sentences of dev and of test (seeded samples)',
  environment: {
    SST_TRAIN_DATA: shared + '/sst/train.txt',
    SST_DEV_DATA: shared + '/sst/dev.txt',
    SST_TEST_DATA: shared + '/sst/test.txt',
  },
};
local snli = {
  task: 'snli',
  train_limit: 2000,
  eval_limit: 1000,
  overrides: { 'trainer.num_epochs': 4 },
  data: 'SNLI 1.0 has no open training split here: 2,000 pairs of its dev set to train, 1,000 of its test set to select and to test (seeded samples)',
  environment: {
    SNLI_TRAIN_DATA: shared + '/snli/snli_1.0_dev.jsonl',
    SNLI_DEV_DATA: shared + '/snli/snli_1.0_test.jsonl',
    SNLI_TEST_DATA: shared + '/snli/snli_1.0_test.jsonl',
  },
};
local squad = {
  task: 'squad',
  train_limit: 1000,
  eval_limit: 500,
  overrides: { 'trainer.num_epochs': 2 },
  data: 'SQuAD 1.1: 1,000 questions of the reconstructed train set, 500 of the official dev set (seeded samples)',
  environment: {
    SQUAD_TRAIN_DATA: shared + '/squad/train-v1.1.reconstructed.json',
    SQUAD_DEV_DATA: shared + '/squad/dev-v1.1.json',
  },
};
local srl = {
  task: 'srl',
  train_limit: 1500,
  eval_limit: 1000,
  overrides: { 'trainer.num_epochs': 5 },
  data: 'Universal PropBank 1.0 (English Web Treebank) for OntoNotes: 1,500 predicate frames of its test split to train, 1,000 of its dev split to select and to test (seeded samples)',
  environment: {
    SRL_DATA_FORMAT: 'universal_propbank',
    SRL_TRAIN_DATA: shared + '/srl_up_ewt/en_ewt-up-test.conllu',
    SRL_DEV_DATA: shared + '/srl_up_ewt/en_ewt-up-dev.conllu',
    SRL_TEST_DATA: shared + '/srl_up_ewt/en_ewt-up-dev.conllu',
  },
};
// LitBank's documents come as one file each, with ten train/dev/test folds of ids; write fold 0 as
// the three files named here first (docs/coref.md):
//   python scripts/litbank_coref_split.py --litbank ../shared/data/litbank --split 0 --output-dir runs/data/litbank_fold0
// Sizes are scripts/train_coref_litbank.sh's: with the config's own (50-sentence training windows,
// whole documents, 250 antecedents) an epoch takes about 8 minutes here.
local coref = {
  task: 'coref',
  overrides: {
    'trainer.num_epochs': 5,
    'dataset_reader.max_training_sentences': 8,
    'validation_dataset_reader.max_sentences': 20,
    'model.max_antecedents': 30,
  },
  data: 'LitBank coreference (CC BY 4.0), fold 0 (80 / 10 / 10 documents) for OntoNotes',
  environment: {
    COREF_TRAIN_DATA: 'runs/data/litbank_fold0/train.conll',
    COREF_DEV_DATA: 'runs/data/litbank_fold0/dev.conll',
    COREF_TEST_DATA: 'runs/data/litbank_fold0/test.conll',
  },
};

{
  name: 'cpu',
  description: 'The paper on a 2-core CPU: open data, small seeded training sets, fewer epochs and seeds, the bundled biLM.',
  environment: {},
  experiments: [
    // Table 1
    squad { configs: ['baseline', 'elmo'], seeds: [1] },
    snli { configs: ['baseline', 'elmo'], seeds: [1, 2] },
    srl { configs: ['baseline', 'elmo'], seeds: [1] },
    coref { configs: ['baseline', 'elmo'], seeds: [1] },
    ner { configs: ['baseline', 'elmo'], seeds: [1, 2, 3] },
    sst { configs: ['baseline', 'elmo'], seeds: [1, 2, 3] },
    // Tables 2 and 3
    snli { configs: ablations, seeds: [1] },
    // Figure 1: 10%, 30% and all of the 2,000 phrases (the last is Table 1's runs, run once)
    sst { configs: ['baseline', 'elmo'], seeds: [1], train_fractions: [0.1, 0.3, 1.0] },
  ],
}
