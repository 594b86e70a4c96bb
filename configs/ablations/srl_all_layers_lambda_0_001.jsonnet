// SRL ablation, Peters et al. 2018, Table 2: configs/srl_elmo.jsonnet with all biLM layers mixed, λ = 0.001 (the paper's SRL setting).
// Paper: 84.8 dev F1 on CoNLL-2012 (λ = 1: 84.6; top layer only: 84.1; baseline 81.6).
(import '../lib/srl.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.all_layers_lambda_0_001)
