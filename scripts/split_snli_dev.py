"""
Split SNLI's dev file in two by premise, seeded: a part to train on and a held-out part to validate
on, for machines that have SNLI's dev and test files but not its training file (ours: see
../shared/data/README.md). Every pair of one premise goes to the same part, so no premise is both
trained on and validated on; lines are copied unchanged, in their original order.

    python scripts/split_snli_dev.py ../shared/data/snli/snli_1.0_dev.jsonl runs/snli_split
    # -> runs/snli_split/train_part.jsonl, runs/snli_split/heldout_part.jsonl
"""
import argparse
import json
import random
from pathlib import Path


def split(dev_file: Path, output_dir: Path, heldout_fraction: float, seed: int) -> None:
    lines = dev_file.read_text(encoding="utf-8").splitlines(keepends=True)
    premises = sorted({json.loads(line)["sentence1"] for line in lines if line.strip()})
    random.Random(seed).shuffle(premises)
    heldout = set(premises[: round(heldout_fraction * len(premises))])
    parts = {"train_part": [], "heldout_part": []}
    for line in lines:
        if line.strip():
            parts["heldout_part" if json.loads(line)["sentence1"] in heldout else "train_part"].append(line)
    output_dir.mkdir(parents=True, exist_ok=True)
    for name, part in parts.items():
        (output_dir / f"{name}.jsonl").write_text("".join(part), encoding="utf-8")
    print(
        f"{dev_file}: {len(premises)} premises; train_part {len(parts['train_part'])} pairs, "
        f"heldout_part {len(parts['heldout_part'])} pairs ({len(heldout)} premises, seed {seed}) in {output_dir}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dev_file", type=Path)
    parser.add_argument("output_dir", type=Path)
    parser.add_argument("--heldout-fraction", type=float, default=0.3, help="share of premises held out (default 0.3)")
    parser.add_argument("--seed", type=int, default=13)
    arguments = parser.parse_args()
    if not 0 < arguments.heldout_fraction < 1:
        parser.error("--heldout-fraction must be between 0 and 1")
    split(arguments.dev_file, arguments.output_dir, arguments.heldout_fraction, arguments.seed)


if __name__ == "__main__":
    main()
