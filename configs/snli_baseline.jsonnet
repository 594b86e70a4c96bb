// SNLI baseline without ELMo: Peters et al. 2018, "Deep contextualized word representations", Table 1.
// Model: ESIM (Chen et al. 2017) as in configs/snli_elmo.jsonnet (300-d LSTMs and feed-forward layers,
// word vectors from SNLI_WORD_VECTORS, or trained from scratch when unset; 50% variational dropout on LSTM
// inputs, 50% dropout before the final two layers; Adam 4e-4 halved whenever dev accuracy does not
// improve; gradient norm 5.0; batch 32), no ELMo.
// Data: SNLI 1.0 jsonl (SNLI_TRAIN_DATA, SNLI_DEV_DATA, SNLI_TEST_DATA); unset, our bundled sample.
// Metric: 3-class accuracy (pairs labelled '-' left out): `accuracy`.
// Paper: 88.0 test accuracy (ELMo: 88.7 ± 0.17).
(import 'lib/snli.libsonnet')(use_elmo=false)
