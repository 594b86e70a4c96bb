#!/usr/bin/env bash
# Trains a SQuAD config on the real SQuAD 1.1 at a size a 2-core CPU gets through in about 20 minutes
# (docs/squad.md, "A run on the real data"): a seeded TRAIN_LIMIT of the training questions
# (configs/lib/data.libsonnet), EPOCHS epochs, and validation on a seeded sample of DEV_QUESTIONS
# dev questions (scripts/squad_subset.py) instead of all 10,570. Niced; prints the final metrics.
#
#   bash scripts/train_squad_cpu.sh                       # configs/squad_elmo.jsonnet, the defaults below
#   CONFIG=configs/squad_baseline.jsonnet TRAIN_LIMIT=5000 EPOCHS=2 bash scripts/train_squad_cpu.sh
#
# Variables: SQUAD_DIR (dev-v1.1.json and the training file), SQUAD_TRAIN_FILE, CONFIG, RUN_DIR,
# TRAIN_LIMIT, EPOCHS, DEV_QUESTIONS, and the usual ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE.
# All training questions are read and tokenised before TRAIN_LIMIT picks its part (about a minute
# of CPU for SQuAD's 87,599). Evaluate on the whole dev set afterwards with
#   allennlp evaluate "$RUN_DIR/model/model.tar.gz" "$SQUAD_DIR/dev-v1.1.json"
set -euo pipefail
cd "$(dirname "$0")/.."

SQUAD_DIR=${SQUAD_DIR:-../shared/data/squad}
SQUAD_TRAIN_FILE=${SQUAD_TRAIN_FILE:-$SQUAD_DIR/train-v1.1.reconstructed.json}
CONFIG=${CONFIG:-configs/squad_elmo.jsonnet}
RUN_DIR=${RUN_DIR:-runs/squad_cpu}
EPOCHS=${EPOCHS:-1}
DEV_QUESTIONS=${DEV_QUESTIONS:-500}
export TRAIN_LIMIT=${TRAIN_LIMIT:-2000}
PYTHON=${PYTHON:-.venv/bin/python}
ALLENNLP=${ALLENNLP:-$(dirname "$PYTHON")/allennlp}

if [ -e "$RUN_DIR/model" ]; then
    echo "$RUN_DIR/model exists: choose another RUN_DIR, or remove it" >&2
    exit 1
fi
mkdir -p "$RUN_DIR"
"$PYTHON" scripts/squad_subset.py "$SQUAD_DIR/dev-v1.1.json" --questions "$DEV_QUESTIONS" \
    --output "$RUN_DIR/dev-$DEV_QUESTIONS.json"
export SQUAD_TRAIN_DATA=$SQUAD_TRAIN_FILE SQUAD_DEV_DATA=$RUN_DIR/dev-$DEV_QUESTIONS.json

echo "$(date -Is) training $CONFIG: TRAIN_LIMIT=$TRAIN_LIMIT, EPOCHS=$EPOCHS, DEV_QUESTIONS=$DEV_QUESTIONS" >&2
time nice -n 10 "$ALLENNLP" train "$CONFIG" -s "$RUN_DIR/model" -o "{\"trainer.num_epochs\": $EPOCHS}"
cat "$RUN_DIR/model/metrics.json"
