// NER baseline without ELMo: Peters et al. 2018, "Deep contextualized word representations", Table 1.
// Model: the BiLSTM-CRF of configs/ner_elmo.jsonnet (50-d word embeddings, character CNN, 2 biLSTM
// layers of 200, dropout 0.5, CRF constrained to BIOUL; Adam 1e-3, gradient norm clipped at 5.0), no ELMo.
// Data: CoNLL-2003 English (NER_TRAIN_DATA, NER_DEV_DATA, NER_TEST_DATA); unset, our bundled sample.
// Metric: entity-level F1 (seqeval, conlleval-compatible): `f1-measure-overall`.
// Paper: 90.15 test F1 (ELMo: 92.22 ± 0.10).
(import 'lib/ner.libsonnet')(use_elmo=false)
