// SRL ablation, Peters et al. 2018, Table 3: ELMo at the input of the biLSTM only (the paper's SRL setting).
// Paper: 84.7 dev F1 on CoNLL-2012 (input and output: 84.3; output only: 80.9).
(import '../lib/srl.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.input_only)
