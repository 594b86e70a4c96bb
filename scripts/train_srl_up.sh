#!/usr/bin/env bash
# SRL on Universal PropBank English EWT (CDLA-Sharing-1.0), end to end through the allennlp
# command, at a size a shared 2-core CPU runs in about 10 minutes (9 min 23 s with these defaults;
# docs/srl.md, "Results").
#
# The copy of UP EWT we have holds dev and test only, no train: this trains on dev and reports on
# test. It trains a fixed number of epochs without validation (no model selection on test: the
# last epoch is the model), lets `allennlp train` evaluate it on test, scores the same
# predictions every way AllenNLP users have seen (scripts/compare_srl_scores.py), then trains the
# predicate tagger the predictor needs for raw text and labels one sentence with both.
#
#   bash scripts/train_srl_up.sh [output directory]          (default: runs/srl_up)
#
# Variables (defaults in brackets):
#   UP_EWT_DIR        the en_ewt-up-{dev,test}.conllu files [../shared/data/srl_up_ewt]
#   SRL_CONFIG        [configs/srl_elmo.jsonnet]; configs/srl_baseline.jsonnet for no ELMo
#   SRL_LAYERS, SRL_HIDDEN   interleaved LSTM layers and their size [2, 200]; the paper: 8, 300,
#                     several times slower per batch on a CPU (AllenNLP's alternating_lstm steps
#                     through time in Python)
#   SRL_EPOCHS        [3]      PREDICATE_EPOCHS [4]
#   TRAIN_FRACTION, TRAIN_LIMIT   train on a seeded part of dev (configs/lib/data.libsonnet)
#   OMP_NUM_THREADS   [1]: on a CPU shared with other jobs, torch's second thread spins waiting
#                     and made our batches several times slower; raise it on an idle machine
#   ALLENNLP, PYTHON  the commands [allennlp, python]: run with the suite's environment active
set -euo pipefail
cd "$(dirname "$0")/.."

OUTPUT=${1:-runs/srl_up}
UP_EWT_DIR=${UP_EWT_DIR:-../shared/data/srl_up_ewt}
SRL_CONFIG=${SRL_CONFIG:-configs/srl_elmo.jsonnet}
ALLENNLP=${ALLENNLP:-allennlp}
PYTHON=${PYTHON:-python}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export SRL_DATA_FORMAT=universal_propbank
export SRL_TRAIN_DATA=$UP_EWT_DIR/en_ewt-up-dev.conllu
export SRL_DEV_DATA=$UP_EWT_DIR/en_ewt-up-test.conllu   # not used for validation (see above)
export SRL_TEST_DATA=$UP_EWT_DIR/en_ewt-up-test.conllu
for file in "$SRL_TRAIN_DATA" "$SRL_TEST_DATA"; do
  [[ -f $file ]] || { echo "train_srl_up.sh: $file not found; set UP_EWT_DIR" >&2; exit 1; }
done
mkdir -p "$OUTPUT"

no_validation='"validation_data_path": null, "trainer.patience": null'
srl_overrides="{$no_validation, \"model.encoder.num_layers\": ${SRL_LAYERS:-2}, \"model.encoder.hidden_size\": ${SRL_HIDDEN:-200}, \"trainer.num_epochs\": ${SRL_EPOCHS:-3}}"
predicate_overrides="{$no_validation, \"trainer.num_epochs\": ${PREDICATE_EPOCHS:-4}}"

echo "== SRL: $SRL_CONFIG on $SRL_TRAIN_DATA, overrides $srl_overrides"
time nice -n 10 "$ALLENNLP" train "$SRL_CONFIG" -s "$OUTPUT/srl" -o "$srl_overrides"
echo "== the same test predictions, scored every way"
time nice -n 10 "$PYTHON" scripts/compare_srl_scores.py "$OUTPUT/srl/model.tar.gz" "$SRL_TEST_DATA" \
  --output-file "$OUTPUT/srl/scores.json"

echo "== predicate tagger: configs/srl_predicates.jsonnet, overrides $predicate_overrides"
time nice -n 10 "$ALLENNLP" train configs/srl_predicates.jsonnet -s "$OUTPUT/predicates" -o "$predicate_overrides"

echo '{"sentence": "The committee approved the new budget on Friday after a long debate."}' > "$OUTPUT/input.jsonl"
nice -n 10 "$ALLENNLP" predict "$OUTPUT/srl/model.tar.gz" "$OUTPUT/input.jsonl" --silent \
  --predictor-args "{\"predicate_model\": \"$OUTPUT/predicates/model.tar.gz\"}" --output-file "$OUTPUT/predictions.jsonl"
cat "$OUTPUT/predictions.jsonl"
