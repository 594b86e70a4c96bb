// SNLI, Table 2 of Peters et al. 2018: all biLM layers, λ = 1 (nearly an average). Paper: 89.3 dev accuracy.
(import '../lib/snli.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.all_layers_lambda_1)
