"""Every SST and SNLI config, ablations included, parses and builds the model it describes (no training)."""

import re
from pathlib import Path

import pytest
from allennlp.common import Params
from allennlp.data import DatasetReader, Vocabulary
from allennlp.models import Model

from tasks.snli.model import ElmoEsim
from tasks.sst.model import ElmoBcn
from tests.helpers.repository import ROOT

SST_CONFIGS = ["configs/sst_elmo.jsonnet", "configs/sst_baseline.jsonnet"]
SNLI_CONFIGS = ["configs/snli_elmo.jsonnet", "configs/snli_baseline.jsonnet"]
# Each starts γ where SNLI's ELMo config does (0.1) but `gamma_1`, the paper's own 1.
SNLI_ABLATIONS = {
    "top_layer": {"layers": "top", "lambda": 0.001, "places": (True, True), "gamma": 0.1},
    "all_layers_lambda_1": {"layers": "all", "lambda": 1.0, "places": (True, True), "gamma": 0.1},
    "all_layers_lambda_0_001": {"layers": "all", "lambda": 0.001, "places": (True, True), "gamma": 0.1},
    "input_only": {"layers": "all", "lambda": 0.001, "places": (True, False), "gamma": 0.1},
    "input_and_output": {"layers": "all", "lambda": 0.001, "places": (True, True), "gamma": 0.1},
    "output_only": {"layers": "all", "lambda": 0.001, "places": (False, True), "gamma": 0.1},
    "gamma_1": {"layers": "all", "lambda": 0.001, "places": (True, True), "gamma": 1.0},
}
TINY_VOCABULARY = {
    "sst": {
        "tokens": ["the", "film", "is", "good"],
        "labels": ["very negative", "negative", "neutral", "positive", "very positive"],
    },
    "snli": {"tokens": ["a", "dog", "runs"], "labels": ["entailment", "neutral", "contradiction"]},
}


def build(config: str):
    params = Params.from_file(str(ROOT / config))
    task = "sst" if "sst" in Path(config).name else "snli"
    model = Model.from_params(params=params.pop("model"), vocab=Vocabulary(tokens_to_add=TINY_VOCABULARY[task]))
    return params, model


def test_every_ablation_of_tables_2_and_3_has_its_config():
    assert sorted(path.stem for path in (ROOT / "configs" / "ablations").glob("snli_*.jsonnet")) == sorted(
        f"snli_{name}" for name in SNLI_ABLATIONS
    )


@pytest.mark.parametrize("config", SST_CONFIGS + SNLI_CONFIGS)
def test_configs_name_the_paper_the_data_the_metric_and_the_paper_number(config):
    header = (ROOT / config).read_text(encoding="utf-8").split("(import")[0]
    for needed in ("Peters et al. 2018", "Data:", "Metric:", "Paper:"):
        assert needed in header, needed


@pytest.mark.parametrize("config", SST_CONFIGS)
def test_sst_configs_build_the_bcn_they_describe(config, sst_snli_environment):
    params, model = build(config)
    assert isinstance(model, ElmoBcn)
    use_elmo = "elmo" in config
    assert (model._elmo is not None) == use_elmo
    assert model._use_input_elmo == model._use_integrator_output_elmo == use_elmo
    assert model._output_layer.get_output_dim() == 5
    assert params["trainer"]["optimizer"]["lr"] == 0.0001
    train_reader, test_reader = params["dataset_reader"], params["validation_dataset_reader"]
    assert (train_reader["use_subtrees"], train_reader["min_phrase_tokens"]) == (True, 4)
    assert (test_reader["use_subtrees"], test_reader["min_phrase_tokens"]) == (False, 1)
    assert ("elmo" in train_reader["token_indexers"]) == use_elmo


@pytest.mark.parametrize(
    "config, gamma", [("configs/sst_elmo.jsonnet", 0.1), ("configs/ablations/sst_gamma_1.jsonnet", 1.0)]
)
def test_sst_starts_gamma_at_0_1_but_in_the_papers_own_setting(config, gamma, sst_snli_environment):
    _, model = build(config)
    assert [mix.gamma.item() for mix in model._elmo._scalar_mixes] == pytest.approx([gamma, gamma])


@pytest.mark.parametrize("config", SST_CONFIGS)
def test_sst_trains_on_whole_sentences_when_asked(config, sst_snli_environment, tiny_sst, monkeypatch):
    monkeypatch.setenv("SST_TRAIN_ON", "sentences")
    params = Params.from_file(str(ROOT / config))
    train_reader = DatasetReader.from_params(params.pop("dataset_reader"))
    sentences = tiny_sst.read_text(encoding="utf-8").splitlines()
    assert len(list(train_reader.read(str(tiny_sst)))) == len(sentences)  # a tree's root only
    monkeypatch.setenv("SST_TRAIN_ON", "phrases")
    phrases = DatasetReader.from_params(Params.from_file(str(ROOT / config)).pop("dataset_reader"))
    assert len(list(phrases.read(str(tiny_sst)))) > len(sentences)
    monkeypatch.setenv("SST_TRAIN_ON", "words")
    with pytest.raises(Exception, match="SST_TRAIN_ON"):
        Params.from_file(str(ROOT / config))


@pytest.mark.parametrize("config", SNLI_CONFIGS)
def test_snli_configs_build_the_esim_they_describe(config, sst_snli_environment, one_thread):
    params, model = build(config)
    assert isinstance(model, ElmoEsim)
    use_elmo = "elmo" in config
    assert (model._use_input_elmo, model._use_output_elmo) == (use_elmo, use_elmo)
    assert (model.attention_dropout is not None) == use_elmo  # the paper adds it to the ELMo model only
    trainer = params["trainer"]
    assert trainer["optimizer"]["lr"] == 0.0004 and trainer["grad_norm"] == 5.0
    assert trainer["learning_rate_scheduler"].as_dict() == {
        "type": "reduce_on_plateau",
        "mode": "max",
        "factor": 0.5,
        "patience": 0,
        "verbose": True,
    }
    assert params["data_loader"]["batch_sampler"]["batch_size"] == 32


@pytest.mark.parametrize("ablation", sorted(SNLI_ABLATIONS))
def test_snli_ablation_configs_build_their_setting(ablation, sst_snli_environment, one_thread):
    expected = SNLI_ABLATIONS[ablation]
    _, model = build(f"configs/ablations/snli_{ablation}.jsonnet")
    elmo = model._elmo
    assert (model._use_input_elmo, model._use_output_elmo) == expected["places"]
    assert len(elmo._scalar_mixes) == sum(expected["places"])
    assert all(mix.do_layer_norm for mix in elmo._scalar_mixes)
    elmo_dim = elmo.get_output_dim()
    assert model._encoder.get_input_dim() == 300 + (elmo_dim if expected["places"][0] else 0)
    assert model._projection_feedforward.get_input_dim() == 4 * (600 + (elmo_dim if expected["places"][1] else 0))
    mix_alphas = {
        regularizer.alpha
        for regex, regularizer in model._regularizer._regularizers
        if re.search(regex, "_elmo.scalar_mix_0.scalar_parameters.0")
    }
    assert mix_alphas == {expected["lambda"]}
    for mix in elmo._scalar_mixes:
        assert mix.gamma.requires_grad  # γ is learned in every setting, the top layer's included (§A.2)
        assert mix.gamma.item() == pytest.approx(expected["gamma"])
        weights_learned = [weight.requires_grad for weight in mix.scalar_parameters]
        assert weights_learned == [expected["layers"] == "all"] * len(weights_learned)
