// PropBank predicate identification, for SRL on raw text (not part of the paper: its SRL is given
// gold predicates, and spaCy's tagger, AllenNLP's usual source of verbs, cannot be had offline).
// Model: a token classifier (tasks/srl/predicate_tagger.py): 100-d word embeddings (SRL_WORD_VECTORS
// if set) and a character CNN (16-d, 64 filters of width 3), one biLSTM layer of 100, a linear layer
// to V / O per word; Adam 1e-3, 30 epochs with patience 5.
// Data: the SRL data (SRL_TRAIN_DATA, SRL_DEV_DATA, SRL_TEST_DATA in SRL_DATA_FORMAT): every
// sentence, its predicates' words marked V; unset, our bundled sample.
// Metric: precision, recall and F1 of the predicates found: `predicate-f1`.
// Use: allennlp predict <srl model.tar.gz> input.jsonl --predictor-args '{"predicate_model": "<this model.tar.gz>"}'
local data = import 'lib/data.libsonnet';
local devices = import 'lib/devices.libsonnet';
local format = std.extVar('SRL_DATA_FORMAT');
local vectors = data.word_vectors('SRL');
local word_vectors = vectors.path;
local reader_types = { conll2012: 'srl_conll2012', universal_propbank: 'srl_universal_propbank' };

assert std.objectHas(reader_types, format) : 'SRL_DATA_FORMAT must be conll2012 or universal_propbank, not ' + format;
data.readers({
  type: 'propbank_predicates',
  frames_reader: { type: reader_types[format] },
  token_indexers: {
    tokens: { type: 'single_id', lowercase_tokens: vectors.lowercase(true) },
    token_characters: { type: 'characters', min_padding_length: 3 },
  },
}) + {
  train_data_path: std.extVar('SRL_TRAIN_DATA'),
  validation_data_path: std.extVar('SRL_DEV_DATA'),
  test_data_path: std.extVar('SRL_TEST_DATA'),
  evaluate_on_test: true,
  datasets_for_vocab_creation: data.vocabulary_splits(word_vectors),
  model: {
    type: 'predicate_tagger',
    dropout: 0.3,
    text_field_embedder: {
      token_embedders: {
        tokens: { type: 'embedding', embedding_dim: vectors.dim(100), trainable: true }
                + (if word_vectors != '' then { pretrained_file: word_vectors } else {}),
        token_characters: {
          type: 'character_encoding',
          embedding: { embedding_dim: 16 },
          encoder: { type: 'cnn', embedding_dim: 16, num_filters: 64, ngram_filter_sizes: [3], conv_layer_activation: 'relu' },
        },
      },
    },
    encoder: { type: 'lstm', hidden_size: 100, num_layers: 1, bidirectional: true },
  },
  data_loader: { batch_sampler: { type: 'bucket', batch_size: devices.batch_size(32) } },
  trainer: {
    optimizer: { type: 'adam', lr: 0.001 },
    num_epochs: 30,
    patience: 5,
    validation_metric: '+predicate-f1',
  },
} + devices.config
