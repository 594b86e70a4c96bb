// Question answering baseline without ELMo: Peters et al. 2018, "Deep contextualized word representations", Table 1.
// Model: Clark & Gardner (2017), BiDAF with GRUs and residual self-attention, as in configs/squad_elmo.jsonnet
// (300-d words, character CNN, GRUs of 90, linear layers of 180, variational dropout 0.2; Adadelta,
// batch 45, moving average of the weights 0.999, answers of at most 17 tokens), no ELMo.
// Data: SQuAD 1.1 (SQUAD_TRAIN_DATA, SQUAD_DEV_DATA); unset, our bundled sample. Word vectors:
// SQUAD_WORD_VECTORS (the paper: GloVe 840B 300-d, fixed); unset, learned.
// Metric: the official SQuAD v1.1 exact match and F1 (`em`, `f1`, fractions); model selection on dev F1.
// Paper: 81.1 test F1 (Table 1; ELMo 85.8), 80.8 dev F1 (Table 2).
(import 'lib/squad.libsonnet')(use_elmo=false)
