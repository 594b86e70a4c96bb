// Coreference with ELMo: Peters et al. 2018, "Deep contextualized word representations", §5 and §A.6.
// Model: Lee et al. (2017)'s end-to-end model (tasks/coref): 300-d word embeddings, character CNN
// (8-d, 50 filters each of widths 3, 4, 5), ELMo at the input (softmax scalar mix × γ, λ = 0, no
// layer norm, dropout 0.5 with the other input embeddings), a 200-d biLSTM per sentence, spans of up
// to 10 words, 0.4 spans per word, up to 250 antecedents, FFNNs of 2 × 150, dropout 0.2; Adam 1e-3
// decayed ×0.999 every 100 documents, gradient norm clipped at 5.0.
// Data: CoNLL-2012 (OntoNotes 5.0) *_conll files (COREF_TRAIN_DATA, COREF_DEV_DATA, COREF_TEST_DATA),
// or LitBank (scripts/litbank_coref_split.py); unset, our bundled sample. Word vectors: COREF_WORD_VECTORS.
// ELMo: ELMO_OPTIONS_FILE, ELMO_WEIGHT_FILE; unset, the bundled biLM.
// Metric: CoNLL-2012 average F1 of MUC, B³ and CEAF-e (reference scorer v8.01 definitions): `coref_f1`.
// Paper: 70.4 test average F1 (baseline 67.2; configs/coref_baseline.jsonnet).
(import 'lib/coref.libsonnet')(use_elmo=true)
