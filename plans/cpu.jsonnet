// The paper's experiments sized for a 2-core CPU and the open data in SHARED_DATA_DIR (default
// ../shared/data; its README says what each folder is), with GloVe 6B 50-d word vectors in every
// task (the paper: 50-d Senna for NER, 300-d GloVe elsewhere) and the bundled biLM
// (bundled/bilm/MODEL_CARD.md; set ELMO_OPTIONS_FILE and ELMO_WEIGHT_FILE below for another):
// - Table 1's NER row on all of CoNLL-2003, two seeds each of the baseline, ELMo, and ELMo with the
//   biLM fine-tuned for one epoch on CoNLL-2003's training text (§A.1);
// - Table 7: the biLM fine-tuned on each task's training text, its held-out perplexity before and after;
// - Figure 1 for NER: baseline and ELMo on 1%, 10% and 30% of CoNLL-2003's training sentences, three
//   seeds each (all of it: Table 1's runs);
// - the other tasks (Table 1, the SNLI ablations of Tables 2 and 3, an SST-5 Figure 1) at the small
//   sizes of the first cpu plan, which do not yet let every task learn (docs/reproduce_cpu/).
//
// Data without a training split here is split first, and nothing is selected and tested on at once:
//   python scripts/split_for_selection.py ../shared/data/snli/snli_1.0_dev.jsonl runs/data/snli_split
//   python scripts/split_for_selection.py ../shared/data/srl_up_ewt/en_ewt-up-dev.conllu runs/data/up_split
//   python scripts/litbank_coref_split.py --litbank ../shared/data/litbank --split 0 --output-dir runs/data/litbank_fold0
//   allennlp reproduce plans/cpu.jsonnet            # runs/reproduce/cpu, report in runs/reproduce/cpu/report
//
// What differs from the paper, and the report says so for every task: substitute data where the
// paper's is not open (Universal PropBank for OntoNotes SRL, LitBank for OntoNotes coreference,
// part of SNLI's dev file to train on), seeded parts of some training sets (train_limit) and of dev
// and test (eval_limit, the same part in every run), fewer epochs and seeds, our own small biLM.
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
    SST_WORD_VECTORS: glove,
  },
};
local snli = {
  task: 'snli',
  train_limit: 2000,
  eval_limit: 1000,
  overrides: { 'trainer.num_epochs': 4 },
  data: 'SNLI 1.0 has no open training split here: 2,000 pairs of 70% of its dev set (by premise) to train, 1,000 of the other 30% to select on, 1,000 of its test set to test (seeded samples)',
  environment: {
    SNLI_TRAIN_DATA: 'runs/data/snli_split/train_part.jsonl',
    SNLI_DEV_DATA: 'runs/data/snli_split/heldout_part.jsonl',
    SNLI_TEST_DATA: shared + '/snli/snli_1.0_test.jsonl',
    SNLI_WORD_VECTORS: glove,
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
    SQUAD_WORD_VECTORS: glove,
  },
};
local srl = {
  task: 'srl',
  train_limit: 1500,
  eval_limit: 1000,
  overrides: { 'trainer.num_epochs': 5 },
  data: 'Universal PropBank 1.0 (English Web Treebank) for OntoNotes: 1,500 predicate frames of 80% of its dev split (by sentence) to train, 1,000 of the other 20% to select on, 1,000 of its test split to test (seeded samples)',
  environment: {
    SRL_DATA_FORMAT: 'universal_propbank',
    SRL_TRAIN_DATA: 'runs/data/up_split/train_part.conllu',
    SRL_DEV_DATA: 'runs/data/up_split/heldout_part.conllu',
    SRL_TEST_DATA: shared + '/srl_up_ewt/en_ewt-up-test.conllu',
    SRL_WORD_VECTORS: glove,
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
    COREF_WORD_VECTORS: glove,
  },
};

{
  name: 'cpu',
  description: 'The paper on a 2-core CPU: open data, GloVe 6B 50-d, NER on all of CoNLL-2003, the other tasks small, the bundled biLM.',
  environment: {},
  experiments: [
    // Table 1
    ner { configs: ['baseline', 'elmo'], seeds: [1, 2] },
    ner { configs: ['elmo'], seeds: [1, 2], finetune_bilm: true },
    squad { configs: ['baseline', 'elmo'], seeds: [1] },
    snli { configs: ['baseline', 'elmo'], seeds: [1, 2] },
    srl { configs: ['baseline', 'elmo'], seeds: [1] },
    coref { configs: ['baseline', 'elmo'], seeds: [1] },
    sst { configs: ['baseline', 'elmo'], seeds: [1, 2, 3] },
    // Tables 2 and 3
    snli { configs: ablations, seeds: [1] },
    // Figure 1 for NER: 1%, 10% and 30% of CoNLL-2003's 14,041 training sentences, three seeds each,
    // all of it from Table 1's runs. Smaller parts get more epochs, so that every run makes at least
    // about 500 updates (batches of 32); the config's patience (25 epochs) still stops them early.
    // Each epoch also validates on all of eng.testa (about 5 s), so about 3.9 CPU hours for the 18 runs.
    ner { configs: ['baseline', 'elmo'], seeds: [1, 2, 3], train_fractions: [0.01], overrides: { 'trainer.num_epochs': 100 } },
    ner { configs: ['baseline', 'elmo'], seeds: [1, 2, 3], train_fractions: [0.1], overrides: { 'trainer.num_epochs': 60 } },
    ner { configs: ['baseline', 'elmo'], seeds: [1, 2, 3], train_fractions: [0.3], overrides: { 'trainer.num_epochs': 40 } },
    // Figure 1: 10%, 30% and all of the 2,000 phrases (the last is Table 1's runs, run once)
    sst { configs: ['baseline', 'elmo'], seeds: [1], train_fractions: [0.1, 0.3, 1.0] },
  ],
  // Table 7 for the other tasks: the biLM fine-tuned on their training text, for its perplexities.
  finetuned_bilms: [sst, snli, squad, srl, coref],
}
