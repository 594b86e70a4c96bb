#!/usr/bin/env bash
# Trains the biLM the suite bundles, from LitBank's novels, resuming wherever it stopped:
# prepares the corpus and the vocabulary once, then runs (or, with a run directory present,
# recovers) `allennlp train configs/bilm_pretrain.jsonnet`. Meant to run in the background:
#
#   nohup bash scripts/train_bundled_bilm.sh > bilm_work/train.log 2>&1 &
#
# WORK (default bilm_work, git-ignored) holds everything; OPTIONS picks the architecture
# (default configs/bilm/options_cpu.json); EPOCHS the passes over the corpus (default 3);
# SHARED_DATA_DIR the folder with litbank/original (default ../shared/data).
set -euo pipefail
cd "$(dirname "$0")/.."

work="${WORK:-bilm_work}"
options="${OPTIONS:-configs/bilm/options_cpu.json}"
epochs="${EPOCHS:-3}"
allennlp=.venv/bin/allennlp

if [ ! -s "$work/corpus/train.txt" ]; then
  .venv/bin/python scripts/prepare_lm_corpus.py --output-dir "$work/corpus"
fi
export BILM_TRAIN_CORPUS="$PWD/$work/corpus/train.txt" BILM_HELDOUT_CORPUS="$PWD/$work/corpus/heldout.txt"
export BILM_OPTIONS_FILE="$PWD/$options"
if [ ! -s "$work/vocab_min3.tar.gz" ]; then
  "$allennlp" build-vocab configs/bilm_pretrain.jsonnet "$work/vocab_min3.tar.gz"
fi
overrides="{\"vocabulary\": {\"type\": \"from_files\", \"directory\": \"$work/vocab_min3.tar.gz\"},
            \"model.num_samples\": 2048, \"trainer.num_epochs\": $epochs}"
name="$(basename "$options" .json)"
name="${name#options_}"
run="$work/run_$name"
if [ -f "$run/config.json" ]; then
  "$allennlp" train configs/bilm_pretrain.jsonnet -s "$run" -o "$overrides" --recover
else
  "$allennlp" train configs/bilm_pretrain.jsonnet -s "$run" -o "$overrides"
fi
"$allennlp" export-bilm "$run/model.tar.gz" "$work/export_$name"
