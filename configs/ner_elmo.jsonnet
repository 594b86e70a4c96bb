// NER with ELMo: Peters et al. 2018, "Deep contextualized word representations", §5 and §A.7.
// Model: BiLSTM-CRF (Peters et al. 2017): 50-d word embeddings, character CNN (16-d, 128 filters of
// width 3), ELMo at the input (softmax scalar mix × γ, λ = 0.1), 2 biLSTM layers of 200, dropout 0.5,
// CRF constrained to BIOUL; Adam 1e-3, gradient norm clipped at 5.0.
// Data: CoNLL-2003 English (NER_TRAIN_DATA, NER_DEV_DATA, NER_TEST_DATA); unset, our bundled sample.
// ELMo: ELMO_OPTIONS_FILE, ELMO_WEIGHT_FILE; unset, the bundled biLM.
// Metric: entity-level F1 (seqeval, conlleval-compatible): `f1-measure-overall`.
// Paper: 92.22 ± 0.10 test F1 (baseline 90.15; configs/ner_baseline.jsonnet).
(import 'lib/ner.libsonnet')(use_elmo=true)
