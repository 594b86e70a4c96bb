// allennlp-models' own ESIM configs (training_config/pair_classification/esim.jsonnet and
// esim_elmo.jsonnet, allennlp-models 2.10.1), as they are, for the cross-check of docs/elmo_losses.md:
// the stock `esim` model and AllenNLP's stock `elmo_token_embedder`, none of the suite's model code.
// Changed only where this machine makes it necessary, each marked "here:":
// - the data of the cpu plan (SNLI_TRAIN_DATA, SNLI_DEV_DATA for selection, SNLI_TEST_DATA for test),
//   read by the stock `snli` reader with the suite's offline tokenizer (the stock one loads a spaCy
//   model that is not installed);
// - GloVe 6B 50-d (SNLI_WORD_VECTORS) for the stock 840B 300-d, and the bundled biLM (ELMO_OPTIONS_FILE,
//   ELMO_WEIGHT_FILE) for the stock 5.5B one; the encoder's input size follows them;
// - the device from DEVICES (configs/lib/devices.libsonnet), like every config of the suite.
// As in the stock configs, the ELMo model reads ELMo alone (no word vectors), one mix at the input.
local data = import 'data.libsonnet';
local devices = import 'devices.libsonnet';
local vectors = data.word_vectors('SNLI');

function(use_elmo)
  local elmo_dim = std.parseInt(std.extVar('ELMO_DIM'));  // from ELMO_OPTIONS_FILE (tasks/environment.py)
  local reader = {
    type: 'snli',
    tokenizer: { type: 'blank_spacy' },  // here: offline
    token_indexers: if use_elmo then { elmo: { type: 'elmo_characters' } }
                    else { tokens: { type: 'single_id', lowercase_tokens: true } },
  };
  data.readers(reader) + {
  train_data_path: std.extVar('SNLI_TRAIN_DATA'),
  validation_data_path: std.extVar('SNLI_DEV_DATA'),
  test_data_path: std.extVar('SNLI_TEST_DATA'),  // here: the test set is scored after training
  evaluate_on_test: true,
  model: {
    type: 'esim',
    dropout: 0.5,
    text_field_embedder: { token_embedders: if use_elmo then {
      elmo: {
        type: 'elmo_token_embedder',
        options_file: std.extVar('ELMO_OPTIONS_FILE'),
        weight_file: std.extVar('ELMO_WEIGHT_FILE'),
        do_layer_norm: false,
        dropout: 0.0,
      },
    } else {
      tokens: { type: 'embedding', embedding_dim: vectors.dim(300), trainable: true }
              + (if vectors.path != '' then { pretrained_file: vectors.path } else {}),
    } },
    encoder: {
      type: 'lstm',
      input_size: if use_elmo then elmo_dim else vectors.dim(300),
      hidden_size: 300,
      num_layers: 1,
      bidirectional: true,
    },
    matrix_attention: { type: 'dot_product' },
    projection_feedforward: { input_dim: 2400, hidden_dims: 300, num_layers: 1, activations: 'relu' },
    inference_encoder: { type: 'lstm', input_size: 300, hidden_size: 300, num_layers: 1, bidirectional: true },
    output_feedforward: { input_dim: 2400, num_layers: 1, hidden_dims: 300, activations: 'relu', dropout: 0.5 },
    output_logit: { input_dim: 300, num_layers: 1, hidden_dims: 3, activations: 'linear' },
    initializer: { regexes: [
      ['.*linear_layers.*weight', { type: 'xavier_uniform' }],
      ['.*linear_layers.*bias', { type: 'zero' }],
      ['.*weight_ih.*', { type: 'xavier_uniform' }],
      ['.*weight_hh.*', { type: 'orthogonal' }],
      ['.*bias_ih.*', { type: 'zero' }],
      ['.*bias_hh.*', { type: 'lstm_hidden_bias' }],
    ] },
  },
  data_loader: { batch_sampler: { type: 'bucket', batch_size: devices.batch_size(32) } },
  trainer: {
    optimizer: { type: 'adam', lr: 0.0004 },
    validation_metric: '+accuracy',
    num_epochs: 75,
    grad_norm: 10.0,
    patience: 5,
    learning_rate_scheduler: { type: 'reduce_on_plateau', factor: 0.5, mode: 'max', patience: 0 },
  },
} + devices.config
