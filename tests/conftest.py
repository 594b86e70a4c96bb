"""Fixtures written by the tests themselves: tiny CoNLL-2003 files and a tiny ELMo in the original layout."""
import os
from pathlib import Path

import pytest

from tasks.bilm.weight_file import random_weights, tiny_options, write_elmo_files
from tasks.environment import apply_defaults

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


def pytest_configure(config) -> None:
    """
    Configs evaluate in the tests as under the `allennlp` command, whose plugin (`tasks.plugin`)
    gives every unset variable the configs read its default; before collection, since some test
    modules read configs to parametrize their tests.
    """
    apply_defaults()


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


# Three short documents in the CoNLL-2012 format (12 space-separated columns), written for these
# tests: a story, a conversation whose "I" and "you" corefer through the speaker column, and a
# story with a nested mention ("his engine" holds "his").
TINY_COREF_CONLL = """#begin document (nw/test/00/ada_0000); part 000
nw/test/00/ada_0000 0 0 Ada - - - - - - * (0
nw/test/00/ada_0000 0 1 Lovelace - - - - - - * 0)
nw/test/00/ada_0000 0 2 met - - - - - - * -
nw/test/00/ada_0000 0 3 Charles - - - - - - * (1
nw/test/00/ada_0000 0 4 Babbage - - - - - - * 1)
nw/test/00/ada_0000 0 5 in - - - - - - * -
nw/test/00/ada_0000 0 6 London - - - - - - * -
nw/test/00/ada_0000 0 7 . - - - - - - * -

nw/test/00/ada_0000 0 0 She - - - - - - * (0)
nw/test/00/ada_0000 0 1 admired - - - - - - * -
nw/test/00/ada_0000 0 2 his - - - - - - * (2|(1)
nw/test/00/ada_0000 0 3 engine - - - - - - * 2)
nw/test/00/ada_0000 0 4 . - - - - - - * -

nw/test/00/ada_0000 0 0 Babbage - - - - - - * (1)
nw/test/00/ada_0000 0 1 showed - - - - - - * -
nw/test/00/ada_0000 0 2 her - - - - - - * (0)
nw/test/00/ada_0000 0 3 the - - - - - - * (2
nw/test/00/ada_0000 0 4 engine - - - - - - * 2)
nw/test/00/ada_0000 0 5 . - - - - - - * -

#end document
#begin document (bc/test/00/talk_0000); part 000
bc/test/00/talk_0000 0 0 I - - - - - Speaker#1 * (0)
bc/test/00/talk_0000 0 1 saw - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 2 Grace - - - - - Speaker#1 * (1)
bc/test/00/talk_0000 0 3 yesterday - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 4 . - - - - - Speaker#1 * -

bc/test/00/talk_0000 0 0 Did - - - - - Speaker#2 * -
bc/test/00/talk_0000 0 1 you - - - - - Speaker#2 * (0)
bc/test/00/talk_0000 0 2 talk - - - - - Speaker#2 * -
bc/test/00/talk_0000 0 3 to - - - - - Speaker#2 * -
bc/test/00/talk_0000 0 4 her - - - - - Speaker#2 * (1)
bc/test/00/talk_0000 0 5 ? - - - - - Speaker#2 * -

bc/test/00/talk_0000 0 0 Yes - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 1 , - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 2 she - - - - - Speaker#1 * (1)
bc/test/00/talk_0000 0 3 told - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 4 me - - - - - Speaker#1 * (0)
bc/test/00/talk_0000 0 5 about - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 6 the - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 7 Navy - - - - - Speaker#1 * -
bc/test/00/talk_0000 0 8 . - - - - - Speaker#1 * -

#end document
#begin document (nw/test/00/turing_0000); part 001
nw/test/00/turing_0000 1 0 Alan - - - - - - * (0
nw/test/00/turing_0000 1 1 Turing - - - - - - * 0)
nw/test/00/turing_0000 1 2 worked - - - - - - * -
nw/test/00/turing_0000 1 3 at - - - - - - * -
nw/test/00/turing_0000 1 4 Bletchley - - - - - - * (1
nw/test/00/turing_0000 1 5 Park - - - - - - * 1)
nw/test/00/turing_0000 1 6 . - - - - - - * -

nw/test/00/turing_0000 1 0 He - - - - - - * (0)
nw/test/00/turing_0000 1 1 broke - - - - - - * -
nw/test/00/turing_0000 1 2 codes - - - - - - * -
nw/test/00/turing_0000 1 3 there - - - - - - * (1)
nw/test/00/turing_0000 1 4 . - - - - - - * -

nw/test/00/turing_0000 1 0 The - - - - - - * (1
nw/test/00/turing_0000 1 1 park - - - - - - * 1)
nw/test/00/turing_0000 1 2 is - - - - - - * -
nw/test/00/turing_0000 1 3 a - - - - - - * -
nw/test/00/turing_0000 1 4 museum - - - - - - * -
nw/test/00/turing_0000 1 5 now - - - - - - * -
nw/test/00/turing_0000 1 6 . - - - - - - * -

#end document
"""


@pytest.fixture(scope="session")
def tiny_coref_conll(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("coref") / "tiny.v4_gold_conll"
    path.write_text(TINY_COREF_CONLL, encoding="utf-8")
    return path


@pytest.fixture
def coref_environment(tiny_coref_conll, tiny_elmo, monkeypatch):
    """Points every coreference and ELMo variable at the tiny fixtures, for this process and its children."""
    for name in ("COREF_TRAIN_DATA", "COREF_DEV_DATA", "COREF_TEST_DATA"):
        monkeypatch.setenv(name, str(tiny_coref_conll))
    monkeypatch.setenv("ELMO_OPTIONS_FILE", str(tiny_elmo[0]))
    monkeypatch.setenv("ELMO_WEIGHT_FILE", str(tiny_elmo[1]))
    monkeypatch.setenv("COREF_WORD_VECTORS", "")
    return dict(os.environ)
