"""The SNLI configs as shipped, on tiny fixtures, through AllenNLP's own model checks; ESIM equivalence."""

import copy
import json
import re

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch, DatasetReader, Vocabulary
from allennlp.models import Model
from allennlp_models.pair_classification.models.esim import ESIM

from tasks.elmo import PaperElmo
from tasks.snli.model import ElmoEsim

# The shipped network at a tenth of its width, two epochs, no padding noise (the check compares two
# loaders' first batches).
SMALL = json.dumps(
    {
        "trainer.num_epochs": 2,
        "data_loader.batch_sampler.padding_noise": 0.0,
        "model.text_field_embedder.token_embedders.tokens.embedding_dim": 30,
        "model.encoder.hidden_size": 30,
        "model.projection_feedforward.hidden_dims": 30,
        "model.inference_encoder.input_size": 30,
        "model.inference_encoder.hidden_size": 30,
        "model.output_feedforward.input_dim": 240,
        "model.output_feedforward.hidden_dims": 30,
        "model.output_logit.input_dim": 30,
    }
)


class TestElmoEsim(ModelTestCase):
    @pytest.fixture(autouse=True)
    def _fixtures(self, sst_snli_environment, tiny_snli, one_thread):
        self.tiny_snli = tiny_snli

    def test_train_save_load_and_predict_the_same(self):
        self.set_up_model("configs/snli_elmo.jsonnet", str(self.tiny_snli))
        assert isinstance(self.model, ElmoEsim)
        self.ensure_model_can_train_save_and_load("configs/snli_elmo.jsonnet", overrides=SMALL)

    def test_elmo_is_concatenated_at_the_input_and_the_output_of_the_lowest_bilstm(self):
        self.set_up_model("configs/snli_elmo.jsonnet", str(self.tiny_snli))
        elmo = self.model._elmo
        elmo_dim = elmo.get_output_dim()
        assert len(elmo._scalar_mixes) == 2 and all(mix.do_layer_norm for mix in elmo._scalar_mixes)
        assert self.model._encoder.get_input_dim() == 300 + elmo_dim
        assert self.model._projection_feedforward.get_input_dim() == 4 * (600 + elmo_dim)
        seen = {}
        hooks = [
            self.model._encoder.register_forward_hook(lambda m, i, o: seen.update(encoder=i[0].shape)),
            self.model._matrix_attention.register_forward_hook(lambda m, i, o: seen.update(attention=i[0].shape)),
        ]
        self.model.forward_on_instances(self.instances[:2])
        for hook in hooks:
            hook.remove()
        assert seen["encoder"][-1] == 300 + elmo_dim  # word vectors, then ELMo
        assert seen["attention"][-1] == 600 + elmo_dim  # the encoder biLSTM (2 x 300), then ELMo

    def test_the_initializer_leaves_the_pretrained_bilm_alone(self):
        self.set_up_model("configs/snli_elmo.jsonnet", str(self.tiny_snli))
        params = Params.from_file("configs/snli_elmo.jsonnet")["model"]["elmo"]
        fresh = PaperElmo.from_params(params)
        model_bilm = dict(self.model._elmo.bilm.named_parameters())
        fresh_bilm = dict(fresh.bilm.named_parameters())
        assert model_bilm.keys() == fresh_bilm.keys() and any("weight_hh" in name for name in model_bilm)
        for name, parameter in fresh_bilm.items():
            assert torch.equal(model_bilm[name], parameter), name

    def test_the_elmo_model_regularises_mix_weights_and_weight_matrices(self):
        self.set_up_model("configs/snli_elmo.jsonnet", str(self.tiny_snli))
        regexes = self.model._regularizer._regularizers
        names = [name for name, p in self.model.named_parameters() if p.requires_grad]

        def alpha(name):
            return next((regularizer.alpha for regex, regularizer in regexes if re.search(regex, name)), None)

        assert alpha("_elmo.scalar_mix_0.scalar_parameters.0") == 0.001
        assert alpha("_encoder._module.weight_hh_l0_reverse") == 0.0001
        assert alpha("_output_logit._linear_layers.0.weight") == 0.0001
        assert alpha("_output_logit._linear_layers.0.bias") is None
        assert alpha("_text_field_embedder.token_embedder_tokens.weight") is None
        assert "_encoder._module.weight_hh_l0_reverse" in names and "_output_logit._linear_layers.0.weight" in names


