// The SRL experiment (Peters et al. 2018, §A.5 and Table 1), shared by srl_elmo.jsonnet,
// srl_baseline.jsonnet and configs/ablations/srl_*.jsonnet: He et al.'s (2017) deep BIO tagger
// (tasks/srl/model.py). 100-d word embeddings (the paper: GloVe, fine-tuned; SRL_WORD_VECTORS) and
// a 100-d embedding of the binary predicate indicator, 8 interleaved highway LSTM layers of 300
// (AllenNLP's alternating_lstm, forward and backward by turns, as fast_alternating_lstm) with variational recurrent dropout
// 0.1, a linear layer to BIO tags (orthogonal initialisation), per-word cross-entropy, Viterbi
// decoding under the BIO constraints; Adadelta (lr 1.0, rho 0.95), gradients clipped at 1.0, 500
// epochs with patience 200, model selection on the official CoNLL-2005 F1 (tasks/srl/metrics.py).
// ELMo (when `use_elmo`) at the input only, λ = 0.001, dropout 0.1 on it (AllenNLP's published SRL
// ELMo configuration); Table 3 moves it with `input` / `output`.
//
// Data: SRL_TRAIN_DATA, SRL_DEV_DATA, SRL_TEST_DATA in SRL_DATA_FORMAT: 'conll2012' (the paper's
// CoNLL-2012 OntoNotes files, a file or a directory of *gold_conll files) or 'universal_propbank'
// (CoNLL-U with PropBank frames; the default, with our bundled sample, bundled/data/srl).
// On the bundled sample the schedule is cut to 15 epochs, patience 5, so it runs in minutes.
local data = import 'data.libsonnet';
local devices = import 'devices.libsonnet';
local elmo = import 'elmo.libsonnet';
local format = std.extVar('SRL_DATA_FORMAT');
local train = std.extVar('SRL_TRAIN_DATA');
local vectors = data.word_vectors('SRL');
local word_vectors = vectors.path;
local on_bundled_sample = std.endsWith(train, 'bundled/data/srl/train.conllu');

local reader_types = { conll2012: 'srl_conll2012', universal_propbank: 'srl_universal_propbank' };

// `elmo_overrides`: changes to the paper's ELMo settings for SRL (elmo.libsonnet); the ablations
// of Tables 2 and 3 are such overrides.
function(use_elmo, elmo_overrides={})
  assert std.objectHas(reader_types, format) : 'SRL_DATA_FORMAT must be conll2012 or universal_propbank, not ' + format;
  local settings = elmo.settings({ dropout: 0.1 } + elmo_overrides);
  local places = (if settings.input then 1 else 0) + (if settings.output then 1 else 0);
  data.readers({
    type: reader_types[format],
    token_indexers: {
      tokens: { type: 'single_id', lowercase_tokens: vectors.lowercase(true) },
    } + (if use_elmo then { elmo: elmo.indexer } else {}),
  }) + {
    train_data_path: train,
    validation_data_path: std.extVar('SRL_DEV_DATA'),
    test_data_path: std.extVar('SRL_TEST_DATA'),
    evaluate_on_test: true,
    datasets_for_vocab_creation: data.vocabulary_splits(word_vectors),
    // B- and I- of every role the training data has; a role it lacks altogether is scored as a miss
    // (data_readers/fields.py), never fatal.
    vocabulary: { type: 'complete_tag_schemes', tag_schemes: { labels: 'BIO' } },
    model: {
      type: 'deep_srl',
      text_field_embedder: {
        token_embedders: {
          tokens: { type: 'embedding', embedding_dim: vectors.dim(100), trainable: true }
                  + (if word_vectors != '' then { pretrained_file: word_vectors } else {}),
        },
      },
      binary_feature_dim: 100,
      // Not in the paper (given gold predicates): a 100-d biLSTM over the detached word embeddings
      // learns which words are predicates, so the archive alone labels raw text.
      predicate_finder_size: 100,
      // AllenNLP's alternating_lstm, computed faster with the same parameters (tasks/srl/alternating_lstm.py).
      encoder: { type: 'fast_alternating_lstm', hidden_size: 300, num_layers: 8, recurrent_dropout_probability: 0.1, use_highway: true },
      initializer: { regexes: [['tag_projection_layer.*weight', { type: 'orthogonal' }]] },
      elmo_at_input: use_elmo && settings.input,
      elmo_at_output: use_elmo && settings.output,
      [if use_elmo then 'elmo']: elmo.module(settings, places),
      [if use_elmo then 'regularizer']: elmo.regularizer(settings),
    },
    data_loader: { batch_sampler: { type: 'bucket', batch_size: devices.batch_size(80) } },
    trainer: {
      optimizer: { type: 'adadelta', lr: 1.0, rho: 0.95 },
      grad_clipping: 1.0,
      num_epochs: if on_bundled_sample then 15 else 500,
      patience: if on_bundled_sample then 5 else 200,
      validation_metric: '+f1-measure-overall',
    },
  } + devices.config
