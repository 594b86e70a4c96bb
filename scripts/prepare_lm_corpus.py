"""
Turns LitBank's 100 public-domain novels into a tokenised corpus for pretraining the suite's own
biLM: one sentence per line, tokens separated by single spaces, UTF-8, case and punctuation kept.

    python scripts/prepare_lm_corpus.py --workers 1

All options, with their defaults:

    python scripts/prepare_lm_corpus.py [--novels $SHARED_DATA_DIR/litbank/original]
        [--output-dir bilm_work/corpus] [--skip-words 2000] [--heldout-percent 2]
        [--max-novels N] [--workers 1]

Tokens and sentences come from the suite's own offline tokenizer (`BlankSpacyTokenizer`), so the
biLM sees text tokenised exactly as the tasks that use it. Gutenberg text is hard-wrapped: the
lines of a paragraph (paragraphs are separated by blank lines) are joined and their whitespace
normalised, and each paragraph is split on its own, so no sentence crosses a paragraph boundary
and only one novel is held in memory at a time.

LitBank's coreference documents are the opening ~2,000 tokens of each novel, and coreference is
evaluated on them, so they must stay out of the corpus: whole paragraphs are skipped from the start
of each novel until at least `--skip-words` whitespace-separated words have been skipped (the
paragraph that crosses the limit is skipped too). The documents end at a paragraph end, up to 2,959
words in (Gulliver's Travels); with the default of 2,000, the skipped paragraphs cover all 100 of
them, as checked against `litbank/coref/conll`.

The held-out slice is the last `--heldout-percent` percent (rounded up) of each novel's sentences.
Holding out whole novels would be too coarse with only 100 of them, and a contiguous tail means
held-out and training text of a novel meet at a single point rather than interleaving sentence by
sentence, which would leak near-duplicate context from training into held-out.

Writes `train.txt`, `heldout.txt` and `stats.json` (counts and the arguments) to `--output-dir`,
in sorted file-name order whatever the number of workers, so the output is deterministic.
"""
import argparse
import json
import math
import os
import sys
from contextlib import nullcontext
from functools import lru_cache, partial
from multiprocessing import Pool
from pathlib import Path
from typing import Dict, Iterator, List, Optional

from tqdm import tqdm

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from data_readers.tokenizers import BlankSpacyTokenizer  # noqa: E402

SHARED_DATA_DIR = Path(os.environ.get("SHARED_DATA_DIR", REPO_ROOT.parent / "shared" / "data"))
SPLITS = ("train", "heldout")


class CorpusError(Exception):
    """A problem with the input novels, reported to the user without a traceback."""


@lru_cache(maxsize=None)
def tokenizer() -> BlankSpacyTokenizer:
    """One tokenizer per process (worker processes build their own on first use)."""
    return BlankSpacyTokenizer()


def paragraphs(path: Path) -> Iterator[str]:
    """Yields the paragraphs of a file with their whitespace normalised to single spaces."""
    lines: List[str] = []
    offset = 0
    try:
        with open(path, "rb") as file:
            for raw_line in file:
                try:
                    line = raw_line.decode("utf-8")
                except UnicodeDecodeError as error:
                    raise CorpusError(f"{path}: not valid UTF-8 at byte offset {offset + error.start}") from None
                offset += len(raw_line)
                if line.strip():
                    lines.append(line)
                elif lines:
                    yield " ".join(" ".join(lines).split())
                    lines = []
    except OSError as error:
        raise CorpusError(f"{path}: cannot read ({error.strerror})") from None
    if lines:
        yield " ".join(" ".join(lines).split())


def process_novel(path: Path, skip_words: int, heldout_percent: float) -> Dict:
    """Tokenised sentences of one novel after its skipped opening, split into train and held-out."""
    sentences: List[str] = []
    words_skipped = 0
    for paragraph in paragraphs(path):
        if words_skipped < skip_words:
            words_skipped += len(paragraph.split())
            continue
        for sentence in tokenizer().split_sentences(paragraph):
            if sentence:
                sentences.append(" ".join(token.text for token in sentence))
    heldout_size = math.ceil(len(sentences) * heldout_percent / 100)
    split_at = len(sentences) - heldout_size
    return {
        "name": path.name,
        "words_skipped": words_skipped,
        "train": sentences[:split_at],
        "heldout": sentences[split_at:],
    }


