// Pretraining a biLM for ELMo: Peters et al. 2018, "Deep contextualized word representations", §3,
// trained as bilm-tf trains (Jozefowicz et al. 2016): character CNN, forward and backward LSTM
// stacks with projections, shared sampled softmax, truncated backpropagation over 20 steps with the
// state carried between batches, Adagrad 0.2 (initial accumulator 1.0), gradient norm 10, dropout 0.1.
// Architecture: BILM_OPTIONS_FILE (a bilm-tf options.json); unset, the bundled biLM's options.
// Data: BILM_TRAIN_CORPUS and BILM_HELDOUT_CORPUS, one tokenised sentence per line; unset, the
// sentences of our bundled NER sample. Metric: held-out perplexity (forward, backward, geometric mean).
// The paper's biLM (1B Word Benchmark, 2x4096_512): 39.7 average perplexity (forward and backward).
// Export for ELMo: allennlp export-bilm RUN_DIR/model.tar.gz OUTPUT_DIR
local devices = import 'lib/devices.libsonnet';
local streams = 64;  // the batch size: each row is one stream of text

{
  dataset_reader: { type: 'lm_streams', num_streams: streams, unroll_steps: 20, tokenized: true },
  train_data_path: std.extVar('BILM_TRAIN_CORPUS'),
  validation_data_path: std.extVar('BILM_HELDOUT_CORPUS'),
  datasets_for_vocab_creation: ['train'],
  vocabulary: { type: 'from_instances', min_count: { tokens: 3 } },
  model: { type: 'bilm', options_file: std.extVar('BILM_OPTIONS_FILE'), dropout: 0.1, num_samples: 8192 },
  // In order, one stream per row: no shuffling, no bucketing.
  data_loader: { batch_size: streams, shuffle: false, max_instances_in_memory: streams * 100 },
  trainer: {
    optimizer: { type: 'adagrad', lr: 0.2, initial_accumulator_value: 1.0 },
    grad_norm: 10.0,
    num_epochs: 10,
    validation_metric: '-perplexity',
    checkpointer: { save_every_num_seconds: 1800 },
  },
} + devices.single_process_config('its streams of text run on from one batch to the next')
