// SQuAD 1.1 ablation, Peters et al. 2018, Table 3: configs/squad_elmo.jsonnet with ELMo at the input of the contextual GRU only.
// Paper: 85.1 dev F1 (input and output: 85.6; output only: 84.8).
(import '../lib/squad.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.input_only)
