"""Write a seeded random sample of a SQuAD file's questions as a SQuAD file of its own.

For validating on part of the dev set when the whole is too slow for the machine (the CPU runs of
docs/squad.md). The sample keeps whole questions with all their gold answers, in the file's order;
paragraphs and articles left without a question are left out. A larger sample with the same seed
contains a smaller one.

    python scripts/squad_subset.py ../shared/data/squad/dev-v1.1.json --questions 1000 --output runs/dev-1000.json
"""
import argparse
import json
import random
import sys
from pathlib import Path


def sample(dataset: dict, questions: int, seed: int) -> dict:
    """`dataset` keeping `questions` of its questions, drawn by one seeded permutation."""
    positions = [
        (article, paragraph, question)
        for article, entry in enumerate(dataset["data"])
        for paragraph, passage in enumerate(entry["paragraphs"])
        for question in range(len(passage["qas"]))
    ]
    kept = set(random.Random(seed).sample(positions, len(positions))[:questions])
    articles = []
    for article, entry in enumerate(dataset["data"]):
        paragraphs = []
        for paragraph, passage in enumerate(entry["paragraphs"]):
            qas = [qa for question, qa in enumerate(passage["qas"]) if (article, paragraph, question) in kept]
            if qas:
                paragraphs.append({**passage, "qas": qas})
        if paragraphs:
            articles.append({**entry, "paragraphs": paragraphs})
    return {**dataset, "data": articles}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("squad_file", type=Path)
    parser.add_argument("--questions", type=int, required=True, help="how many questions to keep")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--output", type=Path, required=True)
    arguments = parser.parse_args()
    dataset = json.loads(arguments.squad_file.read_text(encoding="utf-8"))
    subset = sample(dataset, arguments.questions, arguments.seed)
    arguments.output.parent.mkdir(parents=True, exist_ok=True)
    arguments.output.write_text(json.dumps(subset), encoding="utf-8")
    count = sum(len(passage["qas"]) for entry in subset["data"] for passage in entry["paragraphs"])
    print(f"{arguments.output}: {count} questions of {arguments.squad_file} (seed {arguments.seed})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
