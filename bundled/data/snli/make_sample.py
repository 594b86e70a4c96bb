"""
Write a small, invented stand-in for SNLI: `train.jsonl`, `dev.jsonl` and `test.jsonl` in the
original release's jsonl layout (`gold_label`, `sentence1`, `sentence2`, `annotator_labels`,
`captionID`, `pairID`), so that the SNLI configs train offline in minutes.

Each premise describes a made-up scene ("A young woman in a red coat is playing a guitar on a
bench."); as in SNLI's elicitation, it gets one hypothesis that must be true (entailment: a more
general person or action), one that might be true (neutral: an added purpose or detail) and one
that cannot be (contradiction: an incompatible action, or another person). A few pairs of the
training file have no majority label (`gold_label` "-"), as in the release; readers leave them
out. Output is fully determined by `--seed`.

    python bundled/data/snli/make_sample.py           # writes {train,dev,test}.jsonl
"""

import argparse
import json
import random
from pathlib import Path
from typing import Dict, List

DEFAULT_OUTPUT_DIR = Path(__file__).resolve().parent  # the sample lives beside its writer
SPLIT_PREMISES = {"train": 100, "dev": 20, "test": 20}
NO_CONSENSUS_PAIRS = 6  # in train

# person: (general word, opposite person, pronoun)
PEOPLE = {
    "man": ("person", "woman", "his"),
    "woman": ("person", "man", "her"),
    "boy": ("child", "girl", "his"),
    "girl": ("child", "boy", "her"),
    "old man": ("person", "young girl", "his"),
    "young woman": ("person", "old man", "her"),
}
CLOTHES = [
    "in a red coat",
    "wearing a blue hat",
    "in a striped shirt",
    "with a green backpack",
    "in a yellow dress",
    "wearing sunglasses",
]
# action, place, its general form, an incompatible action, purposes that might be true
ACTIONS = [
    ("is riding a bicycle", "down a busy street", "is riding", "is sleeping in a bed", ["to get to work", "in a race"]),
    (
        "is playing a guitar",
        "on a park bench",
        "is making music",
        "is swimming in a lake",
        ["for tips", "for a friend"],
    ),
    (
        "is cooking dinner",
        "in a small kitchen",
        "is preparing food",
        "is running a marathon",
        ["for a family", "for a party"],
    ),
    ("is reading a book", "under a tree", "is reading", "is dancing at a club", ["for a class", "about history"]),
    ("is running", "along the beach", "is outside", "is sitting on a couch", ["to train for a race", "with a dog"]),
    ("is painting a wall", "in an empty room", "is painting", "is driving a truck", ["for money", "in a new house"]),
    ("is climbing a rock", "near the mountains", "is climbing", "is watching television", ["with friends", "for fun"]),
    ("is selling fruit", "at a market", "is working", "is asleep at home", ["to pay rent", "every morning"]),
]


def scene(rng: random.Random) -> Dict[str, str]:
    person = rng.choice(list(PEOPLE))
    action = rng.choice(ACTIONS)
    return {"person": person, "clothes": rng.choice(CLOTHES), "action": action}


def article(phrase: str) -> str:
    return ("An " if phrase[0] in "aeiou" else "A ") + phrase


def pairs_for(rng: random.Random, premise_scene: Dict) -> Dict[str, str]:
    person = premise_scene["person"]
    general, opposite, pronoun = PEOPLE[person]
    verb, place, general_verb, incompatible, purposes = premise_scene["action"]
    premise = f"{article(person)} {premise_scene['clothes']} {verb} {place}."
    if rng.random() < 0.5:
        contradiction = f"The {person} {incompatible}."
    else:
        contradiction = f"{article(opposite)} {verb} {place}."
    return {
        "sentence1": premise,
        "entailment": f"{article(general)} {general_verb}.",
        "neutral": f"The {person} {verb} {rng.choice(purposes)}.".replace(" a family", f" {pronoun} family"),
        "contradiction": contradiction,
    }


def records(rng: random.Random, split: str, premises: int, premises_seen: set) -> List[Dict]:
    """Three pairs (entailment, neutral, contradiction) for each of `premises` new premises."""
    lines = []
    written = 0
    while written < premises:
        pairs = pairs_for(rng, scene(rng))
        if pairs["sentence1"] in premises_seen:
            continue  # each premise in one split only, once
        premises_seen.add(pairs["sentence1"])
        written += 1
        caption = f"{split}-{written:04d}"
        for index, label in enumerate(("entailment", "neutral", "contradiction")):
            lines.append(
                {
                    "annotator_labels": [label] * 3 + [rng.choice([label, "neutral"])] * 2,
                    "captionID": caption,
                    "gold_label": label,
                    "pairID": f"{caption}#{index}",
                    "sentence1": pairs["sentence1"],
                    "sentence2": pairs[label],
                }
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output-dir", type=Path, default=DEFAULT_OUTPUT_DIR)
    parser.add_argument("--seed", type=int, default=2015)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    premises_seen: set = set()
    arguments.output_dir.mkdir(parents=True, exist_ok=True)
    for split, premises in SPLIT_PREMISES.items():
        lines = records(rng, split, premises, premises_seen)
        if split == "train":
            for line in rng.sample(lines, NO_CONSENSUS_PAIRS):
                line["gold_label"] = "-"
                line["annotator_labels"] = ["entailment", "neutral", "contradiction", "neutral", "entailment"]
        path = arguments.output_dir / f"{split}.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        print(f"{split}: {len(lines)} pairs")


if __name__ == "__main__":
    main()
