"""The SST configs as shipped, on tiny fixtures, through AllenNLP's own model checks."""

import copy
import json

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.data import Vocabulary
from allennlp.models import Model

from tasks.sst.model import ElmoBcn

# The shipped network at a tenth of its width (archiving its 10M parameters alone takes seconds), two
# epochs, and no padding noise: the check compares two loaders' first batches, drawn one after the other.
SMALL = json.dumps(
    {
        "trainer.num_epochs": 2,
        "data_loader.batch_sampler.padding_noise": 0.0,
        "model.text_field_embedder.token_embedders.tokens.embedding_dim": 30,
        "model.pre_encode_feedforward.hidden_dims": [30],
        "model.encoder.input_size": 30,
        "model.encoder.hidden_size": 30,
        "model.integrator.input_size": 180,
        "model.integrator.hidden_size": 30,
        "model.output_layer.hidden_dims": [120, 60, 5],
    }
)


class TestElmoBcn(ModelTestCase):
    @pytest.fixture(autouse=True)
    def _fixtures(self, sst_snli_environment, tiny_sst):
        self.tiny_sst = tiny_sst

    def test_train_save_load_and_predict_the_same(self):
        self.set_up_model("configs/sst_elmo.jsonnet", str(self.tiny_sst))
        assert isinstance(self.model, ElmoBcn)
        # The pooling's scores go through a softmax over the words, which no constant shift changes:
        # the bias of their projection has a gradient of exactly zero in exact arithmetic, and of
        # 0.0 or about 1e-9 in float32 depending on the thread count. Not a sign of a broken model.
        self.ensure_model_can_train_save_and_load(
            "configs/sst_elmo.jsonnet", overrides=SMALL, gradients_to_ignore={"_self_attentive_pooling_projection.bias"}
        )

    def test_elmo_is_concatenated_at_the_input_and_the_integrator_output(self):
        self.set_up_model("configs/sst_elmo.jsonnet", str(self.tiny_sst))
        elmo_dim = self.model._elmo.get_output_dim()
        assert len(self.model._elmo._scalar_mixes) == 2
        assert self.model._pre_encode_feedforward.get_input_dim() == 300 + elmo_dim
        seen = {}
        hooks = [
            self.model._pre_encode_feedforward.register_forward_hook(lambda m, i, o: seen.update(input=i[0].shape)),
            self.model._self_attentive_pooling_projection.register_forward_hook(
                lambda m, i, o: seen.update(output=i[0].shape)
            ),
        ]
        self.model.forward_on_instances(self.instances[:2])
        for hook in hooks:
            hook.remove()
        assert seen["input"][-1] == 300 + elmo_dim  # word vectors, then ELMo
        assert seen["output"][-1] == 600 + elmo_dim  # integrator biLSTM (2 x 300), then ELMo
        assert self.model._output_layer.get_input_dim() == 4 * (600 + elmo_dim)

    def test_the_baseline_has_no_elmo_and_5_labels(self):
        self.set_up_model("configs/sst_baseline.jsonnet", str(self.tiny_sst))
        assert self.model._elmo is None
        assert self.model._pre_encode_feedforward.get_input_dim() == 300
        assert self.vocab.get_vocab_size("labels") == 5
        output = self.model.forward_on_instances(self.instances[:3])
        for prediction in output:
            assert prediction["label"] in self.vocab.get_token_to_index_vocabulary("labels")
            assert prediction["class_probabilities"].sum() == pytest.approx(1.0, abs=1e-5)


def test_elmo_places_must_match_its_mixes(sst_snli_environment, tiny_elmo):
    vocabulary = Vocabulary(tokens_to_add={"tokens": ["good"], "labels": ["positive", "negative"]})
    params = {
        "type": "elmo_bcn",
        "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 4}}},
        "embedding_dropout": 0.0,
        "pre_encode_feedforward": {"num_layers": 1, "hidden_dims": 4, "activations": "relu"},
        "encoder": {"type": "lstm", "input_size": 4, "hidden_size": 2, "bidirectional": True},
        "integrator": {"type": "lstm", "input_size": 12, "hidden_size": 2, "bidirectional": True},
        "integrator_dropout": 0.0,
        "output_layer": {"num_layers": 1, "hidden_dims": 2, "activations": "linear"},
        "elmo": {"options_file": str(tiny_elmo[0]), "weight_file": str(tiny_elmo[1]), "num_output_representations": 1},
        "use_input_elmo": True,
        "use_integrator_output_elmo": True,
    }
    with pytest.raises(ConfigurationError, match="num_output_representations=1"):
        Model.from_params(Params(copy.deepcopy(params)), vocab=vocabulary)
    params["use_integrator_output_elmo"] = False
    model = Model.from_params(Params(copy.deepcopy(params)), vocab=vocabulary)
    assert model._pre_encode_feedforward.get_input_dim() == 4 + model._elmo.get_output_dim()
    assert isinstance(model._pre_encode_feedforward._linear_layers[0], torch.nn.Linear)
