"""`allennlp elmo-cache` (fill a config's ELMo cache before training) and `allennlp elmo-embed` (text to hdf5)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import h5py
import numpy
import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Vocabulary
from allennlp.data.data_loaders import SimpleDataLoader

from data_readers.errors import DataFormatError
from tasks.elmo import FrozenBilm
from tasks.elmo.embed import embed_file
from tasks.elmo.fill import cached_elmo_settings, config_sentences, fill, find_elmos

ROOT = Path(__file__).resolve().parent.parent
ALLENNLP = str(Path(sys.executable).parent / "allennlp")
CONFIG = "configs/ner_elmo.jsonnet"
TINY_CONLL_SENTENCES = 10


def allennlp(*arguments, environment):
    result = subprocess.run([ALLENNLP, *arguments], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"allennlp {' '.join(arguments)} failed:\n{result.stderr[-3000:]}"
    return result


def _config():
    return Params.from_file(str(ROOT / CONFIG)).as_dict(quiet=True)


def _cached_bilm(config) -> FrozenBilm:
    (settings,) = cached_elmo_settings(config)
    return FrozenBilm(settings.options_file, settings.weight_file, settings.lstm_state, settings.cache_directory, settings.cache_dtype)


def test_elmo_cache_fills_what_training_reads_and_a_second_run_computes_nothing(ner_environment, tmp_path, monkeypatch):
    monkeypatch.setenv("ELMO_CACHE_DIR", str(tmp_path / "cache"))
    result = allennlp("elmo-cache", CONFIG, "--batch-size", "4", environment=dict(os.environ))
    # train, validation and test are all the tiny file: its sentences are computed once
    assert f"{TINY_CONLL_SENTENCES} sentences" in result.stderr and "0 were stored already" in result.stderr

    config = _config()
    bilm = _cached_bilm(config)
    size = os.path.getsize(bilm.cache.path / "activations.bin")
    report = fill(bilm, config_sentences(config, ["train", "validation", "test"]), batch_size=4)
    assert (report.sentences, report.already_stored, report.computed) == (TINY_CONLL_SENTENCES, TINY_CONLL_SENTENCES, 0)
    assert os.path.getsize(bilm.cache.path / "activations.bin") == size

    # Batches as `allennlp train` builds them find every sentence in the cache.
    reader = DatasetReader.from_params(Params(config["dataset_reader"]))
    loader = SimpleDataLoader(list(reader.read(config["train_data_path"])), batch_size=3)
    loader.index_with(Vocabulary.from_instances(loader.iter_instances()))
    with torch.no_grad():
        for batch in loader:
            bilm(batch["tokens"]["elmo"]["elmo_tokens"])
    assert (bilm.cache.hits, bilm.cache.misses) == (TINY_CONLL_SENTENCES, 0)


def test_elmo_cache_refuses_an_elmo_without_cache(ner_environment, monkeypatch):
    monkeypatch.setenv("ELMO_CACHE_DIR", "none")
    with pytest.raises(ConfigurationError, match="no activation cache to fill for model.text_field_embedder.token_embedders.elmo"):
        cached_elmo_settings(_config())
    stock = {"model": {"embedder": {"type": "elmo_token_embedder", "options_file": "o", "weight_file": "w", "cache_directory": "c"}}}
    with pytest.raises(ConfigurationError, match="model.embedder"):
        cached_elmo_settings(stock)
    with pytest.raises(ConfigurationError, match="has no ELMo"):
        cached_elmo_settings({"model": {"type": "bilstm_crf_tagger"}})


def test_elmos_are_found_wherever_they_sit_and_one_biLM_is_filled_once():
    elmo = {"options_file": "o.json", "weight_file": "w.hdf5", "cache_directory": "/cache"}
    config = {"model": {
        "text_field_embedder": {"token_embedders": {"elmo": {"type": "fast_elmo", **elmo}}},
        "elmo": {**elmo, "num_output_representations": 2},
        "heads": [{"elmo": {**elmo, "lstm_state": "warm_up"}}],
    }}
    assert [path for path, _ in find_elmos(config["model"])] == [
        "model.text_field_embedder.token_embedders.elmo", "model.elmo", "model.heads.0.elmo"]
    biLMs = cached_elmo_settings(config)
    assert sorted(settings.lstm_state for settings in biLMs) == ["warm_up", "zero"]
    assert max(len(paths) for paths in biLMs.values()) == 2


LINES = ["The cat sat on the mat .", "", "Hello", "A longer sentence , with a comma and more words .", "Two words"]


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "input.txt"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return path


def _embed(text_file, output, tiny_elmo, **settings):
    return embed_file(str(text_file), str(output), str(tiny_elmo[0]), str(tiny_elmo[1]), tokenized=True, **settings)


def _read(path):
    with h5py.File(path, "r") as embeddings:
        return {name: embeddings[name][()] for name in embeddings}


def test_embed_writes_each_layer_choice(text_file, tiny_elmo, tmp_path):
    outputs = {}
    for layers, extra in [("all", {}), ("top", {}), ("average", {}), ("mix", {"mix_weights": [0.2, 0.5, 0.3], "gamma": 2.0})]:
        _embed(text_file, tmp_path / f"{layers}.hdf5", tiny_elmo, layers=layers, batch_size=2, **extra)
        outputs[layers] = _read(tmp_path / f"{layers}.hdf5")
    every_layer = outputs["all"]
    assert sorted(every_layer) == ["0", "1", "2", "3", "4", "sentence_to_index"]
    for index, line in enumerate(LINES):
        tokens = len(line.split())
        assert every_layer[str(index)].shape == (3, tokens, 32)  # the tiny biLM: 3 layers of 2 x 16
        for layers in ("top", "average", "mix"):
            assert outputs[layers][str(index)].shape == (tokens, 32)
        numpy.testing.assert_allclose(outputs["top"][str(index)], every_layer[str(index)][2], atol=0)
        numpy.testing.assert_allclose(outputs["average"][str(index)], every_layer[str(index)].mean(axis=0), atol=1e-6)
        mixed = 2.0 * (0.2 * every_layer[str(index)][0] + 0.5 * every_layer[str(index)][1] + 0.3 * every_layer[str(index)][2])
        numpy.testing.assert_allclose(outputs["mix"][str(index)], mixed, atol=1e-6)
    assert json.loads(every_layer["sentence_to_index"][0]) == {line: str(index) for index, line in enumerate(LINES)}


def test_an_interrupted_embedding_resumes_to_the_same_file(text_file, tiny_elmo, tmp_path, ner_environment):
    uninterrupted = tmp_path / "uninterrupted.hdf5"
    _embed(text_file, uninterrupted, tiny_elmo, batch_size=2)

    output = tmp_path / "resumed.hdf5"
    first = allennlp("elmo-embed", str(text_file), str(output), "--tokenized", "--batch-size", "2", "--max-sentences", "2",
                     environment=ner_environment)  # the biLM from ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE: tiny_elmo
    assert "2 remain" in first.stderr and not output.exists()
    (Path(f"{output}.partial") / "lines-000000003.npz.tmp").write_bytes(b"half a batch, as a kill leaves it")
    report = _embed(text_file, output, tiny_elmo, batch_size=2)
    assert (report.computed, report.remaining, report.empty_lines) == (2, 0, 1)
    assert not Path(f"{output}.partial").exists()
    resumed, expected = _read(output), _read(uninterrupted)
    assert sorted(resumed) == sorted(expected)
    for name in expected:
        numpy.testing.assert_array_equal(resumed[name], expected[name])


def test_a_resumed_embedding_refuses_other_settings(text_file, tiny_elmo, tmp_path):
    output = tmp_path / "out.hdf5"
    _embed(text_file, output, tiny_elmo, layers="top", max_sentences=1)
    with pytest.raises(ConfigurationError, match="holds a run with other layers"):
        _embed(text_file, output, tiny_elmo, layers="all")
    with pytest.raises(ConfigurationError, match="cannot be split"):
        _embed(text_file, tmp_path / "carried.hdf5", tiny_elmo, lstm_state="carried", max_sentences=1)


def test_embed_names_the_line_that_is_not_utf8_and_keeps_a_finished_file(tiny_elmo, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine line\nLatin-1 caf\xe9 here\n")
    with pytest.raises(DataFormatError, match="bad.txt, line 2: expected UTF-8 text, found byte 0xe9"):
        _embed(bad, tmp_path / "bad.hdf5", tiny_elmo)
    good = tmp_path / "good.txt"
    good.write_text("fine line\n", encoding="utf-8")
    _embed(good, tmp_path / "good.hdf5", tiny_elmo)
    with pytest.raises(ConfigurationError, match="good.hdf5 exists"):
        _embed(good, tmp_path / "good.hdf5", tiny_elmo)


def test_raw_text_is_tokenised_by_spacy(tiny_elmo, tmp_path):
    raw = tmp_path / "raw.txt"
    raw.write_text("Hello, world!\n", encoding="utf-8")
    embed_file(str(raw), str(tmp_path / "raw.hdf5"), str(tiny_elmo[0]), str(tiny_elmo[1]), layers="top")
    assert _read(tmp_path / "raw.hdf5")["0"].shape == (4, 32)  # Hello , world !
