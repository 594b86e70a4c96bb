// ELMo as the paper defines it (Peters et al. 2018, §3.2): a frozen biLM whose layers are combined
// by a learned, softmax-normalised scalar mix times γ, with λ‖w‖² on the mix weights, entering the
// task model at its input and/or at the output of its biRNN. The biLM comes from
// ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE (default: the bundled biLM, bundled/bilm/MODEL_CARD.md);
// its activations are cached in ELMO_CACHE_DIR ('none': no cache), see tasks/elmo.
//
// A task config builds its ELMo from `settings(...)`: the paper's setting for that task, and the
// ablations of Tables 2 and 3 are one more override (`ablations`, used by configs/ablations/).
local cache = std.extVar('ELMO_CACHE_DIR');

{
  settings(overrides={}):: {
    layers: 'all',  // 'all': a learned mix of every layer; 'top': the top layer only (γ still learned)
    lambda: 0.001,  // λ, the L2 penalty on the mix weights
    input: true,  // ELMo concatenated to the task model's input
    output: false,  // ELMo concatenated to the output of the task model's (lowest) biRNN
    layer_norm: false,  // layer-normalise each biLM layer before mixing
    dropout: 0.5,  // on each mixed representation
    lstm_state: 'zero',  // the biLM state every sentence starts from: 'zero', 'warm_up' or 'carried' (AllenNLP's)
    gamma: 1.0,  // γ before training (the paper's code, bilm-tf's weight_layers: 1; SNLI, SQuAD and SST-5 here: 0.1)
  } + overrides,

  // The paper's ablations: Table 2 (which layers, λ) and Table 3 (where ELMo enters); and the paper's
  // own γ = 1 where a task here starts γ elsewhere (docs/elmo_losses.md: why SNLI, SQuAD and SST-5 do).
  ablations:: {
    top_layer: { layers: 'top' },
    all_layers_lambda_1: { layers: 'all', lambda: 1.0 },
    all_layers_lambda_0_001: { layers: 'all', lambda: 0.001 },
    input_only: { input: true, output: false },
    input_and_output: { input: true, output: true },
    output_only: { input: false, output: true },
    gamma_1: { gamma: 1.0 },
  },

  indexer:: { type: 'elmo_characters' },

  local biLM(settings) = {
    options_file: std.extVar('ELMO_OPTIONS_FILE'),
    weight_file: std.extVar('ELMO_WEIGHT_FILE'),
    layers: settings.layers,
    do_layer_norm: settings.layer_norm,
    dropout: settings.dropout,
    lstm_state: settings.lstm_state,
    initial_gamma: settings.gamma,
    // `cache_directory_for` in tasks/elmo/frozen_bilm.py, restated: no cache for 'none', nor for carried states.
    cache_directory: if std.asciiLower(cache) == 'none' || settings.lstm_state == 'carried' then null else cache,
    requires_grad: false,
  },

  // ELMo at a model's input, as a token embedder (in the text field embedder, next to words).
  token_embedder(settings):: { type: 'fast_elmo' } + biLM(settings),

  // A `PaperElmo` with one mix per place ELMo enters, for models that take `elmo` themselves.
  module(settings, num_output_representations):: biLM(settings) + {
    num_output_representations: num_output_representations,
  },

  // λ‖w‖² on the scalar-mix weights (not on γ).
  regularizer(settings):: { regexes: [['scalar_parameters', { type: 'l2', alpha: settings.lambda }]] },
}
