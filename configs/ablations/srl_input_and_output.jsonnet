// SRL ablation, Peters et al. 2018, Table 3: ELMo at the input and at the output of the top LSTM (two scalar mixes).
// Paper: 84.3 dev F1 on CoNLL-2012 (input only: 84.7; output only: 80.9).
(import '../lib/srl.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.input_and_output)
