// SNLI, Table 3 of Peters et al. 2018: ELMo at the input and the output (the paper's setting). Paper: 89.5 dev accuracy.
(import '../lib/snli.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.input_and_output)
