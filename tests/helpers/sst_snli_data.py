"""Tiny SST and SNLI data written for the tests, and the ELMo and readers their small models take."""

import json

from allennlp.common import Params
from allennlp.data import DatasetReader

# Eight SST trees (labels 0-4 on every node), written for these tests; one has PTB brackets.
TINY_SST = """\
(4 (2 (2 The) (2 film)) (4 (2 is) (4 (2 truly) (4 brilliant))))
(0 (2 (2 The) (2 plot)) (0 (2 is) (0 (2 utterly) (0 dreadful))))
(1 (2 (2 The) (2 cast)) (1 (2 seems) (1 dull)))
(3 (2 (2 A) (2 (2 warm) (2 film))) (3 (2 -LRB-) (3 (3 (2 mostly) (3 funny)) (2 -RRB-))))
(2 (2 (2 The) (2 ending)) (2 (2 is) (2 long)))
(3 (2 (2 The) (2 score)) (3 (2 was) (3 charming)))
(1 (2 (2 The) (2 dialogue)) (1 (2 is) (1 (1 not) (3 clever))))
(4 (2 (2 Its) (2 director)) (4 (2 remains) (4 superb)))
"""

# Nine SNLI pairs in the release's jsonl layout, written for these tests, and one without a majority label.
TINY_SNLI_PAIRS = [
    ("entailment", "A man is riding a bicycle down a street.", "A person is riding."),
    ("neutral", "A man is riding a bicycle down a street.", "The man is riding to work."),
    ("contradiction", "A man is riding a bicycle down a street.", "The man is sleeping in a bed."),
    ("entailment", "A girl in a red coat is reading a book.", "A child is reading."),
    ("neutral", "A girl in a red coat is reading a book.", "The girl is reading for a class."),
    ("contradiction", "A girl in a red coat is reading a book.", "A boy is reading a book."),
    ("-", "A woman is cooking dinner in a kitchen.", "A woman is cooking for her family."),
    ("entailment", "A woman is cooking dinner in a kitchen.", "A person is preparing food."),
    ("neutral", "A woman is cooking dinner in a kitchen.", "The woman is cooking for a party."),
    ("contradiction", "A woman is cooking dinner in a kitchen.", "The woman is running a marathon."),
]


def snli_lines(pairs, labelled: bool = True) -> str:
    records = []
    for label, premise, hypothesis in pairs:
        record = {"sentence1": premise, "sentence2": hypothesis}
        if labelled:
            record["gold_label"] = label
        records.append(json.dumps(record))
    return "\n".join(records) + "\n"


def elmo_params(tiny_elmo, mixes: int) -> dict:
    """A small model's `PaperElmo` over the tiny biLM, with `mixes` scalar mixes and no cache."""
    return {
        "options_file": str(tiny_elmo[0]),
        "weight_file": str(tiny_elmo[1]),
        "dropout": 0.0,
        "num_output_representations": mixes,
        "cache_directory": None,
    }


def reader_with_elmo(reader_type: str) -> DatasetReader:
    """The dataset reader `reader_type` with a word indexer and the ELMo character indexer."""
    return DatasetReader.from_params(
        Params(
            {
                "type": reader_type,
                "token_indexers": {"tokens": {"type": "single_id"}, "elmo": {"type": "elmo_characters"}},
            }
        )
    )
