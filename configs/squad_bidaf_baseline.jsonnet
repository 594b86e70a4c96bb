// Plain BiDAF on SQuAD 1.1: Seo et al. 2017, "Bidirectional Attention Flow for Machine Comprehension",
// as allennlp-models trains it (training_config/rc/bidaf.jsonnet): words and a character CNN, 2 highway
// layers, biLSTMs of 100, Adam; not in the ELMo paper, which builds on Clark & Gardner (2017) instead
// (configs/squad_baseline.jsonnet); kept to compare with the older, widely used baseline.
// Data: SQuAD 1.1 (SQUAD_TRAIN_DATA, SQUAD_DEV_DATA); unset, our bundled sample. Word vectors:
// SQUAD_WORD_VECTORS (GloVe, 300-d); unset, learned 100-d vectors (allennlp-models: GloVe 6B 100-d, fixed).
// Metric: the official SQuAD v1.1 exact match and F1 (`em`, `f1`, fractions); model selection on dev EM.
// Reference: Seo et al. report 67.7 EM / 77.3 F1 on dev for a single BiDAF.
(import 'lib/squad.libsonnet')(use_elmo=false, model='bidaf')
