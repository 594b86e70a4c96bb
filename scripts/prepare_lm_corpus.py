"""
Turns LitBank's 100 public-domain novels, and optionally the training text of the suite's tasks,
into a tokenised corpus for pretraining the suite's own biLM: one sentence per line, tokens
separated by single spaces, UTF-8, case and punctuation kept.

    python scripts/prepare_lm_corpus.py --workers 1
    python scripts/prepare_lm_corpus.py --sources litbank squad conll2003 sst snli universal_propbank \
        --output-dir bilm_work/corpus_mixed

All options, with their defaults:

    python scripts/prepare_lm_corpus.py [--novels $SHARED_DATA_DIR/litbank/original]
        [--output-dir bilm_work/corpus] [--skip-words 2000] [--heldout-percent 2]
        [--max-novels N] [--workers 1] [--sources litbank] [--seed 13]

The task sources are open text the suite's experiments train on, never a split they select or
test on (files under SHARED_DATA_DIR): `squad`, the contexts of SQuAD 1.1's training questions
(Wikipedia; each paragraph once, split into sentences); `conll2003`, eng.train's sentences;
`sst`, the sentences of SST's train.txt; `snli`, the distinct sentences of the part of SNLI's dev
file the suite trains on; `universal_propbank`, the part of Universal PropBank EWT's dev file the
suite's SRL trains on (both `scripts/split_for_selection.py`'s train_part, with its default seed and
fraction: the held-out part selects models, the test file tests them).
Each source's sentences are cut into chunks of 50 in file order and `--heldout-percent` of its
chunks, evenly spaced (at least one), are held out. With more than one source, the training chunks (the
novels' too) are shuffled together (`--seed`), so every stretch of training sees every source, and
each source's held-out text is also written alone (`heldout_<source>.txt`) for perplexity per source.

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

Writes `train.txt`, `heldout.txt` and `stats.json` (counts per source and the arguments) to
`--output-dir`, in sorted file-name order whatever the number of workers, so the output is
deterministic.
"""

import argparse
import json
import math
import os
import random
from contextlib import nullcontext
from functools import lru_cache, partial
from multiprocessing import Pool
from pathlib import Path
from typing import Dict, Iterator, List, Optional

from tqdm import tqdm

import split_for_selection
from data_readers.tokenizers import BlankSpacyTokenizer

REPO_ROOT = Path(__file__).resolve().parent.parent

SHARED_DATA_DIR = Path(os.environ.get("SHARED_DATA_DIR", REPO_ROOT.parent / "shared" / "data"))
SPLITS = ("train", "heldout")
TASK_SOURCES = ("squad", "conll2003", "sst", "snli", "universal_propbank")
SOURCES = ("litbank",) + TASK_SOURCES
CHUNK_SENTENCES = 50  # the unit of held-out slices and of shuffling


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


def task_sentences(source: str, data: Path) -> Iterator[str]:
    """The training text of one task source, a tokenised sentence at a time, in file order."""
    if source == "squad":
        with open(data / "squad" / "train-v1.1.reconstructed.json", encoding="utf-8") as file:
            articles = json.load(file)["data"]
        for article in articles:
            for paragraph in article["paragraphs"]:
                for sentence in tokenizer().split_sentences(paragraph["context"]):
                    if sentence:
                        yield " ".join(token.text for token in sentence)
    elif source == "conll2003":
        from data_readers.conll2003 import Conll2003NerReader

        for words, _ in Conll2003NerReader().read_sentences(data / "conll2003" / "eng.train"):
            yield " ".join(words)
    elif source == "sst":
        from data_readers.errors import numbered_lines
        from data_readers.sst import parse_tree, unescape

        path = data / "sst" / "train.txt"
        for line_number, line in numbered_lines(path):
            if line.strip():
                yield " ".join(unescape(word) for word in parse_tree(path, line_number, line).leaves())
    elif source == "snli":
        seen = set()
        for line in _training_part(data / "snli" / "snli_1.0_dev.jsonl").splitlines():
            pair = json.loads(line)
            for sentence in (" ".join(pair["sentence1"].split()), " ".join(pair["sentence2"].split())):
                if sentence and sentence not in seen:  # each premise has several hypotheses
                    seen.add(sentence)
                    yield sentence
    elif source == "universal_propbank":
        import tempfile

        from data_readers.universal_propbank import UniversalPropBankSrlReader

        with tempfile.TemporaryDirectory() as directory:
            part = Path(directory) / "train_part.conllu"
            part.write_text(_training_part(data / "srl_up_ewt" / "en_ewt-up-dev.conllu"), encoding="utf-8")
            for sentence in UniversalPropBankSrlReader().sentences(str(part)):
                yield " ".join(sentence.words)
    else:
        raise CorpusError(f"unknown source {source!r}: expected one of {', '.join(SOURCES)}")


def _training_part(data_file: Path) -> str:
    """
    The part of `data_file` the suite trains on: `split_for_selection.py`'s train_part, its default
    fraction and seed.
    """
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        fraction = split_for_selection.DEFAULTS[data_file.suffix]
        split_for_selection.split(data_file, Path(directory), heldout_fraction=fraction)
        return (Path(directory) / f"train_part{data_file.suffix}").read_text(encoding="utf-8")


def chunks(sentences: List[str]) -> List[List[str]]:
    return [sentences[start : start + CHUNK_SENTENCES] for start in range(0, len(sentences), CHUNK_SENTENCES)]


