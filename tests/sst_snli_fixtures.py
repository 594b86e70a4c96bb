"""Tiny SST and SNLI files written by the tests themselves, and the environment that points the configs at them."""
import json
import os
from pathlib import Path

import pytest
import torch

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


@pytest.fixture(scope="session")
def tiny_sst(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sst") / "trees.txt"
    path.write_text(TINY_SST, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def tiny_snli(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("snli") / "pairs.jsonl"
    path.write_text(snli_lines(TINY_SNLI_PAIRS), encoding="utf-8")
    return path


@pytest.fixture
def sst_snli_environment(tiny_sst, tiny_snli, tiny_elmo, monkeypatch):
    """Points the SST, SNLI and ELMo variables at the tiny fixtures, for this process and its children."""
    for split in ("TRAIN", "DEV", "TEST"):
        monkeypatch.setenv(f"SST_{split}_DATA", str(tiny_sst))
        monkeypatch.setenv(f"SNLI_{split}_DATA", str(tiny_snli))
    for name in ("SST_WORD_VECTORS", "SNLI_WORD_VECTORS", "TRAIN_LIMIT"):
        monkeypatch.setenv(name, "")
    monkeypatch.setenv("TRAIN_FRACTION", "1.0")
    monkeypatch.setenv("ELMO_OPTIONS_FILE", str(tiny_elmo[0]))
    monkeypatch.setenv("ELMO_WEIGHT_FILE", str(tiny_elmo[1]))
    return dict(os.environ)


@pytest.fixture
def one_thread():
    """
    One torch thread while the test runs: building ESIM runs four QR decompositions (orthogonal
    initialisation), which take a second or more each with two threads on a machine whose other core
    is busy, and a few milliseconds with one.
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
