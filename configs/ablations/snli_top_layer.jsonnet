// SNLI, Table 2 of Peters et al. 2018: ELMo from the top biLM layer only (γ still learned). Paper: 89.1 dev accuracy.
(import '../lib/snli.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.top_layer)
