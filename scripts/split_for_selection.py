"""
Split a file in two, seeded: a part to train on and a held-out part to select models on, for data
that comes without a training split here (../shared/data/README.md): SNLI's dev file, and
Universal PropBank EWT's dev file. Nothing is trained and selected on at once, and the official
test file stays the test set.

- SNLI jsonl (`.jsonl`): split by premise, so every pair of one premise goes to the same part and
  no premise is both trained on and selected on.
- CoNLL-U (`.conllu`, e.g. Universal PropBank): split by sentence (a sentence's comment lines go
  with it), so all of a sentence's predicate frames stay together.

Lines are copied unchanged, in their original order.

    python scripts/split_for_selection.py ../shared/data/snli/snli_1.0_dev.jsonl runs/data/snli_split
    # -> runs/data/snli_split/train_part.jsonl, runs/data/snli_split/heldout_part.jsonl
    python scripts/split_for_selection.py ../shared/data/srl_up_ewt/en_ewt-up-dev.conllu runs/data/up_split \
        --heldout-fraction 0.2
"""

import argparse
import json
import random
from pathlib import Path
from typing import Callable, Dict, List, Tuple

DEFAULTS = {".jsonl": 0.3, ".conllu": 0.2}  # held-out fractions the suite's plans and biLM corpus use
SEED = 13


def split(data_file: Path, output_dir: Path, heldout_fraction: float, seed: int = SEED) -> Dict[str, int]:
    """Writes train_part and heldout_part beside each other in `output_dir`; returns the units in each."""
    suffix = data_file.suffix
    if suffix not in UNITS:
        raise SystemExit(f"split_for_selection: {data_file}: expected a .jsonl (SNLI) or .conllu file")
    units, key = UNITS[suffix](data_file)
    keys = sorted({key(unit) for unit in units})
    random.Random(seed).shuffle(keys)
    heldout = set(keys[: round(heldout_fraction * len(keys))])
    parts: Dict[str, List[str]] = {"train_part": [], "heldout_part": []}
    for unit in units:
        parts["heldout_part" if key(unit) in heldout else "train_part"].append(unit)
    output_dir.mkdir(parents=True, exist_ok=True)
    for name, part in parts.items():
        (output_dir / f"{name}{suffix}").write_text("".join(part), encoding="utf-8")
    counts = {name: len(part) for name, part in parts.items()}
    unit_name = "pairs" if suffix == ".jsonl" else "sentences"
    print(
        f"{data_file}: {len(keys)} {'premises' if suffix == '.jsonl' else 'sentences'}; train_part "
        f"{counts['train_part']} "
        f"{unit_name}, heldout_part {counts['heldout_part']} {unit_name} ({len(heldout)} held out, seed {seed}) in "
        f"{output_dir}"
    )
    return counts


def _snli_pairs(path: Path) -> Tuple[List[str], Callable[[str], str]]:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines(keepends=True) if line.strip()]
    return lines, lambda line: json.loads(line)["sentence1"]


def _conllu_sentences(path: Path) -> Tuple[List[str], Callable[[str], str]]:
    """Each sentence block, its comments and its closing blank line; a sentence is its own key."""
    blocks, block = [], []
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        block.append(line)
        if not line.strip():
            if any(row.strip() for row in block):
                blocks.append("".join(block))
            block = []
    if any(row.strip() for row in block):
        blocks.append("".join(block) + "\n")
    return blocks, lambda sentence: sentence


UNITS = {".jsonl": _snli_pairs, ".conllu": _conllu_sentences}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data_file", type=Path, help="SNLI .jsonl or CoNLL-U .conllu")
    parser.add_argument("output_dir", type=Path)
    parser.add_argument(
        "--heldout-fraction",
        type=float,
        help="share held out: premises (SNLI, default 0.3) or sentences (CoNLL-U, default 0.2)",
    )
    parser.add_argument("--seed", type=int, default=SEED)
    arguments = parser.parse_args()
    fraction = (
        arguments.heldout_fraction
        if arguments.heldout_fraction is not None
        else DEFAULTS.get(arguments.data_file.suffix, 0.3)
    )
    if not 0 < fraction < 1:
        parser.error("--heldout-fraction must be between 0 and 1")
    split(arguments.data_file, arguments.output_dir, fraction, arguments.seed)


if __name__ == "__main__":
    main()
