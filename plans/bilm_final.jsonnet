// What the long-trained biLM adds to NER (bundled/bilm/MODEL_CARD.md; issue: ELMo above the GloVe
// baseline by more than the seed spread): all of CoNLL-2003 with GloVe 6B 50-d, 40 epochs, seeds 1
// and 2, as the cpu plan's Table 1 row (plans/lib/ner_conll2003.libsonnet): the baseline, ELMo with the
// biLM, ELMo with the biLM fine-tuned for one epoch on eng.train's text (§A.1), and ELMo with dropout
// 0.5 of its own (the pilot's best way in on 3,000 sentences: docs/bilm.md).
//
//   WINNER=384x256 bash scripts/train_bundled_bilm.sh final     # writes bilm_work/export_final
//   mkdir -p runs/reproduce/bilm_final && cp -r runs/reproduce/cpu/ner-baseline-seed{1,2} runs/reproduce/bilm_final/
//   BILM_WORK=$PWD/bilm_work allennlp reproduce plans/bilm_final.jsonnet
//
// The baseline runs are the cpu plan's own (the same spec), so copying its finished ones saves
// about 1.4 CPU hours; the runner takes a finished run whose spec is the plan's as done. About
// 7 CPU hours for the six ELMo runs and the fine-tuned biLM (one thread each).
local work = std.extVar('BILM_WORK');
local ner = import 'lib/ner_conll2003.libsonnet';
local final_bilm = ner {
  label: 'final',
  environment+: {
    ELMO_OPTIONS_FILE: work + '/export_final/options.json',
    ELMO_WEIGHT_FILE: work + '/export_final/weights.hdf5',
  },
};

{
  name: 'bilm_final',
  description: 'The long-trained biLM against the GloVe baseline on all of CoNLL-2003, with and without fine-tuning on its text.',
  environment: {},
  experiments: [
    ner { configs: ['baseline'], seeds: [1, 2] },
    final_bilm { configs: ['elmo'], seeds: [1, 2] },
    final_bilm { configs: ['elmo'], seeds: [1, 2], finetune_bilm: true },
    final_bilm {
      configs: ['elmo'],
      seeds: [1, 2],
      label: 'final_dropout',
      overrides+: { 'model.text_field_embedder.token_embedders.elmo.dropout': 0.5 },
    },
  ],
}
