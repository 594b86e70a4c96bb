// allennlp-models' own NER configs (training_config/tagging/ner.jsonnet and ner_elmo.jsonnet,
// allennlp-models 2.10.1), as they are, for the cross-check of docs/elmo_losses.md: the stock
// `crf_tagger` model, the stock `conll2003` reader and AllenNLP's stock `elmo_token_embedder`, none of
// the suite's model code. Changed only where this machine makes it necessary, each marked "here:":
// - the data of the cpu plan (NER_TRAIN_DATA, NER_DEV_DATA to select on, NER_TEST_DATA to test; the
//   stock ELMo config selects on the test set itself, the stock baseline on testa as here);
// - GloVe 6B 50-d from NER_WORD_VECTORS (the stock configs download the same file), and the bundled biLM
//   (ELMO_OPTIONS_FILE, ELMO_WEIGHT_FILE) for the stock 5.5B one; the encoder's input size follows it;
// - the device from DEVICES (configs/lib/devices.libsonnet), like every config of the suite.
local data = import 'data.libsonnet';
local devices = import 'devices.libsonnet';
local vectors = data.word_vectors('NER');

function(use_elmo)
  local elmo_dim = std.parseInt(std.extVar('ELMO_DIM'));  // from ELMO_OPTIONS_FILE (tasks/environment.py)
  data.readers({
    type: 'conll2003',
    tag_label: 'ner',
    convert_to_coding_scheme: 'BIOUL',  // here: the stock `coding_scheme` under its current name (that one is deprecated)
    token_indexers: {
      tokens: { type: 'single_id', lowercase_tokens: true },
      token_characters: { type: 'characters', min_padding_length: 3 },
    } + (if use_elmo then { elmo: { type: 'elmo_characters' } } else {}),
  }) + {
  train_data_path: std.extVar('NER_TRAIN_DATA'),
  validation_data_path: std.extVar('NER_DEV_DATA'),  // here: dev (the stock ELMo config: test)
  test_data_path: std.extVar('NER_TEST_DATA'),
  evaluate_on_test: true,  // here: the test set is scored after training
  model: {
    type: 'crf_tagger',
    label_encoding: 'BIOUL',
    constrain_crf_decoding: true,
    calculate_span_f1: true,
    dropout: 0.5,
    include_start_end_transitions: false,
    text_field_embedder: { token_embedders: {
      tokens: { type: 'embedding', embedding_dim: vectors.dim(50), trainable: true }
              + (if vectors.path != '' then { pretrained_file: vectors.path } else {}),  // here: a local file
      token_characters: {
        type: 'character_encoding',
        embedding: { embedding_dim: 16 },
        encoder: { type: 'cnn', embedding_dim: 16, num_filters: 128, ngram_filter_sizes: [3], conv_layer_activation: 'relu' },
      },
    } + (if use_elmo then { elmo: {
      type: 'elmo_token_embedder',
      options_file: std.extVar('ELMO_OPTIONS_FILE'),  // here: the biLM of the run
      weight_file: std.extVar('ELMO_WEIGHT_FILE'),
      do_layer_norm: false,
      dropout: 0.0,
    } } else {}) },
    encoder: {
      type: 'lstm',
      input_size: vectors.dim(50) + 128 + (if use_elmo then elmo_dim else 0),
      hidden_size: 200,
      num_layers: 2,
      dropout: 0.5,
      bidirectional: true,
    },
    [if use_elmo then 'regularizer']: { regexes: [['scalar_parameters', { type: 'l2', alpha: 0.1 }]] },
  },
  data_loader: { batch_sampler: { type: 'bucket', batch_size: devices.batch_size(64) } },
  trainer: {
    optimizer: { type: 'adam', lr: 0.001 },
    checkpointer: { keep_most_recent_by_count: 3 },
    validation_metric: '+f1-measure-overall',
    num_epochs: 75,
    grad_norm: 5.0,
    patience: 25,
  },
} + devices.config
