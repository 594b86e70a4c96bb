// A check that the whole path works, in minutes, offline: NER (Peters et al. 2018, Table 1) on the
// bundled invented sample (bundled/data/ner) with the bundled biLM, baseline and ELMo, 2 seeds,
// 2 epochs. Its numbers say nothing about ELMo; the report says so.
//
//   allennlp reproduce plans/smoke.jsonnet          # runs/reproduce/smoke, report in runs/reproduce/smoke/report
{
  name: 'smoke',
  description: 'The pipeline on the bundled NER sample: 2 seeds, 2 epochs; not a result.',
  experiments: [
    {
      task: 'ner',
      configs: ['baseline', 'elmo'],
      seeds: [1, 2],
      overrides: { 'trainer.num_epochs': 2 },
      data: 'the bundled invented NER sample (400 / 100 / 100 sentences)',
    },
  ],
}
