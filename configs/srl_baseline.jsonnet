// SRL baseline without ELMo: Peters et al. 2018, "Deep contextualized word representations", Table 1.
// Model: He et al. (2017) as in configs/srl_elmo.jsonnet (100-d word and predicate-indicator
// embeddings, 8 interleaved highway LSTM layers of 300, BIO-constrained Viterbi; Adadelta, gradients
// clipped at 1.0), no ELMo.
// Data: CoNLL-2012 OntoNotes (SRL_DATA_FORMAT=conll2012) or Universal PropBank CoNLL-U (the
// default): SRL_TRAIN_DATA, SRL_DEV_DATA, SRL_TEST_DATA; unset, our bundled sample.
// Metric: the official CoNLL-2005 srl-eval.pl span F1, predicates' V excluded: `f1-measure-overall`.
// Paper: 81.4 test F1 on CoNLL-2012 (He et al.'s single model; ELMo: 84.6).
(import 'lib/srl.libsonnet')(use_elmo=false)