def novel_files(novels: Path, max_novels: Optional[int]) -> List[Path]:
    """The novels' `.txt` files in sorted name order, at most `max_novels` of them."""
    if not novels.is_dir():
        raise CorpusError(f"{novels}: novels folder not found (set --novels or SHARED_DATA_DIR)")
    files = sorted(novels.glob("*.txt"), key=lambda path: path.name)
    if not files:
        raise CorpusError(f"{novels}: no .txt novels in this folder")
    return files[:max_novels]


def prepare(args: argparse.Namespace) -> Dict:
    """Writes the corpus files and returns the statistics written to `stats.json`."""
    files = novel_files(args.novels, args.max_novels)
    args.output_dir.mkdir(parents=True, exist_ok=True)
    process = partial(process_novel, skip_words=args.skip_words, heldout_percent=args.heldout_percent)
    totals = {split: {"sentences": 0, "tokens": 0} for split in SPLITS}
    per_novel = {}
    partial_paths = {split: args.output_dir / f"{split}.txt.partial" for split in SPLITS}
    outputs = {split: open(partial_paths[split], "w", encoding="utf-8") for split in SPLITS}
    try:
        with Pool(args.workers) if args.workers > 1 else nullcontext() as pool:
            novels = pool.imap(process, files) if pool else map(process, files)
            for novel in tqdm(novels, total=len(files), desc="novels", unit="novel"):
                for split in SPLITS:
                    for sentence in novel[split]:
                        outputs[split].write(sentence + "\n")
                        totals[split]["tokens"] += sentence.count(" ") + 1
                    totals[split]["sentences"] += len(novel[split])
                per_novel[novel["name"]] = {
                    "words_skipped": novel["words_skipped"],
                    **{f"{split}_sentences": len(novel[split]) for split in SPLITS},
                }
    except BaseException:
        for path in partial_paths.values():
            path.unlink()
        raise
    finally:
        for output in outputs.values():
            output.close()
    for split in SPLITS:
        os.replace(partial_paths[split], args.output_dir / f"{split}.txt")
    stats = {
        "novels": len(files),
        "words_skipped": sum(novel["words_skipped"] for novel in per_novel.values()),
        **totals,
        "arguments": {name: str(value) if isinstance(value, Path) else value for name, value in vars(args).items()},
        "per_novel": per_novel,
    }
    (args.output_dir / "stats.json").write_text(json.dumps(stats, indent=2) + "\n", encoding="utf-8")
    return stats


def main(argv: Optional[List[str]] = None) -> Dict:
    """Parses the command line, writes the corpus, prints its counts and returns its statistics."""
    parser = argparse.ArgumentParser(description=__doc__.strip().split("\n\n")[0])
    parser.add_argument("--novels", type=Path, default=SHARED_DATA_DIR / "litbank" / "original",
                        help="folder of LitBank's original novels (.txt)")
    parser.add_argument("--output-dir", type=Path, default=REPO_ROOT / "bilm_work" / "corpus")
    parser.add_argument("--skip-words", type=int, default=2000,
                        help="leave out whole paragraphs at the start of each novel until this many words are skipped")
    parser.add_argument("--heldout-percent", type=float, default=2.0,
                        help="percentage of each novel's sentences, taken from its end, that go to heldout.txt")
    parser.add_argument("--max-novels", type=int, default=None, help="only the first N novels (for quick tests)")
    parser.add_argument("--workers", type=int, default=1, help="processes tokenising novels in parallel")
    args = parser.parse_args(argv)
    try:
        stats = prepare(args)
    except CorpusError as error:
        raise SystemExit(f"prepare_lm_corpus: error: {error}") from None
    counts = [f"{split}: {stats[split]['sentences']} sentences, {stats[split]['tokens']} tokens" for split in SPLITS]
    print(f"{stats['novels']} novels, {stats['words_skipped']} words skipped; {'; '.join(counts)}")
    print(f"written to {args.output_dir}")
    return stats


if __name__ == "__main__":
    main()
