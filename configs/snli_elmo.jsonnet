// SNLI with ELMo: Peters et al. 2018, "Deep contextualized word representations", §5 and §A.3.
// Model: ESIM (Chen et al. 2017), 300-d LSTMs and feed-forward layers, 300-d word vectors (GloVe, fixed,
// from SNLI_WORD_VECTORS; unset: trained from scratch, unlike the paper); ELMo at the input and at the
// output of the lowest biLSTM (two scalar mixes of layer-normalised biLM layers, λ = 0.001, γ from 0.1 where the
// paper starts it at 1: configs/ablations/snli_gamma_1.jsonnet, docs/elmo_losses.md); 50% variational
// dropout on LSTM inputs, 50% dropout before the final two layers and after the attention, ℓ2 1e-4 on
// weight matrices; Adam 4e-4, halved whenever dev accuracy does not improve; gradient norm 5.0; batch 32.
// Data: SNLI 1.0 jsonl (SNLI_TRAIN_DATA, SNLI_DEV_DATA, SNLI_TEST_DATA); unset, our bundled sample.
// ELMo: ELMO_OPTIONS_FILE, ELMO_WEIGHT_FILE; unset, the bundled biLM.
// Metric: 3-class accuracy (pairs labelled '-' left out): `accuracy`.
// Paper: 88.7 ± 0.17 test accuracy (baseline 88.0; configs/snli_baseline.jsonnet).
(import 'lib/snli.libsonnet')(use_elmo=true)
