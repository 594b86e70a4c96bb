// Question answering with ELMo: Peters et al. 2018, "Deep contextualized word representations", §5.1, §A.4.
// Model: Clark & Gardner (2017), BiDAF with GRUs and residual self-attention: 300-d words, character
// CNN, bidirectional GRUs of 90, linear layers of 180, variational dropout 0.2; ELMo at the input and
// at the output of the contextual GRU, λ = 0, no layer norm, γ from 0.1 where the paper starts it at 1
// (configs/ablations/squad_gamma_1.jsonnet, docs/elmo_losses.md); Adadelta (lr 1.0), batch 45, exponential
// moving average of the weights (0.999) at test time, answers of at most 17 tokens.
// Data: SQuAD 1.1 (SQUAD_TRAIN_DATA, SQUAD_DEV_DATA); unset, our bundled sample. Word vectors:
// SQUAD_WORD_VECTORS (the paper: GloVe 840B 300-d, fixed); unset, learned. ELMo: ELMO_OPTIONS_FILE,
// ELMO_WEIGHT_FILE; unset, the bundled biLM.
// Metric: the official SQuAD v1.1 exact match and F1 (`em`, `f1`, fractions); model selection on dev F1.
// Paper: 85.8 test F1 (Table 1; baseline 81.1), 85.6 dev F1 (Table 3, input and output).
(import 'lib/squad.libsonnet')(use_elmo=true)
