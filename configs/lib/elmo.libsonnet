// ELMo as the paper defines it (Peters et al. 2018, §3.2): a frozen biLM whose layers are combined
// by a learned, softmax-normalised scalar mix times γ (AllenNLP's `elmo_token_embedder`), with
// λ‖w‖² on the mix weights. The biLM comes from ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE (defaults:
// the bundled biLM, see bundled/bilm/MODEL_CARD.md).
{
  indexer:: { type: 'elmo_characters' },

  token_embedder(dropout=0.0, do_layer_norm=false):: {
    type: 'elmo_token_embedder',
    options_file: std.extVar('ELMO_OPTIONS_FILE'),
    weight_file: std.extVar('ELMO_WEIGHT_FILE'),
    do_layer_norm: do_layer_norm,
    dropout: dropout,
    requires_grad: false,
  },

  // L2 penalty λ‖w‖² on the scalar-mix weights (not on γ).
  regularizer(lambda):: { regexes: [['scalar_parameters', { type: 'l2', alpha: lambda }]] },
}
