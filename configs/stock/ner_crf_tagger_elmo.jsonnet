// The stock-pipeline cross-check of Peters et al. 2018, "Deep contextualized word representations",
// Table 1's NER row (docs/elmo_losses.md): allennlp-models' own NER config with ELMo
// (training_config/tagging/ner_elmo.jsonnet: AllenNLP's `elmo_token_embedder` beside GloVe and a
// character CNN, its mix's scalars L2-regularised) over the biLM of ELMO_OPTIONS_FILE /
// ELMO_WEIGHT_FILE (unset: the bundled one), changed only as configs/lib/stock_crf_tagger.libsonnet says.
// Data: CoNLL-2003 English (NER_TRAIN_DATA, NER_DEV_DATA, NER_TEST_DATA); unset, our bundled sample.
// Metric: span F1 over all entity types, `f1-measure-overall`. Paper: 92.22 ± 0.10; allennlp-models'
// trained model: 92.51.
(import '../lib/stock_crf_tagger.libsonnet')(use_elmo=true)
