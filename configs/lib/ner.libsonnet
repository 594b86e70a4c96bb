// The NER experiment (Peters et al. 2018, §A.7), shared by ner_elmo.jsonnet and ner_baseline.jsonnet:
// BiLSTM-CRF with word embeddings and a character CNN, and ELMo at the input when `use_elmo`.
local data = import 'data.libsonnet';
local devices = import 'devices.libsonnet';
local elmo = import 'elmo.libsonnet';
local vectors = data.word_vectors('NER');
local word_vectors = vectors.path;

// `elmo_overrides`: changes to the paper's ELMo settings for NER (elmo.libsonnet): λ = 0.1, input
// only, no dropout on ELMo itself (the model's dropout of 0.5 applies to all embeddings).
function(use_elmo, elmo_overrides={})
  local elmo_settings = elmo.settings({ lambda: 0.1, dropout: 0.0 } + elmo_overrides);
  data.readers({
    type: 'conll2003_ner',
    coding_scheme: 'BIOUL',
    token_indexers: {
      tokens: { type: 'single_id', lowercase_tokens: vectors.lowercase(true) },
      token_characters: { type: 'characters', min_padding_length: 3 },
    } + (if use_elmo then { elmo: elmo.indexer } else {}),
  }) + {
  train_data_path: std.extVar('NER_TRAIN_DATA'),
  validation_data_path: std.extVar('NER_DEV_DATA'),
  test_data_path: std.extVar('NER_TEST_DATA'),
  evaluate_on_test: true,
  datasets_for_vocab_creation: data.vocabulary_splits(word_vectors),
  // Every BIOUL tag of each entity type the training data has, so that a dev or test entity of a length
  // training never had (I-LOC where every location was short) is scored (tasks/common/labels.py).
  vocabulary: { type: 'complete_tag_schemes', tag_schemes: { labels: 'BIOUL' } },
  model: {
    type: 'bilstm_crf_tagger',
    label_encoding: 'BIOUL',
    dropout: 0.5,
    text_field_embedder: {
      token_embedders: {
        tokens: { type: 'embedding', embedding_dim: vectors.dim(50), trainable: true }
                + (if word_vectors != '' then { pretrained_file: word_vectors } else {}),
        token_characters: {
          type: 'character_encoding',
          // Sized by the character vocabulary (Embedding's default namespace is the words').
          embedding: { embedding_dim: 16, vocab_namespace: 'token_characters' },
          encoder: { type: 'cnn', embedding_dim: 16, num_filters: 128, ngram_filter_sizes: [3], conv_layer_activation: 'relu' },
        },
      } + (if use_elmo then { elmo: elmo.token_embedder(elmo_settings) } else {}),
    },
    encoder: { type: 'lstm', hidden_size: 200, num_layers: 2, dropout: 0.5, bidirectional: true },
    [if use_elmo then 'regularizer']: elmo.regularizer(elmo_settings),
  },
  data_loader: { batch_sampler: { type: 'bucket', batch_size: devices.batch_size(64) } },
  trainer: {
    optimizer: { type: 'adam', lr: 0.001 },
    grad_norm: 5.0,
    num_epochs: 75,
    patience: 25,
    validation_metric: '+f1-measure-overall',
  },
} + devices.config
