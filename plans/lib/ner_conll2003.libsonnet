// NER on all of CoNLL-2003 (14,041 / 3,250 / 3,453 sentences), GloVe 6B 50-d as allennlp-models' NER
// config (the paper: 50-d Senna), 40 epochs with the config's patience of 25 (the config: 75).
// One definition for plans/cpu.jsonnet and plans/bilm_final.jsonnet, so that their runs of the same
// config and seed are the same run (a finished one can be copied from one runs folder to the other).
local shared = std.extVar('SHARED_DATA_DIR');
{
  task: 'ner',
  overrides: { 'trainer.num_epochs': 40 },
  data: 'CoNLL-2003 English, all of eng.train / eng.testa (dev) / eng.testb (test); GloVe 6B 50-d',
  environment: {
    NER_TRAIN_DATA: shared + '/conll2003/eng.train',
    NER_DEV_DATA: shared + '/conll2003/eng.testa',
    NER_TEST_DATA: shared + '/conll2003/eng.testb',
    NER_WORD_VECTORS: shared + '/glove/glove.6B.50d.txt.gz',
  },
}
