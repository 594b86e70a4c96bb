// Coreference with ELMo (configs/coref_elmo.jsonnet, λ = 0) using the top biLM layer only (γ still learned): the ablation of
// Peters et al. 2018, Table 2, which the paper reports for SQuAD, SNLI and SRL but not for coreference.
(import '../lib/coref.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.top_layer)
