// SQuAD 1.1 ablation, Peters et al. 2018, Table 3: configs/squad_elmo.jsonnet with ELMo at the input and the output of the contextual GRU (the paper's SQuAD setting).
// Paper: 85.6 dev F1 (input only: 85.1; output only: 84.8).
(import '../lib/squad.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.input_and_output)
