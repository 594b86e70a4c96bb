// SQuAD 1.1 ablation, Peters et al. 2018, Table 2: configs/squad_elmo.jsonnet with all biLM layers, λ = 0.001.
// Paper: 85.2 dev F1 (λ = 1: 85.0; top layer only: 84.7).
(import '../lib/squad.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.all_layers_lambda_0_001)
