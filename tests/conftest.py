"""
The fixtures every folder of tests shares: tiny data files in each task's format and a tiny biLM in
the original hdf5 layout, all written by the tests themselves, and the environments that point the
configs at them. The data they write is in tests/helpers.
"""

import os
from pathlib import Path

import pytest
import torch

from tasks.bilm.weight_file import random_weights, tiny_options, write_elmo_files
from tasks.environment import apply_defaults
from tests.helpers.coref_data import TINY_COREF_CONLL
from tests.helpers.ner_data import TINY_CONLL
from tests.helpers.sst_snli_data import TINY_SNLI_PAIRS, TINY_SST, snli_lines
from tests.helpers.tiny_archives import TinyArchives


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


@pytest.fixture(scope="session")
def tiny_archives(tmp_path_factory, tiny_elmo) -> TinyArchives:
    """Each task's ELMo config trained on its tiny fixture, once per session, on first use: `tiny_archives["ner"]`."""
    return TinyArchives(tmp_path_factory.mktemp("tiny_archives"), tiny_elmo)


@pytest.fixture
def ner_environment(tiny_conll, tiny_elmo, monkeypatch):
    """Points every NER and ELMo variable at the tiny fixtures, for this process and its children."""
    for name in ("NER_TRAIN_DATA", "NER_DEV_DATA", "NER_TEST_DATA"):
        monkeypatch.setenv(name, str(tiny_conll))
    monkeypatch.setenv("ELMO_OPTIONS_FILE", str(tiny_elmo[0]))
    monkeypatch.setenv("ELMO_WEIGHT_FILE", str(tiny_elmo[1]))
    monkeypatch.setenv("NER_WORD_VECTORS", "")
    return dict(os.environ)


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
