#!/usr/bin/env bash
# Train the SST-5 or SNLI experiment on real data, sized to finish in about 20 minutes on a 2-core CPU
# shared with other jobs: a check that the pipeline trains on the real data, not a reproduction of the
# paper's numbers (see docs/sst.md, docs/snli.md). Raise TRAIN_LIMIT and NUM_EPOCHS on a free machine.
#
#   bash scripts/train_on_shared_data.sh sst|snli [elmo|baseline] [serialization dir]
#
# Data: SHARED_DATA_DIR (default ../shared/data, see its README.md).
#   sst:  trains on a seeded TRAIN_LIMIT (default 4000) of train.txt's 93,570 phrases of 4 tokens or
#         more, validates on all 1,101 dev.txt sentences, tests on all 2,210 test.txt sentences.
#   snli: there is no SNLI train file, so scripts/split_for_selection.py splits snli_1.0_dev.jsonl by premise
#         (seed 13): 10% of the premises (984 pairs) are held out to validate on; it trains on a seeded
#         TRAIN_LIMIT (default 1000) of the other 8,858 pairs, and tests on all 9,824 pairs of
#         snli_1.0_test.jsonl.
# NUM_EPOCHS (default 2) caps the run; TRAIN_LIMIT (empty: all) / TRAIN_FRACTION take a seeded part of
# the training data; ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE choose the biLM (default: the bundled one).
# Runs niced, one torch thread (faster than two on a machine whose other core is busy).
set -euo pipefail
cd "$(dirname "$0")/.."

task=${1:-}
variant=${2:-elmo}
if [[ "$task" != sst && "$task" != snli ]] || [[ "$variant" != elmo && "$variant" != baseline ]]; then
  echo "usage: bash scripts/train_on_shared_data.sh sst|snli [elmo|baseline] [serialization dir]" >&2
  exit 2
fi
output=${3:-runs/shared_${task}_${variant}}
data=${SHARED_DATA_DIR:-../shared/data}
python=${PYTHON:-.venv/bin/python}
allennlp="$(dirname "$python")/allennlp"

if [[ "$task" == sst ]]; then
  export SST_TRAIN_DATA="$data/sst/train.txt" SST_DEV_DATA="$data/sst/dev.txt" SST_TEST_DATA="$data/sst/test.txt"
  export TRAIN_LIMIT=${TRAIN_LIMIT-4000}
else
  split_dir="$(dirname "$output")/snli_dev_split"
  "$python" scripts/split_for_selection.py "$data/snli/snli_1.0_dev.jsonl" "$split_dir" --heldout-fraction 0.1
  export TRAIN_LIMIT=${TRAIN_LIMIT-1000}
  export SNLI_TRAIN_DATA="$split_dir/train_part.jsonl" SNLI_DEV_DATA="$split_dir/heldout_part.jsonl"
  export SNLI_TEST_DATA="$data/snli/snli_1.0_test.jsonl"
fi
epochs=${NUM_EPOCHS:-2}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}

echo "Training configs/${task}_${variant}.jsonnet into $output: $epochs epochs, TRAIN_LIMIT=${TRAIN_LIMIT:-none}"
time nice -n 10 "$allennlp" train "configs/${task}_${variant}.jsonnet" -s "$output" \
  -o "{\"trainer.num_epochs\": $epochs}"
echo "Metrics: $output/metrics.json"
