// SQuAD 1.1 ablation, Peters et al. 2018, Table 2: configs/squad_elmo.jsonnet with the top biLM layer only (γ still learned).
// Paper: 84.7 dev F1 (all layers with λ = 0.001: 85.2; baseline 80.8).
(import '../lib/squad.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.top_layer)
