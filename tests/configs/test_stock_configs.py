"""
configs/stock/: allennlp-models' own ESIM configs, the cross-check of docs/elmo_losses.md. Each trains
with `allennlp train` on the tiny SNLI fixture, and its model is the stock one: allennlp-models' `esim`,
with AllenNLP's own `elmo_token_embedder` over a frozen biLM (none of the suite's model code).
"""

import json

import pytest
from allennlp.models.archival import load_archive
from allennlp.modules.token_embedders import ElmoTokenEmbedder
from allennlp_models.pair_classification import ESIM

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
