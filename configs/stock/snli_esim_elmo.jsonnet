// The stock-pipeline cross-check of Peters et al. 2018, "Deep contextualized word representations",
// Table 1's SNLI row (docs/elmo_losses.md): allennlp-models' own `esim` config with ELMo
// (training_config/pair_classification/esim_elmo.jsonnet: AllenNLP's `elmo_token_embedder`, one mix at
// the input, no word vectors) over the biLM of ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE (unset: the bundled
// one), changed only as configs/lib/stock_esim.libsonnet says.
// Data: SNLI 1.0 jsonl (SNLI_TRAIN_DATA, SNLI_DEV_DATA, SNLI_TEST_DATA); unset, our bundled sample.
// Metric: 3-class accuracy: `accuracy`. Paper: 88.7 ± 0.17; allennlp-models' trained model: 88.5.
(import '../lib/stock_esim.libsonnet')(use_elmo=true)
