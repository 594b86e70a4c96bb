// SNLI, Table 3 of Peters et al. 2018: ELMo at the input of the lowest biLSTM only. Paper: 88.9 dev accuracy.
(import '../lib/snli.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.input_only)
