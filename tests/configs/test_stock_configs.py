"""
configs/stock/: allennlp-models' own ESIM and NER configs, the cross-check of docs/elmo_losses.md. Each
trains with `allennlp train` on a tiny fixture, and its model is the stock one: allennlp-models' `esim`
or `crf_tagger`, with AllenNLP's own `elmo_token_embedder` over a frozen biLM (none of the suite's
model code).
"""

import json

import pytest
from allennlp.models.archival import load_archive
from allennlp.modules.token_embedders import ElmoTokenEmbedder
from allennlp_models.pair_classification import ESIM
from allennlp_models.tagging import CrfTagger

from tasks.reproduce.plan import config_path
from tests.helpers.repository import allennlp


def _train_stock(task: str, name: str, metric: str, environment, tmp_path):
    """`allennlp train` of configs/stock/<task>_<name>.jsonnet for an epoch: its model, its test `metric` checked."""
    config = config_path(task, name)
    assert config == f"configs/stock/{task}_{name[len('stock_') :]}.jsonnet"
    run = tmp_path / name
    allennlp("train", config, "-s", str(run), "-o", '{"trainer.num_epochs": 1}', environment=environment)
    assert 0 <= json.loads((run / "metrics.json").read_text())[f"test_{metric}"] <= 1
    return load_archive(run / "model.tar.gz").model


def _frozen_stock_elmo(embedders) -> ElmoTokenEmbedder:
    """The stock ELMo embedder among `embedders`, its biLM frozen."""
    assert type(embedders["elmo"]) is ElmoTokenEmbedder
    assert not any(parameter.requires_grad for parameter in embedders["elmo"]._elmo._elmo_lstm.parameters())
    return embedders["elmo"]


@pytest.mark.parametrize("name", ["stock_esim", "stock_esim_elmo"])
def test_a_stock_config_trains_the_stock_model(name, sst_snli_environment, tmp_path):
    model = _train_stock("snli", name, "accuracy", sst_snli_environment, tmp_path)
    assert type(model) is ESIM
    embedders = dict(model._text_field_embedder._token_embedders)
    if name == "stock_esim":
        assert list(embedders) == ["tokens"]
        return
    assert list(embedders) == ["elmo"]
    # ELMO_DIM followed the tiny biLM (twice its 16-d projection), so the stock encoder takes its vectors
    assert model._encoder.get_input_dim() == _frozen_stock_elmo(embedders).get_output_dim() == 32


@pytest.mark.parametrize("name", ["stock_crf_tagger", "stock_crf_tagger_elmo"])
def test_a_stock_ner_config_trains_the_stock_tagger(name, ner_environment, tmp_path):
    model = _train_stock("ner", name, "f1-measure-overall", ner_environment, tmp_path)
    assert type(model) is CrfTagger
    embedders = dict(model.text_field_embedder._token_embedders)
    if name == "stock_crf_tagger":
        assert sorted(embedders) == ["token_characters", "tokens"]
        assert model.encoder.get_input_dim() == 50 + 128
        return
    assert sorted(embedders) == ["elmo", "token_characters", "tokens"]
    _frozen_stock_elmo(embedders)
    # GloVe's 50 (none given: the stock size), the character CNN's 128 and the tiny biLM's 32
    assert model.encoder.get_input_dim() == 50 + 128 + 32
