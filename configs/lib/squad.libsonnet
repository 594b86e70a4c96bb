// The SQuAD 1.1 experiment (Peters et al. 2018, §5.1 and §A.4), shared by squad_elmo.jsonnet,
// squad_baseline.jsonnet, squad_bidaf_baseline.jsonnet and configs/ablations/squad_*.jsonnet.
//
// model 'clark_gardner' (the paper's): Clark & Gardner (2017), BiDAF with GRUs and a residual
// self-attention layer (tasks/squad/model.py): 300-d word embeddings, a character CNN (20-d
// characters, 100 filters of width 5, max-pooled), bidirectional GRUs of 90, linear layers of 180,
// variational dropout 0.2, spans of at most 17 tokens; Adadelta (lr 1.0, TensorFlow's rho 0.95 and
// epsilon 1e-8), batch 45, 26 epochs, an exponential moving average of the weights (decay 0.999)
// for validation and the archive. ELMo (when `use_elmo`) at the input and the output of the
// contextual GRU, λ = 0, no layer norm, no dropout of its own (the model's applies).
// model 'bidaf': allennlp-models' BiDAF (Seo et al. 2017) with its own training_config settings
// (highway 2, LSTMs of 100, Adam, batch 40), scored with the same reader and metric; no ELMo.
local data = import 'data.libsonnet';
local devices = import 'devices.libsonnet';
local elmo = import 'elmo.libsonnet';
local vectors = data.word_vectors('SQUAD');
local word_vectors = vectors.path;

// `elmo_overrides`: changes to the paper's ELMo settings for SQuAD (elmo.libsonnet); the
// ablations of Tables 2 and 3 are such overrides. γ starts at 0.1, not the paper's 1 (ablation
// `gamma_1`): at 1 the bundled biLM's mixed vector is about 90% of the variance where it enters; from
// 0.1, dev F1 after 3 epochs was 37.38 against 29.19 for the baseline and 29.01 for γ = 1 (2 seeds
// each, docs/elmo_losses.md), γ growing to about 0.2 as it learned.
function(use_elmo, elmo_overrides={}, model='clark_gardner')
  assert model == 'clark_gardner' || model == 'bidaf' : "model must be 'clark_gardner' or 'bidaf', not " + model;
  assert !(use_elmo && model == 'bidaf') : "the 'bidaf' option has no ELMo";
  local settings = elmo.settings({ lambda: 0.0, input: true, output: true, layer_norm: false, dropout: 0.0, gamma: 0.1 } + elmo_overrides);

  // The paper's word vectors (GloVe 840B, 300-d, cased) are fixed; without them words are learned.
  local word_embedding(dim) = { type: 'embedding', embedding_dim: dim, trainable: word_vectors == '' }
                              + (if word_vectors != '' then { pretrained_file: word_vectors } else {});
  local characters(dim) = {
    type: 'character_encoding',
    embedding: { embedding_dim: dim },
    encoder: { type: 'cnn', embedding_dim: dim, num_filters: 100, ngram_filter_sizes: [5], conv_layer_activation: 'relu' },
  };
  local gru = { type: 'gru', hidden_size: 90, bidirectional: true };

  local models = {
    clark_gardner: {
      model: {
        type: 'bidaf_self_attention',
        text_field_embedder: { token_embedders: { tokens: word_embedding(vectors.dim(300)), token_characters: characters(20) } },
        contextual_encoder: gru,
        self_attention_encoder: gru,
        span_start_encoder: gru,
        span_end_encoder: gru,
        linear_dim: 180,
        dropout: 0.2,
        max_span_length: 17,
        elmo_at_input: use_elmo && settings.input,
        elmo_at_output: use_elmo && settings.output,
        [if use_elmo then 'elmo']: elmo.module(settings, (if settings.input then 1 else 0) + (if settings.output then 1 else 0)),
        [if use_elmo then 'regularizer']: elmo.regularizer(settings),
      },
      data_loader: { batch_sampler: { type: 'bucket', batch_size: devices.batch_size(45), sorting_keys: ['passage'] } },
      trainer: {
        optimizer: { type: 'adadelta', lr: 1.0, rho: 0.95, eps: 1e-8 },
        moving_average: { type: 'resumable_exponential', decay: 0.999 },
        num_epochs: 26,
        validation_metric: '+f1',
      },
    },
    // allennlp-models' training_config/rc/bidaf.jsonnet, with learned 100-d words unless vectors are given.
    bidaf: {
      local word_dim = vectors.dim(100),
      model: {
        type: 'bidaf_squad_v1',
        text_field_embedder: { token_embedders: { tokens: word_embedding(word_dim), token_characters: characters(16) } },
        num_highway_layers: 2,
        phrase_layer: { type: 'lstm', bidirectional: true, input_size: word_dim + 100, hidden_size: 100 },
        matrix_attention: { type: 'linear', combination: 'x,y,x*y', tensor_1_dim: 200, tensor_2_dim: 200 },
        modeling_layer: { type: 'lstm', bidirectional: true, input_size: 800, hidden_size: 100, num_layers: 2, dropout: 0.2 },
        span_end_encoder: { type: 'lstm', bidirectional: true, input_size: 1400, hidden_size: 100 },
        dropout: 0.2,
      },
      data_loader: { batch_sampler: { type: 'bucket', batch_size: devices.batch_size(40), sorting_keys: ['passage'] } },
      trainer: {
        optimizer: { type: 'adam', lr: 0.001, betas: [0.9, 0.9] },
        learning_rate_scheduler: { type: 'reduce_on_plateau', factor: 0.5, mode: 'max', patience: 2 },
        grad_norm: 5.0,
        num_epochs: 20,
        patience: 10,
        validation_metric: '+em',
      },
    },
  };

  data.readers({
    type: 'squad_v1',
    tokenizer: { type: 'blank_spacy' },
    token_indexers: {
      tokens: { type: 'single_id', lowercase_tokens: vectors.lowercase(false) },
      token_characters: { type: 'characters', min_padding_length: 5 },
    } + (if use_elmo then { elmo: elmo.indexer } else {}),
  }) + {
    train_data_path: std.extVar('SQUAD_TRAIN_DATA'),
    validation_data_path: std.extVar('SQUAD_DEV_DATA'),
    datasets_for_vocab_creation: data.vocabulary_splits(word_vectors, ['train', 'validation']),
  } + models[model] + devices.config
