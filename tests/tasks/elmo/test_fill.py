"""`allennlp elmo-cache`: a config's ELMo activation cache, filled before training."""

import os

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Vocabulary
from allennlp.data.data_loaders import SimpleDataLoader

from tasks.elmo import FrozenBilm
from tasks.elmo.fill import cached_elmo_settings, config_sentences, fill, find_elmos
from tests.helpers.repository import ROOT, allennlp

CONFIG = "configs/ner_elmo.jsonnet"


TINY_CONLL_SENTENCES = 10


def _config():
    return Params.from_file(str(ROOT / CONFIG)).as_dict(quiet=True)


def _cached_bilm(config) -> FrozenBilm:
    (settings,) = cached_elmo_settings(config)
    return FrozenBilm(
        settings.options_file, settings.weight_file, settings.lstm_state, settings.cache_directory, settings.cache_dtype
    )


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
    with pytest.raises(
        ConfigurationError, match="no activation cache to fill for model.text_field_embedder.token_embedders.elmo"
    ):
        cached_elmo_settings(_config())
    stock = {
        "model": {
            "embedder": {"type": "elmo_token_embedder", "options_file": "o", "weight_file": "w", "cache_directory": "c"}
        }
    }
    with pytest.raises(ConfigurationError, match="model.embedder"):
        cached_elmo_settings(stock)
    with pytest.raises(ConfigurationError, match="has no ELMo"):
        cached_elmo_settings({"model": {"type": "bilstm_crf_tagger"}})


def test_elmos_are_found_wherever_they_sit_and_one_biLM_is_filled_once():
    elmo = {"options_file": "o.json", "weight_file": "w.hdf5", "cache_directory": "/cache"}
    config = {
        "model": {
            "text_field_embedder": {"token_embedders": {"elmo": {"type": "fast_elmo", **elmo}}},
            "elmo": {**elmo, "num_output_representations": 2},
            "heads": [{"elmo": {**elmo, "lstm_state": "warm_up"}}],
        }
    }
    assert [path for path, _ in find_elmos(config["model"])] == [
        "model.text_field_embedder.token_embedders.elmo",
        "model.elmo",
        "model.heads.0.elmo",
    ]
    biLMs = cached_elmo_settings(config)
    assert sorted(settings.lstm_state for settings in biLMs) == ["warm_up", "zero"]
    assert max(len(paths) for paths in biLMs.values()) == 2
