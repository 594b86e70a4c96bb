// Coreference with ELMo (configs/coref_elmo.jsonnet, λ = 0) using all layers, λ = 0.001: the ablation of
// Peters et al. 2018, Table 2, which the paper reports for SQuAD, SNLI and SRL but not for coreference.
(import '../lib/coref.libsonnet')(use_elmo=true, elmo_overrides=(import '../lib/elmo.libsonnet').ablations.all_layers_lambda_0_001)
