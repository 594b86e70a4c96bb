// SST-5 with ELMo: Peters et al. 2018, "Deep contextualized word representations", §5 and §A.8.
// Model: biattentive classification network (McCann et al. 2017): 300-d word vectors (GloVe, fixed, from
// SST_WORD_VECTORS; unset: trained from scratch), ELMo at the input and at the output of the integrator
// biLSTM (two scalar mixes, λ = 0.001, γ from 0.1 where the paper starts it at 1: configs/ablations/sst_gamma_1.jsonnet,
// docs/elmo_losses.md), 300-d biLSTMs, an output network of two ReLU layers with dropout;
// Adam 1e-4; trained on every phrase of 4 tokens or more.
// Data: Stanford Sentiment Treebank PTB trees (SST_TRAIN_DATA, SST_DEV_DATA, SST_TEST_DATA); unset, our bundled sample.
// ELMo: ELMO_OPTIONS_FILE, ELMO_WEIGHT_FILE; unset, the bundled biLM.
// Metric: 5-class accuracy on whole sentences (tree roots) of dev and test: `accuracy`.
// Paper: 54.7 ± 0.5 test accuracy (baseline 51.4; configs/sst_baseline.jsonnet).
(import 'lib/sst.libsonnet')(use_elmo=true)
