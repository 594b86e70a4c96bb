// The pilot that chose the bundled biLM's size by what it adds downstream (bundled/bilm/MODEL_CARD.md):
// NER with GloVe 6B 50-d on a fixed part of CoNLL-2003 (3,000 training sentences of a seeded shuffle,
// all of eng.testa to select on), baseline and ELMo with each pilot biLM, two seeds each; the
// criterion is dev F1 (the test score is not looked at to choose).
//
//   BILM_WORK=bilm_work allennlp reproduce plans/bilm_pilot.jsonnet
//
// BILM_WORK holds export_<size>/{options.json,weights.hdf5}, the pilot biLMs, each pretrained for
// one pass over the same 2.16M tokens of the mixed corpus (scripts/prepare_lm_corpus.py --sources ...),
// and export_b<update>, checkpoints of the winner's long run judged the same way, each exported by
// `WINNER=384x256 bash scripts/train_bundled_bilm.sh checkpoint` while that run trains.
local shared = std.extVar('SHARED_DATA_DIR');
local work = std.extVar('BILM_WORK');
local sizes = ['768x128', '384x256'];
local checkpoints = ['b2694', 'b3312'];  // updates of the long run (4,530 and 5,148 since the 384x256 pilot began)

local ner = {
  task: 'ner',
  seeds: [1, 2],
  train_limit: 3000,
  overrides: { 'trainer.num_epochs': 25 },
  data: 'CoNLL-2003 English: 3,000 sentences of eng.train (seeded), all of eng.testa and eng.testb; GloVe 6B 50-d',
  environment: {
    NER_TRAIN_DATA: shared + '/conll2003/eng.train',
    NER_DEV_DATA: shared + '/conll2003/eng.testa',
    NER_TEST_DATA: shared + '/conll2003/eng.testb',
    NER_WORD_VECTORS: shared + '/glove/glove.6B.50d.txt.gz',
  },
};

// ELMo with the biLM exported to BILM_WORK/export_<name>, its runs labelled `label`.
local with_biLM(name, label) = ner {
  configs: ['elmo'],
  label: label,
  environment+: {
    ELMO_OPTIONS_FILE: work + '/export_' + name + '/options.json',
    ELMO_WEIGHT_FILE: work + '/export_' + name + '/weights.hdf5',
  },
};

{
  name: 'bilm_pilot',
  description: 'Which pilot biLM adds most to NER with GloVe, on 3,000 CoNLL-2003 sentences, by dev F1.',
  environment: {},
  // The biLM bundled before this pilot (10.8M token positions of novels) as a reference.
  experiments: [ner { configs: ['baseline'] }, ner { configs: ['elmo'], label: 'bundled' }]
               + [with_biLM(size, 'b' + size) for size in sizes]
               + [with_biLM(checkpoint, checkpoint) for checkpoint in checkpoints]
               + [
                 // Two ways ELMo could enter the tagger otherwise (the paper, §3.2: layer normalisation of
                 // each biLM layer; "a moderate amount of dropout"), with the pilot 384x256 biLM.
                 with_biLM('384x256', variant.label) {
                   overrides+: { ['model.text_field_embedder.token_embedders.elmo.' + variant.key]: variant.value },
                 }
                 for variant in [
                   { label: 'layernorm', key: 'do_layer_norm', value: true },
                   { label: 'dropout', key: 'dropout', value: 0.5 },
                 ]
               ],
}
