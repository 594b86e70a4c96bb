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


@pytest.mark.parametrize("name", ["stock_esim", "stock_esim_elmo"])
def test_a_stock_config_trains_the_stock_model(name, sst_snli_environment, tmp_path):
    config = config_path("snli", name)
    assert config == f"configs/stock/snli_{name[len('stock_') :]}.jsonnet"
    run = tmp_path / name
    allennlp("train", config, "-s", str(run), "-o", '{"trainer.num_epochs": 1}', environment=sst_snli_environment)
    assert 0 <= json.loads((run / "metrics.json").read_text())["test_accuracy"] <= 1
    model = load_archive(run / "model.tar.gz").model
    assert type(model) is ESIM
    embedders = dict(model._text_field_embedder._token_embedders)
    if name == "stock_esim":
        assert list(embedders) == ["tokens"]
        return
    assert list(embedders) == ["elmo"] and type(embedders["elmo"]) is ElmoTokenEmbedder
    bilm = embedders["elmo"]._elmo._elmo_lstm
    assert not any(parameter.requires_grad for parameter in bilm.parameters())
    # ELMO_DIM followed the tiny biLM (twice its 16-d projection), so the stock encoder takes its vectors
    assert model._encoder.get_input_dim() == embedders["elmo"].get_output_dim() == 32


@pytest.mark.parametrize("name", ["stock_crf_tagger", "stock_crf_tagger_elmo"])
def test_a_stock_ner_config_trains_the_stock_tagger(name, ner_environment, tmp_path):
    config = config_path("ner", name)
    assert config == f"configs/stock/ner_{name[len('stock_') :]}.jsonnet"
    run = tmp_path / name
    allennlp("train", config, "-s", str(run), "-o", '{"trainer.num_epochs": 1}', environment=ner_environment)
    assert 0 <= json.loads((run / "metrics.json").read_text())["test_f1-measure-overall"] <= 1
    model = load_archive(run / "model.tar.gz").model
    assert type(model) is CrfTagger
    embedders = dict(model.text_field_embedder._token_embedders)
    if name == "stock_crf_tagger":
        assert sorted(embedders) == ["token_characters", "tokens"]
        assert model.encoder.get_input_dim() == 50 + 128
        return
    assert sorted(embedders) == ["elmo", "token_characters", "tokens"] and type(embedders["elmo"]) is ElmoTokenEmbedder
    assert not any(parameter.requires_grad for parameter in embedders["elmo"]._elmo._elmo_lstm.parameters())
    # GloVe's 50 (none given: the stock size), the character CNN's 128 and the tiny biLM's 32
    assert model.encoder.get_input_dim() == 50 + 128 + 32
