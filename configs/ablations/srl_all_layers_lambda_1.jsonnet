// SRL ablation, Peters et al. 2018, Table 2: configs/srl_elmo.jsonnet with all biLM layers mixed, λ = 1 (close to an average).
// Paper: 84.6 dev F1 on CoNLL-2012 (λ = 0.001: 84.8; top layer only: 84.1; baseline 81.6).
(import '../lib/srl.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.all_layers_lambda_1)
