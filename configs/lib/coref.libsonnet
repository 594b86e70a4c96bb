// The coreference experiment (Peters et al. 2018, §A.6), shared by coref_elmo.jsonnet and
// coref_baseline.jsonnet: the end-to-end model of Lee et al. (2017) (tasks/coref), with ELMo at the
// input of its biLSTM when `use_elmo`. Sizes are Lee et al.'s; see docs/coref.md for what differs.
local data = import 'data.libsonnet';
local devices = import 'devices.libsonnet';
local elmo = import 'elmo.libsonnet';
local vectors = data.word_vectors('COREF');
local word_vectors = vectors.path;

// Lee et al.: spans of up to 10 words, 0.4 spans per word kept, up to 250 antecedents each,
// training documents cropped to 50 random consecutive sentences.
local max_span_width = 10;
local max_training_sentences = 50;

// `elmo_overrides`: changes to the paper's ELMo settings for coreference (elmo.libsonnet): λ = 0,
// no layer norm, input only. ELMo's dropout of 0.5 is the model's lexical dropout, which covers
// every input embedding, so the ELMo module adds none of its own.
function(use_elmo, elmo_overrides={})
  local elmo_settings = elmo.settings({ lambda: 0.0, layer_norm: false, dropout: 0.0 } + elmo_overrides);
  local reader(training) = {
    type: 'conll2012_coref',
    max_span_width: max_span_width,
    [if training then 'max_training_sentences']: max_training_sentences,
    token_indexers: {
      tokens: { type: 'single_id', lowercase_tokens: vectors.lowercase(false) },
      token_characters: { type: 'characters', min_padding_length: 5 },
    } + (if use_elmo then { elmo: elmo.indexer } else {}),
  };
  // The training reader crops documents; dev and test are read whole.
  data.readers(reader(training=true), reader(training=false)) + {
  train_data_path: std.extVar('COREF_TRAIN_DATA'),
  validation_data_path: std.extVar('COREF_DEV_DATA'),
  test_data_path: std.extVar('COREF_TEST_DATA'),
  evaluate_on_test: true,
  datasets_for_vocab_creation: data.vocabulary_splits(word_vectors),
  model: {
    type: 'e2e_coref',
    text_field_embedder: {
      token_embedders: {
        tokens: { type: 'embedding', embedding_dim: vectors.dim(300) }
                + (if word_vectors == '' then { trainable: true } else { pretrained_file: word_vectors, trainable: false }),
        token_characters: {
          type: 'character_encoding',
          embedding: { embedding_dim: 8 },
          encoder: { type: 'cnn', embedding_dim: 8, num_filters: 50, ngram_filter_sizes: [3, 4, 5] },
        },
      } + (if use_elmo then { elmo: elmo.token_embedder(elmo_settings) } else {}),
    },
    context_layer: { type: 'lstm', bidirectional: true, hidden_size: 200, num_layers: 1 },
    mention_feedforward: { num_layers: 2, hidden_dims: 150, activations: 'relu', dropout: 0.2 },
    antecedent_feedforward: { num_layers: 2, hidden_dims: 150, activations: 'relu', dropout: 0.2 },
    feature_size: 20,
    max_span_width: max_span_width,
    spans_per_word: 0.4,
    max_antecedents: 250,
    lexical_dropout: 0.5,
    dropout: 0.2,
    // TensorFlow's default (Glorot uniform) for weights, as in Lee et al.'s code; orthogonal recurrent
    // weights. Anchored to the model's own modules: the frozen biLM under the text field embedder
    // has an `char_embedding.weight` too, which must keep the weight file's values.
    initializer: {
      regexes: [
        ['^_(mention|antecedent)_feedforward\\..*weight$|^_(head|mention|antecedent)_scorer\\..*weight$|^_[a-z_]+_embedding\\.weight$', { type: 'xavier_uniform' }],
        ['^_context_layer\\..*weight_ih', { type: 'xavier_uniform' }],
        ['^_context_layer\\..*weight_hh', { type: 'orthogonal' }],
      ],
    },
    [if use_elmo then 'regularizer']: elmo.regularizer(elmo_settings),
  },
  // One document a batch (per process), as Lee et al.; read lazily so each epoch draws new training windows.
  data_loader: { batch_size: devices.batch_size(1), shuffle: true, max_instances_in_memory: 4000 },
  validation_data_loader: { batch_size: 1 },
  trainer: {
    optimizer: { type: 'adam', lr: 0.001 },
    learning_rate_scheduler: { type: 'exponential_decay', decay_rate: 0.999, decay_steps: 100 },
    grad_norm: 5.0,
    num_epochs: 150,
    patience: 10,
    validation_metric: '+coref_f1',
  },
} + devices.config
