"""
Held-out perplexity of a trained biLM (an `allennlp train configs/bilm_pretrain.jsonnet` archive, a
run folder with model.tar.gz, or a checkpoint's folder of config.json, vocabulary/ and weights.th) on
one or more text files, one row per file: the per-source figures of
bundled/bilm/MODEL_CARD.md.

    python scripts/bilm_perplexity.py bilm_work/final_384x256/model.tar.gz bilm_work/corpus_mixed/heldout_*.txt

Each file is read as the biLM trains (one sentence per line, tokens separated by spaces, streams
unrolled 20 steps, the LSTM state carried along each stream) with the full softmax over the
archive's vocabulary. Small files get fewer streams (at least 50 windows each, at most
`--streams`), so few of their tokens are left over; the table says how many tokens were scored.
"""

import argparse
import math
import sys
from pathlib import Path
from typing import Dict

from allennlp.data.data_loaders import MultiProcessDataLoader
from allennlp.models.archival import load_archive
from allennlp.training.util import evaluate

import tasks  # noqa: F401  (registers the suite's biLM and reader)
from data_readers.lm_corpus import LanguageModelStreamsReader

MIN_WINDOWS_PER_STREAM = 50


def perplexity_of(model, path: Path, max_streams: int, unroll_steps: int) -> Dict[str, float]:
    """The model's forward, backward and mean perplexity on `path`, and the tokens scored."""
    tokens = sum(len(line.split()) + 2 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    streams = max(1, min(max_streams, tokens // (MIN_WINDOWS_PER_STREAM * unroll_steps)))
    reader = LanguageModelStreamsReader(num_streams=streams, unroll_steps=unroll_steps)
    loader = MultiProcessDataLoader(reader, str(path), batch_size=streams, shuffle=False)
    loader.index_with(model.vocab)
    metrics = evaluate(model, loader, cuda_device=-1)
    scored = sum(1 for _ in loader.iter_instances()) * unroll_steps
    return {
        "tokens": scored,
        "streams": streams,
        **{name: metrics[name] for name in ("forward_perplexity", "backward_perplexity", "perplexity")},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive", help="model.tar.gz of a biLM training run, its run folder, or a checkpoint's folder")
    parser.add_argument("files", nargs="+", type=Path, help="held-out text, one sentence per line")
    parser.add_argument("--streams", type=int, default=64, help="streams per batch for large files (default 64)")
    args = parser.parse_args()
    archive = Path(args.archive)
    if (archive / "model.tar.gz").is_file():
        archive = archive / "model.tar.gz"  # a training run's folder
    loaded = load_archive(str(archive), cuda_device=-1)  # or a folder of config.json, weights.th and vocabulary
    model = loaded.model
    model.eval()
    unroll_steps = loaded.config["dataset_reader"].get("unroll_steps", 20)
    print(f"biLM: {args.archive}\n")
    print("| held-out file | tokens scored (per direction) | forward | backward | perplexity |")
    print("|---|---|---|---|---|")
    for path in args.files:
        result = perplexity_of(model, path, args.streams, unroll_steps)
        if not all(math.isfinite(result[k]) for k in ("forward_perplexity", "backward_perplexity")):
            sys.exit(f"{path}: perplexity is not finite: {result}")
        print(
            f"| {path.name} | {result['tokens']:,} | {result['forward_perplexity']:.1f} | "
            f"{result['backward_perplexity']:.1f} | {result['perplexity']:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
