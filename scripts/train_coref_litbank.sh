#!/usr/bin/env bash
# Trains and evaluates coreference on one of LitBank's ten splits, sized for a small CPU.
#
#   bash scripts/train_coref_litbank.sh            # split 0, configs/coref_elmo.jsonnet
#   SPLIT=3 CONFIG=configs/coref_baseline.jsonnet bash scripts/train_coref_litbank.sh
#
# Writes the split's train/dev/test files to $DATA_DIR (scripts/litbank_coref_split.py), trains
# $CONFIG into $RUN_DIR with the smaller settings below, and evaluates the best model on the test
# documents twice: as the reference scorer would score LitBank's own files (its gold singletons
# included, `metrics.json`) and with gold singletons removed (`test_without_singletons.json`).
#
# What the CPU settings change from the paper's (configs/lib/coref.libsonnet), all overridable:
#   TRAIN_SENTENCES  training documents cropped to this many random consecutive sentences (paper: 50)
#   EVAL_SENTENCES   dev and test documents cut to their first this many sentences (paper: whole)
#   MAX_ANTECEDENTS  antecedents scored per span (paper: 250)
#   EPOCHS           training epochs (paper: up to 150, early stopping)
# Everything else (spans of up to 10 words, 0.4 spans per word, the model's sizes) is the paper's.
# OMP_NUM_THREADS defaults to 1: on a CPU shared with other jobs, torch's small operations ran
# about ten times faster on one thread than on two competing ones. Set it higher on a free machine.
set -euo pipefail
cd "$(dirname "$0")/.."

LITBANK=${LITBANK:-../shared/data/litbank}
SPLIT=${SPLIT:-0}
CONFIG=${CONFIG:-configs/coref_elmo.jsonnet}
DATA_DIR=${DATA_DIR:-runs/litbank_coref_data_$SPLIT}
RUN_DIR=${RUN_DIR:-runs/coref_litbank_$SPLIT}
TRAIN_SENTENCES=${TRAIN_SENTENCES:-8}
EVAL_SENTENCES=${EVAL_SENTENCES:-20}
MAX_ANTECEDENTS=${MAX_ANTECEDENTS:-30}
EPOCHS=${EPOCHS:-2}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
PYTHON=${PYTHON:-python}
ALLENNLP=${ALLENNLP:-allennlp}

eval "$("$PYTHON" scripts/litbank_coref_split.py --litbank "$LITBANK" --split "$SPLIT" --output-dir "$DATA_DIR")"

overrides=$(cat <<EOF
{"dataset_reader.max_training_sentences": $TRAIN_SENTENCES,
 "validation_dataset_reader.max_sentences": $EVAL_SENTENCES,
 "model.max_antecedents": $MAX_ANTECEDENTS,
 "trainer.num_epochs": $EPOCHS}
EOF
)
echo "Training $CONFIG on LitBank split $SPLIT into $RUN_DIR with $overrides"
time "$ALLENNLP" train "$CONFIG" -s "$RUN_DIR" -o "$overrides"

time "$ALLENNLP" evaluate "$RUN_DIR/model.tar.gz" "$COREF_TEST_DATA" \
    -o '{"validation_dataset_reader.remove_singleton_clusters": true}' \
    --output-file "$RUN_DIR/test_without_singletons.json"
