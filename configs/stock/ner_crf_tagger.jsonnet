// The stock-pipeline cross-check of Peters et al. 2018, "Deep contextualized word representations",
// Table 1's NER row (docs/elmo_losses.md): allennlp-models' own NER config without ELMo
// (training_config/tagging/ner.jsonnet: GloVe and a character CNN into a BiLSTM-CRF), changed only as
// configs/lib/stock_crf_tagger.libsonnet says.
// Data: CoNLL-2003 English (NER_TRAIN_DATA, NER_DEV_DATA, NER_TEST_DATA); unset, our bundled sample.
// Metric: span F1 over all entity types, `f1-measure-overall`. Paper: 90.15 (Table 1's baseline).
(import '../lib/stock_crf_tagger.libsonnet')(use_elmo=false)
