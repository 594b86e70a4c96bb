// SST-5 baseline without ELMo: Peters et al. 2018, "Deep contextualized word representations", Table 1.
// Model: the biattentive classification network of configs/sst_elmo.jsonnet (300-d word vectors from
// SST_WORD_VECTORS, or trained from scratch when unset; 300-d biLSTMs; two ReLU output layers; Adam 1e-4;
// phrases of 4 tokens or more), no ELMo.
// Data: Stanford Sentiment Treebank PTB trees (SST_TRAIN_DATA, SST_DEV_DATA, SST_TEST_DATA); unset, our bundled sample.
// Metric: 5-class accuracy on whole sentences (tree roots) of dev and test: `accuracy`.
// Paper: 51.4 test accuracy (ELMo: 54.7 ± 0.5).
(import 'lib/sst.libsonnet')(use_elmo=false)
