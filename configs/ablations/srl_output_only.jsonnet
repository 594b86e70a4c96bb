// SRL ablation, Peters et al. 2018, Table 3: ELMo at the output of the top LSTM only, not at its input.
// Paper: 80.9 dev F1 on CoNLL-2012 (input only: 84.7; input and output: 84.3).
(import '../lib/srl.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.output_only)
