#!/usr/bin/env bash
# Trains a biLM for the suite to bundle, on a mixed corpus (docs/bilm.md; the bundled one was trained
# by this script's first version, 2c4bc6e: bundled/bilm/MODEL_CARD.md), resuming wherever it stopped:
#
#   1. the corpus: LitBank's novels and the tasks' training text, shuffled together
#      (scripts/prepare_lm_corpus.py --sources ...), and its vocabulary (words seen 3 times or more);
#   2. the pilot: one pass over the corpus's first PILOT_LINES lines for each size in SIZES
#      (configs/bilm/options_<size>.json), exported to WORK/export_<size>; then
#      `BILM_WORK=WORK allennlp reproduce plans/bilm_pilot.jsonnet` judges them by NER dev F1;
#   3. the winner (WINNER, one of SIZES) goes on from its pilot model over the rest of the corpus,
#      REST_LINES lines of it (default all), and is exported to WORK/export_final.
#   4. (while 3 trains) `checkpoint` exports its latest checkpoint (one pass: named by its update) to
#      WORK/export_b<update>, with its perplexity on the held-out sample, to judge it as the pilot was.
# Each export gets its held-out perplexity per source (perplexity_by_source.md, scripts/bilm_perplexity.py).
#
#   nohup bash scripts/train_bundled_bilm.sh pilot > bilm_work/pilot.log 2>&1 &
#   WINNER=384x256 nohup bash scripts/train_bundled_bilm.sh final > bilm_work/final.log 2>&1 &
#
# Each step is skipped when its output is there; an interrupted training resumes (--recover).
# One torch thread at low priority by default (OMP_NUM_THREADS, NICE), beside other work.
set -euo pipefail
cd "$(dirname "$0")/.."

step="${1:?usage: train_bundled_bilm.sh corpus|pilot|final|checkpoint}"
work="${WORK:-bilm_work}"
sizes="${SIZES:-768x128 384x256}"
pilot_lines="${PILOT_LINES:-100000}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
allennlp=(nice -n "${NICE:-10}" .venv/bin/allennlp)
corpus="$work/corpus_mixed"
vocabulary="$PWD/$work/vocab_mixed_min3.tar.gz"

if [ ! -s "$corpus/train.txt" ]; then
  .venv/bin/python scripts/prepare_lm_corpus.py --sources litbank squad conll2003 sst snli universal_propbank \
    --output-dir "$corpus"
fi
export BILM_HELDOUT_CORPUS="$PWD/$work/heldout_sample.txt"
[ -s "$BILM_HELDOUT_CORPUS" ] || awk 'NR % 10 == 0' "$corpus/heldout.txt" > "$BILM_HELDOUT_CORPUS"  # every 10th held-out line: evaluation in minutes
if [ ! -s "$vocabulary" ]; then
  BILM_TRAIN_CORPUS="$PWD/$corpus/train.txt" "${allennlp[@]}" build-vocab configs/bilm_pretrain.jsonnet "$vocabulary"
fi

train() {  # train RUN_DIR OPTIONS_FILE OVERRIDES: one pass, resumed when interrupted
  local run="$1" options="$2" overrides="$3" recover=()
  [ -f "$run/model.tar.gz" ] && return 0
  [ -f "$run/config.json" ] && recover=(--recover)
  BILM_OPTIONS_FILE="$PWD/$options" "${allennlp[@]}" train configs/bilm_pretrain.jsonnet -s "$run" "${recover[@]}" -o "$overrides"
}
common='"vocabulary": {"type": "from_files", "directory": "'"$vocabulary"'"}, "trainer.num_epochs": 1'

by_source() {  # by_source RUN_DIR EXPORT_DIR: held-out perplexity per source of the corpus, beside the export
  local table="$2/perplexity_by_source.md"
  [ -s "$table" ] && return 0
  nice -n "${NICE:-10}" .venv/bin/python scripts/bilm_perplexity.py "$1" "$corpus"/heldout_*.txt > "$table.partial"
  mv "$table.partial" "$table"
}

case "$step" in
  corpus) ;;
  pilot)
    [ -s "$work/pilot_train.txt" ] || head -n "$pilot_lines" "$corpus/train.txt" > "$work/pilot_train.txt"
    for size in $sizes; do
      BILM_TRAIN_CORPUS="$PWD/$work/pilot_train.txt" train "$work/pilot_$size" "configs/bilm/options_$size.json" "{$common, \"model.num_samples\": 2048}"
      [ -s "$work/export_$size/weights.hdf5" ] || .venv/bin/allennlp export-bilm "$work/pilot_$size/model.tar.gz" "$work/export_$size"
      by_source "$work/pilot_$size" "$work/export_$size"
    done
    ;;
  final)
    winner="${WINNER:?set WINNER to the pilot size that added most to NER}"
    rest="$work/train_rest.txt"
    [ -s "$rest" ] || tail -n +"$((pilot_lines + 1))" "$corpus/train.txt" | head -n "${REST_LINES:-100000000}" > "$rest"
    # The pilot's model, its softmax (2,048 samples a batch) and all; only the optimiser's state starts afresh.
    from_pilot='"model": {"type": "from_archive", "archive_file": "'"$PWD/$work/pilot_$winner/model.tar.gz"'"}'
    BILM_TRAIN_CORPUS="$PWD/$rest" train "$work/final_$winner" "configs/bilm/options_$winner.json" "{$common, $from_pilot}"
    [ -s "$work/export_final/weights.hdf5" ] || .venv/bin/allennlp export-bilm "$work/final_$winner/model.tar.gz" "$work/export_final"
    by_source "$work/final_$winner" "$work/export_final"
    ;;
  checkpoint)
    winner="${WINNER:?set WINNER to the pilot size that added most to NER}"
    run="$work/final_$winner"
    latest="$(ls -t "$run"/model_state_e*_b*.th 2>/dev/null | head -n 1)"
    [ -n "$latest" ] || { echo "train_bundled_bilm.sh: no checkpoint in $run yet" >&2; exit 1; }
    update="${latest##*_b}"; update="${update%.th}"
    snapshot="$work/snapshot_b$update" export="$work/export_b$update"
    mkdir -p "$snapshot"
    cp -r "$run/config.json" "$run/vocabulary" "$snapshot/"
    ln -sfn "$(realpath "$latest")" "$snapshot/weights.th"
    [ -s "$export/weights.hdf5" ] || .venv/bin/allennlp export-bilm "$snapshot" "$export"
    [ -s "$export/perplexity_heldout_sample.md" ] || nice -n "${NICE:-10}" .venv/bin/python scripts/bilm_perplexity.py \
      "$snapshot" "$BILM_HELDOUT_CORPUS" > "$export/perplexity_heldout_sample.md"
    cat "$export/perplexity_heldout_sample.md"
    ;;
  *) echo "train_bundled_bilm.sh: unknown step $step (corpus, pilot, final or checkpoint)" >&2; exit 2 ;;
esac