def test_without_elmo_it_computes_what_allennlp_models_esim_computes(sst_snli_environment, tiny_snli, one_thread):
    reader = DatasetReader.from_params(Params({"type": "snli_jsonl"}))
    instances = list(reader.read(str(tiny_snli)))
    vocabulary = Vocabulary.from_instances(instances)
    common = {
        "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 6}}},
        "matrix_attention": {"type": "dot_product"},
        "inference_encoder": {"type": "lstm", "input_size": 7, "hidden_size": 5, "bidirectional": True},
        "output_feedforward": {"input_dim": 40, "num_layers": 1, "hidden_dims": 5, "activations": "relu"},
        "output_logit": {"input_dim": 5, "num_layers": 1, "hidden_dims": 3, "activations": "linear"},
    }
    ours = Model.from_params(
        Params(
            copy.deepcopy(
                {
                    "type": "elmo_esim",
                    **common,
                    "encoder": {"type": "lstm", "hidden_size": 5, "bidirectional": True},
                    "projection_feedforward": {"num_layers": 1, "hidden_dims": 7, "activations": "relu"},
                }
            )
        ),
        vocab=vocabulary,
    )
    theirs = Model.from_params(
        Params(
            copy.deepcopy(
                {
                    "type": "esim",
                    **common,
                    "encoder": {"type": "lstm", "input_size": 6, "hidden_size": 5, "bidirectional": True},
                    "projection_feedforward": {
                        "input_dim": 40,
                        "num_layers": 1,
                        "hidden_dims": 7,
                        "activations": "relu",
                    },
                }
            )
        ),
        vocab=vocabulary,
    )
    assert isinstance(theirs, ESIM)
    theirs.load_state_dict(ours.state_dict())  # same parameter names, same shapes
    ours.eval(), theirs.eval()
    batch = Batch(instances)
    batch.index_instances(vocabulary)
    tensors = batch.as_tensor_dict()
    with torch.no_grad():
        our_output, their_output = ours(**tensors), theirs(**tensors)
    assert torch.allclose(our_output["label_logits"], their_output["label_logits"], atol=1e-6)
    assert torch.allclose(our_output["loss"], their_output["loss"], atol=1e-6)


def test_elmo_places_must_match_its_mixes(tiny_elmo):
    vocabulary = Vocabulary(tokens_to_add={"tokens": ["dog"], "labels": ["entailment", "neutral", "contradiction"]})
    params = {
        "type": "elmo_esim",
        "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 4}}},
        "encoder": {"type": "lstm", "hidden_size": 2, "bidirectional": True},
        "matrix_attention": {"type": "dot_product"},
        "projection_feedforward": {"num_layers": 1, "hidden_dims": 3, "activations": "relu"},
        "inference_encoder": {"type": "lstm", "input_size": 3, "hidden_size": 2, "bidirectional": True},
        "output_feedforward": {"input_dim": 16, "num_layers": 1, "hidden_dims": 2, "activations": "relu"},
        "output_logit": {"input_dim": 2, "num_layers": 1, "hidden_dims": 3, "activations": "linear"},
        "elmo": {"options_file": str(tiny_elmo[0]), "weight_file": str(tiny_elmo[1]), "num_output_representations": 2},
        "use_input_elmo": True,
    }

    def build(**changes):
        return Model.from_params(Params(copy.deepcopy({**params, **changes})), vocab=vocabulary)

    with pytest.raises(ConfigurationError, match=r"num_output_representations=2, but ELMo enters 1 place"):
        build()
    with pytest.raises(ConfigurationError, match="use_input_elmo and use_output_elmo are both false"):
        build(use_input_elmo=False)
    with pytest.raises(ConfigurationError, match="no `elmo` was given"):
        build(elmo=None, use_output_elmo=True)
    with pytest.raises(ConfigurationError, match=r"output_logit output \(4\) must equal number of labels \(3\)"):
        build(
            use_output_elmo=True,
            output_logit={"input_dim": 2, "num_layers": 1, "hidden_dims": 4, "activations": "linear"},
        )
    output_only = build(
        use_input_elmo=False, use_output_elmo=True, elmo={**params["elmo"], "num_output_representations": 1}
    )
    assert output_only._encoder.get_input_dim() == 4
    assert output_only._projection_feedforward.get_input_dim() == 4 * (4 + output_only._elmo.get_output_dim())
