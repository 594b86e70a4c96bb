// The stock-pipeline cross-check of Peters et al. 2018, "Deep contextualized word representations",
// Table 1's SNLI row (docs/elmo_losses.md): allennlp-models' own `esim` config without ELMo
// (training_config/pair_classification/esim.jsonnet), changed only as configs/lib/stock_esim.libsonnet says.
// Data: SNLI 1.0 jsonl (SNLI_TRAIN_DATA, SNLI_DEV_DATA, SNLI_TEST_DATA); unset, our bundled sample.
// Metric: 3-class accuracy: `accuracy`. Paper (its own ESIM): 88.0 test accuracy.
(import '../lib/stock_esim.libsonnet')(use_elmo=false)