def split_chunks(sentences: List[str], heldout_percent: float) -> Dict[str, List[List[str]]]:
    """
    A source's chunks, `heldout_percent` of them held out, evenly spaced through the source (every
    50th chunk at 2 %; the last one when there are fewer), so that the held-out text is like the
    rest even where a file is ordered (SST's training file ends with its shortest sentences).
    """
    pieces = chunks(sentences)
    every = max(1, round(100 / heldout_percent))
    held = {index for index in range(len(pieces)) if index % every == every - 1} or {len(pieces) - 1}
    return {
        "train": [piece for index, piece in enumerate(pieces) if index not in held],
        "heldout": [piece for index, piece in enumerate(pieces) if index in held],
    }


def prepare(args: argparse.Namespace) -> Dict:
    """Writes the corpus files and returns the statistics written to `stats.json`."""
    if list(args.sources) != ["litbank"]:
        return prepare_mixed(args)
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


def prepare_mixed(args: argparse.Namespace) -> Dict:
    """Several sources: their training chunks shuffled together, their held-out text together and alone."""
    unknown = sorted(set(args.sources) - set(SOURCES))
    if unknown:
        raise CorpusError(f"unknown source(s) {', '.join(unknown)}: expected some of {', '.join(SOURCES)}")
    split: Dict[str, Dict[str, List[List[str]]]] = {}
    for source in args.sources:
        if source == "litbank":
            files = novel_files(args.novels, args.max_novels)
            process = partial(process_novel, skip_words=args.skip_words, heldout_percent=args.heldout_percent)
            novels = [process(path) for path in tqdm(files, desc="novels", unit="novel")]
            split[source] = {
                "train": [piece for novel in novels for piece in chunks(novel["train"])],
                "heldout": [novel["heldout"] for novel in novels if novel["heldout"]],
            }
        else:
            try:
                sentences = list(tqdm(task_sentences(source, args.task_data), desc=source, unit=" sentences"))
            except OSError as error:
                raise CorpusError(
                    f"{source}: cannot read {error.filename} ({error.strerror}; set SHARED_DATA_DIR)"
                ) from None
            split[source] = split_chunks(sentences, args.heldout_percent)
    args.output_dir.mkdir(parents=True, exist_ok=True)
    training = [piece for source in args.sources for piece in split[source]["train"]]
    random.Random(args.seed).shuffle(training)
    outputs = {
        "train.txt": training,
        "heldout.txt": [piece for source in args.sources for piece in split[source]["heldout"]],
    }
    outputs.update({f"heldout_{source}.txt": split[source]["heldout"] for source in args.sources})
    for name, pieces in outputs.items():
        partial_path = args.output_dir / f"{name}.partial"
        with open(partial_path, "w", encoding="utf-8") as output:
            for piece in pieces:
                output.writelines(sentence + "\n" for sentence in piece)
        os.replace(partial_path, args.output_dir / name)

    def counts(pieces: List[List[str]]) -> Dict[str, int]:
        return {"sentences": sum(map(len, pieces)), "tokens": sum(s.count(" ") + 1 for piece in pieces for s in piece)}

    stats = {
        **{part: counts(outputs[f"{part}.txt"]) for part in SPLITS},
        "sources": {source: {part: counts(split[source][part]) for part in SPLITS} for source in args.sources},
        "arguments": {name: str(value) if isinstance(value, Path) else value for name, value in vars(args).items()},
    }
    (args.output_dir / "stats.json").write_text(json.dumps(stats, indent=2) + "\n", encoding="utf-8")
    return stats


def main(argv: Optional[List[str]] = None) -> Dict:
    """Parses the command line, writes the corpus, prints its counts and returns its statistics."""
    parser = argparse.ArgumentParser(description=__doc__.strip().split("\n\n")[0])
    parser.add_argument(
        "--novels",
        type=Path,
        default=SHARED_DATA_DIR / "litbank" / "original",
        help="folder of LitBank's original novels (.txt)",
    )
    parser.add_argument("--output-dir", type=Path, default=REPO_ROOT / "bilm_work" / "corpus")
    parser.add_argument(
        "--skip-words",
        type=int,
        default=2000,
        help="leave out whole paragraphs at the start of each novel until this many words are skipped",
    )
    parser.add_argument(
        "--heldout-percent",
        type=float,
        default=2.0,
        help="percentage of each novel's sentences, taken from its end, that go to heldout.txt",
    )
    parser.add_argument("--max-novels", type=int, default=None, help="only the first N novels (for quick tests)")
    parser.add_argument("--workers", type=int, default=1, help="processes tokenising novels in parallel")
    parser.add_argument(
        "--sources",
        nargs="+",
        default=["litbank"],
        choices=SOURCES,
        help="what the corpus holds: LitBank's novels and/or the tasks' training text",
    )
    parser.add_argument(
        "--task-data",
        type=Path,
        default=SHARED_DATA_DIR,
        help="folder with the tasks' data (squad/, conll2003/, sst/, snli/, srl_up_ewt/)",
    )
    parser.add_argument("--seed", type=int, default=13, help="shuffles the training chunks of several sources")
    args = parser.parse_args(argv)
    try:
        stats = prepare(args)
    except CorpusError as error:
        raise SystemExit(f"prepare_lm_corpus: error: {error}") from None
    counts = [f"{split}: {stats[split]['sentences']} sentences, {stats[split]['tokens']} tokens" for split in SPLITS]
    if "sources" in stats:
        for source, parts in stats["sources"].items():
            print(
                f"{source}: "
                + "; ".join(
                    f"{part} {parts[part]['sentences']} sentences, {parts[part]['tokens']} tokens" for part in SPLITS
                )
            )
        print("; ".join(counts))
    else:
        print(f"{stats['novels']} novels, {stats['words_skipped']} words skipped; {'; '.join(counts)}")
    print(f"written to {args.output_dir}")
    return stats


if __name__ == "__main__":
    main()
