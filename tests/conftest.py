"""Fixtures written by the tests themselves: tiny CoNLL-2003 files and a tiny ELMo in the original layout."""
import os
from pathlib import Path

import pytest

from tasks.bilm.weight_file import random_weights, tiny_options, write_elmo_files

# Ten sentences in the CoNLL-2003 format (IOB1), written for these tests.
TINY_CONLL = """-DOCSTART- -X- -X- O

Ada NNP I-NP I-PER
Lovelace NNP I-NP I-PER
visited VBD I-VP O
Turin NNP I-NP I-LOC
. . O O

The DT I-NP O
Royal NNP I-NP I-ORG
Society NNP I-NP I-ORG
met VBD I-VP O
in IN I-PP O
London NNP I-NP I-LOC
. . O O

Paris NNP I-NP I-LOC
Berlin NNP I-NP B-LOC
talks NNS I-NP O
ended VBD I-VP O
. . O O

-DOCSTART- -X- -X- O

Grace NNP I-NP I-PER
Hopper NNP I-NP I-PER
joined VBD I-VP O
the DT I-NP O
Navy NNP I-NP I-ORG
. . O O

He PRP I-NP O
spoke VBD I-VP O
German JJ I-NP I-MISC
. . O O

Alan NNP I-NP I-PER
Turing NNP I-NP I-PER
worked VBD I-VP O
at IN I-PP O
Bletchley NNP I-NP I-LOC
Park NNP I-NP I-LOC
. . O O

The DT I-NP O
Olympics NNPS I-NP I-MISC
came VBD I-VP O
to TO I-PP O
Rome NNP I-NP I-LOC
. . O O

IBM NNP I-NP I-ORG
hired VBD I-VP O
Marie NNP I-NP I-PER
Curie NNP I-NP I-PER
. . O O

Rain NN I-NP O
fell VBD I-VP O
. . O O

Oxford NNP I-NP I-ORG
beat VBD I-VP O
Cambridge NNP I-NP B-ORG
. . O O
"""


@pytest.fixture(scope="session", autouse=True)
def elmo_cache_directory(tmp_path_factory) -> Path:
    """Keeps the ELMo activations the tests compute out of the repository's default cache."""
    directory = tmp_path_factory.mktemp("elmo_cache")
    os.environ["ELMO_CACHE_DIR"] = str(directory)
    return directory


@pytest.fixture(scope="session")
def tiny_conll(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("conll") / "tiny.conll"
    path.write_text(TINY_CONLL, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def tiny_elmo(tmp_path_factory):
    """`(options_path, weight_path)` of a tiny random biLM written in the original hdf5 layout."""
    directory = tmp_path_factory.mktemp("elmo")
    options = tiny_options()
    options_path, weight_path = directory / "options.json", directory / "weights.hdf5"
    write_elmo_files(options, random_weights(options, seed=1), options_path, weight_path)
    return options_path, weight_path


@pytest.fixture
def ner_environment(tiny_conll, tiny_elmo, monkeypatch):
    """Points every NER and ELMo variable at the tiny fixtures, for this process and its children."""
    for name in ("NER_TRAIN_DATA", "NER_DEV_DATA", "NER_TEST_DATA"):
        monkeypatch.setenv(name, str(tiny_conll))
    monkeypatch.setenv("ELMO_OPTIONS_FILE", str(tiny_elmo[0]))
    monkeypatch.setenv("ELMO_WEIGHT_FILE", str(tiny_elmo[1]))
    monkeypatch.setenv("NER_WORD_VECTORS", "")
    return dict(os.environ)
