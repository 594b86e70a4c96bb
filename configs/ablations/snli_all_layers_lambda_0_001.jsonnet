// SNLI, Table 2 of Peters et al. 2018: all biLM layers, λ = 0.001 (the paper's setting). Paper: 89.5 dev accuracy.
(import '../lib/snli.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.all_layers_lambda_0_001)
