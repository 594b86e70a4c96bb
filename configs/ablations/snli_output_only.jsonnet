// SNLI, Table 3 of Peters et al. 2018: ELMo at the output of the lowest biLSTM only. Paper: 88.7 dev accuracy.
(import '../lib/snli.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.output_only)
