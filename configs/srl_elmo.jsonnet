// SRL with ELMo: Peters et al. 2018, "Deep contextualized word representations", §5 and §A.5.
// Model: He et al. (2017): 100-d word embeddings and a 100-d predicate-indicator embedding, ELMo at
// the input (softmax scalar mix × γ, λ = 0.001, dropout 0.1), 8 interleaved highway LSTM layers of
// 300 (recurrent dropout 0.1), BIO tags Viterbi-decoded under BIO constraints; Adadelta (lr 1.0,
// rho 0.95), gradients clipped at 1.0 (configs/lib/srl.libsonnet).
// Data: CoNLL-2012 OntoNotes (SRL_DATA_FORMAT=conll2012) or Universal PropBank CoNLL-U (the
// default): SRL_TRAIN_DATA, SRL_DEV_DATA, SRL_TEST_DATA; unset, our bundled sample.
// ELMo: ELMO_OPTIONS_FILE, ELMO_WEIGHT_FILE; unset, the bundled biLM.
// Metric: the official CoNLL-2005 srl-eval.pl span F1, predicates' V excluded: `f1-measure-overall`.
// Paper: 84.6 test F1 on CoNLL-2012 (baseline 81.4; configs/srl_baseline.jsonnet).
(import 'lib/srl.libsonnet')(use_elmo=true)
