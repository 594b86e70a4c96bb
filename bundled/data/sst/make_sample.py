"""
Write a small, invented stand-in for the Stanford Sentiment Treebank: `train.txt`, `dev.txt` and
`test.txt` in SST's PTB tree format, one binarised tree per line, every node labelled 0 (very
negative) to 4 (very positive), so that the SST configs train offline in minutes.

The sentences are made up from templates ("the script is not very clever .", "a warm film , but
the ending feels clumsy ."), and every node's label follows from its words by a few rules that
mimic the treebank's: lexical sentiment on adjectives, intensifiers pushing away from neutral,
hedges pulling towards it, negation turning polarity round, "but" letting the second clause
decide and "and" averaging. Output is fully determined by `--seed`.

    python bundled/data/sst/make_sample.py            # writes {train,dev,test}.txt
"""

import argparse
import random
from pathlib import Path
from typing import List, Tuple

DEFAULT_OUTPUT_DIR = Path(__file__).resolve().parent  # the sample lives beside its writer
SPLIT_SIZES = {"train": 240, "dev": 60, "test": 60}

ADJECTIVES = {
    0: ["dreadful", "unwatchable", "abysmal", "insufferable", "atrocious"],
    1: ["dull", "clumsy", "tedious", "forgettable", "flat", "muddled"],
    2: ["long", "quiet", "familiar", "French", "slow-paced", "talky"],
    3: ["charming", "clever", "warm", "engaging", "funny", "touching"],
    4: ["brilliant", "masterful", "dazzling", "unforgettable", "superb"],
}
INTENSIFIERS = ["really", "truly", "utterly", "very"]
HEDGES = ["somewhat", "rather", "fairly"]
SUBJECTS = [
    ("the", "film"),
    ("this", "movie"),
    ("the", "script"),
    ("the", "cast"),
    ("the", "ending"),
    ("its", "director"),
    ("the", "score"),
    ("the", "plot"),
    ("the", "dialogue"),
    ("the", "acting"),
]
VERBS = ["is", "was", "feels", "seems", "remains"]
NOUNS = ["film", "movie", "comedy", "thriller", "drama", "documentary", "story"]
NEGATED = {0: 2, 1: 3, 2: 2, 3: 1, 4: 1}

Tree = Tuple[int, str]  # (label, PTB text)


def leaf(label: int, word: str) -> Tree:
    return label, f"({label} {word})"


def node(label: int, *children: Tree) -> Tree:
    return label, f"({label} {' '.join(text for _, text in children)})"


def adjective_phrase(rng: random.Random) -> Tree:
    """An adjective, possibly intensified, hedged or negated."""
    polarity = rng.choice(list(ADJECTIVES))
    adjective = leaf(polarity, rng.choice(ADJECTIVES[polarity]))
    kind = rng.choices(["bare", "intensified", "hedged", "negated"], weights=[4, 2, 1, 2])[0]
    if kind == "intensified" and polarity != 2:
        stronger = 0 if polarity < 2 else 4
        phrase = node(stronger, leaf(2, rng.choice(INTENSIFIERS)), adjective)
    elif kind == "hedged" and polarity != 2:
        weaker = 1 if polarity < 2 else 3
        phrase = node(weaker, leaf(2, rng.choice(HEDGES)), adjective)
    else:
        phrase = adjective
    if kind == "negated":
        return node(NEGATED[phrase[0]], leaf(1, "not"), phrase)
    return phrase


def clause(rng: random.Random) -> Tree:
    """`the script is not very clever` or `a warm film`."""
    if rng.random() < 0.3:
        adjective = adjective_phrase(rng)
        noun = node(adjective[0], adjective, leaf(2, rng.choice(NOUNS)))
        return node(noun[0], leaf(2, "a"), noun)
    determiner, noun = rng.choice(SUBJECTS)
    subject = node(2, leaf(2, determiner), leaf(2, noun))
    predicate = adjective_phrase(rng)
    verb_phrase = node(predicate[0], leaf(2, rng.choice(VERBS)), predicate)
    return node(verb_phrase[0], subject, verb_phrase)


def sentence(rng: random.Random) -> Tree:
    first = clause(rng)
    kind = rng.choices(["one", "but", "and"], weights=[3, 2, 2])[0]
    if kind == "but":
        second = clause(rng)
        tail = node(second[0], leaf(2, "but"), second)
        body = node(second[0], node(first[0], first, leaf(2, ",")), tail)
    elif kind == "and":
        second = clause(rng)
        label = round((first[0] + second[0]) / 2)
        body = node(label, first, node(second[0], leaf(2, "and"), second))
    else:
        body = first
    return node(body[0], body, leaf(2, "."))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output-dir", type=Path, default=DEFAULT_OUTPUT_DIR)
    parser.add_argument("--seed", type=int, default=2013)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    seen = set()
    arguments.output_dir.mkdir(parents=True, exist_ok=True)
    for split, size in SPLIT_SIZES.items():
        lines: List[str] = []
        while len(lines) < size:
            _, text = sentence(rng)
            if text not in seen:  # no sentence in two splits, nor twice in one
                seen.add(text)
                lines.append(text)
        (arguments.output_dir / f"{split}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{split}: {len(lines)} trees")


if __name__ == "__main__":
    main()
