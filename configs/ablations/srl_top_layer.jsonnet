// SRL ablation, Peters et al. 2018, Table 2: configs/srl_elmo.jsonnet with the top biLM layer only (γ still learned).
// Paper: 84.1 dev F1 on CoNLL-2012 (all layers with λ = 0.001: 84.8; baseline 81.6).
(import '../lib/srl.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.top_layer)
