"""The SRL configs as shipped, on fixtures we wrote: every one builds, trains, saves, loads and decodes."""

import json
import random
from pathlib import Path

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch, DatasetReader, Vocabulary
from allennlp.models import Model

from tests.helpers.repository import ROOT
from tests.helpers.srl_data import write_fixtures

SRL_CONFIGS = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "configs").glob("**/srl_*.jsonnet"))
# The paper's 8 x 300 encoder is built once below; the other checks build and train a tiny one.
TINY = {
    "model": {"encoder": {"hidden_size": 8, "num_layers": 2}},
    "trainer": {"num_epochs": 2},
    "data_loader": {"batch_sampler": {"padding_noise": 0.0}},  # the check compares two loaders' first batches
}


def tiny(config, directory):
    """A config importing `config` with TINY merged in (ModelTestCase reads files, not overrides)."""
    path = directory / ("tiny_" + Path(config).name)
    path.write_text(f"std.mergePatch(import '{ROOT / config}', {json.dumps(TINY)})\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def srl_environment(tmp_path, tiny_elmo, monkeypatch):
    """Points the SRL and ELMo variables at the fixtures, for this process and its children."""
    conllu, _ = write_fixtures(tmp_path)
    for name in ("SRL_TRAIN_DATA", "SRL_DEV_DATA", "SRL_TEST_DATA"):
        monkeypatch.setenv(name, str(conllu))
    monkeypatch.setenv("SRL_DATA_FORMAT", "universal_propbank")
    monkeypatch.setenv("SRL_WORD_VECTORS", "")
    monkeypatch.setenv("ELMO_OPTIONS_FILE", str(tiny_elmo[0]))
    monkeypatch.setenv("ELMO_WEIGHT_FILE", str(tiny_elmo[1]))
    return conllu


def test_every_srl_config_and_ablation_is_found():
    assert len(SRL_CONFIGS) == 9, SRL_CONFIGS  # elmo, baseline, predicates, six ablations


def build(config):
    params = Params.from_file(str(ROOT / config) if not Path(config).is_absolute() else config)
    reader = DatasetReader.from_params(params.pop("dataset_reader"))
    instances = list(reader.read(params.pop("train_data_path")))
    vocabulary = Vocabulary.from_instances(instances)
    return Model.from_params(params.pop("model"), vocab=vocabulary), params


@pytest.mark.parametrize("config", SRL_CONFIGS)
def test_every_config_asks_for_the_papers_encoder_and_builds(srl_environment, tmp_path, config):
    settings = Params.from_file(str(ROOT / config)).as_dict()
    trainer = settings["trainer"]
    assert trainer["validation_metric"] in ("+f1-measure-overall", "+predicate-f1")
    if settings["model"]["type"] == "deep_srl":
        encoder = settings["model"]["encoder"]
        assert (encoder["hidden_size"], encoder["num_layers"], encoder["recurrent_dropout_probability"]) == (
            300,
            8,
            0.1,
        )
        assert trainer["optimizer"] == {"type": "adadelta", "lr": 1.0, "rho": 0.95} and trainer["grad_clipping"] == 1.0
    build(tiny(config, tmp_path))  # the full 8 x 300 encoder takes ~9 s to build: built once, below


def test_the_paper_sized_encoder_builds(srl_environment):
    model, _ = build("configs/srl_elmo.jsonnet")
    assert model.encoder.get_output_dim() == 300 and len(model.encoder._module.lstm_layers) == 8


@pytest.mark.parametrize(
    "config, mixes, at_input, at_output",
    [
        ("configs/srl_baseline.jsonnet", 0, False, False),
        ("configs/srl_elmo.jsonnet", 1, True, False),
        ("configs/ablations/srl_input_only.jsonnet", 1, True, False),
        ("configs/ablations/srl_input_and_output.jsonnet", 2, True, True),
        ("configs/ablations/srl_output_only.jsonnet", 1, False, True),
    ],
)
def test_elmo_enters_where_the_config_says(srl_environment, tmp_path, config, mixes, at_input, at_output):
    model, _ = build(tiny(config, tmp_path))
    elmo_dim = model.elmo.get_output_dim() if model.elmo is not None else 0
    assert (model.elmo_at_input, model.elmo_at_output) == (at_input, at_output)
    assert len(model.elmo._scalar_mixes) == mixes if mixes else model.elmo is None
    assert model.encoder.get_input_dim() == 100 + 100 + (elmo_dim if at_input else 0)
    assert model.tag_projection_layer.in_features == 8 + (elmo_dim if at_output else 0)
    if mixes:
        assert not any(p.requires_grad for n, p in model.named_parameters() if "_elmo_lstm" in n)  # frozen biLM
        # λ‖w‖² on each mix's weights (λ = 0.001, the config's), not on γ nor on anything else
        with torch.no_grad():
            for mix in model.elmo._scalar_mixes:
                for value, parameter in zip((0.5, -1.0, 2.0), mix.scalar_parameters):
                    parameter.fill_(value)
                mix.gamma.fill_(3.0)
        assert model.get_regularization_penalty().item() == pytest.approx(0.001 * 5.25 * mixes)


def test_top_layer_ablation_uses_the_top_layer_alone(srl_environment, tmp_path):
    model, _ = build(tiny("configs/ablations/srl_top_layer.jsonnet", tmp_path))
    weights = torch.softmax(torch.cat([p for p in model.elmo._scalar_mixes[0].scalar_parameters]), dim=0)
    assert weights[-1].item() == pytest.approx(1.0)
    assert model.elmo._scalar_mixes[0].gamma.requires_grad


class TestDeepSrl(ModelTestCase):
    @pytest.fixture(autouse=True)
    def _fixtures(self, srl_environment, tmp_path):
        self.conllu = srl_environment
        self.directory = tmp_path

    @pytest.mark.parametrize("config", ["configs/srl_elmo.jsonnet", "configs/ablations/srl_input_and_output.jsonnet"])
    def test_train_save_load_and_predict_the_same(self, config):
        config = tiny(config, self.directory)
        self.set_up_model(config, str(self.conllu))
        self.ensure_model_can_train_save_and_load(config)

    def test_decoded_tags_follow_the_gold_layout_and_score_in_evaluation_only(self):
        self.set_up_model(tiny("configs/srl_baseline.jsonnet", self.directory), str(self.conllu))
        self.model.eval()
        outputs = self.model.forward_on_instances(self.instances[:3])
        for output, instance in zip(outputs, self.instances):
            assert len(output["tags"]) == len(instance["tokens"])
            assert output["verb_index"] == instance["metadata"]["verb_index"]
        assert "f1-measure-overall" in self.model.get_metrics(reset=True)
        self.model.train()
        batch = self.dataset.as_tensor_dict()
        output = self.model(**batch)
        assert "predicted_tag_ids" not in output and output["loss"].requires_grad
        assert self.model.get_metrics() == {}  # nothing decoded, nothing scored while training


def test_decoding_never_breaks_the_bio_constraints(tiny_srl_model):
    labels = ["O", "B-V", "B-ARG0", "I-ARG0", "B-ARG1", "I-ARG1", "B-C-ARG1", "I-C-ARG1"]
    model = tiny_srl_model(labels)
    strings = model.vocab.get_index_to_token_vocabulary("labels")
    generator = torch.Generator().manual_seed(7)
    logits = torch.randn(64, 12, len(labels), generator=generator) * 4
    lengths = [random.Random(seed).randint(1, 12) for seed in range(64)]
    mask = torch.tensor([[position < length for position in range(12)] for length in lengths])
    invalid_argmax = 0
    for path, scores, length in zip(model.decode(logits, mask), logits, lengths):
        assert len(path) == length
        tags = [strings[index] for index in path]
        for previous, tag in zip(["O"] + tags, tags):
            assert not tag.startswith("I-") or previous[2:] == tag[2:], tags
        argmax = [strings[index] for index in scores[:length].argmax(dim=-1).tolist()]
        invalid_argmax += any(t.startswith("I-") and p[2:] != t[2:] for p, t in zip(["O"] + argmax, argmax))
        if argmax == tags:
            continue
        assert sum(scores[i].log_softmax(-1)[j] for i, j in enumerate(path)) <= sum(
            scores[i].log_softmax(-1).max() for i in range(length)
        )
    assert invalid_argmax > 10  # the constraint had work to do


def test_valid_argmax_is_decoded_unchanged(tiny_srl_model):
    labels = ["O", "B-V", "B-ARG0", "I-ARG0"]
    model = tiny_srl_model(labels)
    index = {label: model.vocab.get_token_index(label, "labels") for label in labels}
    wanted = ["B-ARG0", "I-ARG0", "B-V", "O"]
    logits = torch.full((1, 4, 4), -3.0)
    for position, tag in enumerate(wanted):
        logits[0, position, index[tag]] = 3.0
    path = model.decode(logits, torch.ones(1, 4, dtype=torch.bool))[0]
    assert [model.vocab.get_token_from_index(i, "labels") for i in path] == wanted


def test_elmo_settings_and_labels_are_checked():
    from tasks.elmo import check_elmo_places as _check_elmo
    from tasks.srl.model import _check_bio

    with pytest.raises(ConfigurationError, match="but the model has no elmo"):
        _check_elmo(None, True, False)
    _check_bio(["O", "B-ARG0", "I-ARG0"])
    with pytest.raises(ConfigurationError, match="SRL labels must be BIO .* found L-ARG0, U-V"):
        _check_bio(["O", "B-ARG0", "L-ARG0", "U-V"])


def test_the_predicate_finder_learns_the_predicates_and_leaves_the_labeller_alone(srl_environment, tmp_path):
    """Trained on the fixture's sentences it marks their predicates; its loss reaches no labeller parameter."""
    model, _ = build(tiny("configs/srl_baseline.jsonnet", tmp_path))
    reader = DatasetReader.from_params(Params.from_file(str(ROOT / "configs/srl_baseline.jsonnet"))["dataset_reader"])
    instances = list(reader.read(str(srl_environment)))
    finder = [parameter for name, parameter in model.named_parameters() if name.startswith("predicate_")]
    optimizer = torch.optim.Adam(finder, lr=0.01)
    batch = Batch(instances)
    batch.index_instances(model.vocab)
    tensors = batch.as_tensor_dict()
    model.train()
    for _ in range(60):
        optimizer.zero_grad()
        output = model(**{key: value for key, value in tensors.items() if key != "tags"})
        output["loss"].backward()
        assert all(p.grad is None for n, p in model.named_parameters() if not n.startswith("predicate_"))
        optimizer.step()
    model.eval()
    output = model.make_output_human_readable(model(**tensors))
    for instance, predicates in zip(instances, output["predicates"]):
        assert predicates == instance["metadata"]["sentence_predicates"]
    assert model.get_metrics(reset=True)["predicate-f1"] == 1.0
