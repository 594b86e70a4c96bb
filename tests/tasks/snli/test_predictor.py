"""The entailment predictor on raw text, over a small untrained model with the tiny biLM."""

import pytest
from allennlp.common import Params
from allennlp.data import Vocabulary
from allennlp.models import Model

from tasks.snli.model import ElmoEsim
from tasks.snli.predictor import EntailmentClassifierPredictor
from tests.helpers.sst_snli_data import elmo_params, reader_with_elmo


@pytest.fixture(scope="module")
def entailment(tiny_snli, tiny_elmo):
    reader = reader_with_elmo("snli_jsonl")
    vocabulary = Vocabulary.from_instances(reader.read(str(tiny_snli)))
    model = Model.from_params(
        vocab=vocabulary,
        params=Params(
            {
                "type": "elmo_esim",
                "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 4}}},
                "encoder": {"type": "lstm", "hidden_size": 2, "bidirectional": True},
                "matrix_attention": {"type": "dot_product"},
                "projection_feedforward": {"num_layers": 1, "hidden_dims": 3, "activations": "relu"},
                "inference_encoder": {"type": "lstm", "input_size": 3, "hidden_size": 2, "bidirectional": True},
                "output_feedforward": {"input_dim": 16, "num_layers": 1, "hidden_dims": 2, "activations": "relu"},
                "output_logit": {"input_dim": 2, "num_layers": 1, "hidden_dims": 3, "activations": "linear"},
                "elmo": elmo_params(tiny_elmo, 2),
                "use_input_elmo": True,
                "use_output_elmo": True,
            }
        ),
    )
    return EntailmentClassifierPredictor(model, reader, max_tokens=12)


def test_it_is_the_models_default_predictor():
    assert ElmoEsim.default_predictor == "entailment_classifier"


def test_a_pair_gets_its_label_and_every_probability_by_name(entailment):
    output = entailment.predict_json({"premise": "A dog runs in a park.", "hypothesis": "An animal is outside."})
    assert output["premise_tokens"] == ["A", "dog", "runs", "in", "a", "park", "."]
    assert output["hypothesis_tokens"] == ["An", "animal", "is", "outside", "."]
    assert list(output["probabilities"]) == ["entailment", "neutral", "contradiction"]
    assert sum(output["probabilities"].values()) == pytest.approx(1.0, abs=1e-5)
    assert output["label"] == max(output["probabilities"], key=output["probabilities"].get)


def test_bad_pairs_get_an_error_in_place(entailment):
    outputs = entailment.predict_batch_json(
        [
            {"premise": "A dog runs.", "hypothesis": "A cat sleeps."},
            {"premise": "A dog runs."},
            {"premise": "", "hypothesis": "A cat sleeps."},
        ]
    )
    assert outputs[0]["label"] in {"entailment", "neutral", "contradiction"}
    assert outputs[1] == {
        "error": 'expected a JSON object with a "hypothesis" string',
        "input": {"premise": "A dog runs."},
    }
    assert outputs[2]["error"] == "the premise is empty"


def test_snli_files_predict_through_the_dataset_reader(entailment, tiny_snli):
    instances = list(entailment._dataset_reader.read(str(tiny_snli)))
    outputs = entailment.predict_batch_instance(instances[:2])
    assert outputs[0]["premise_tokens"][:3] == ["A", "man", "is"]
    assert all(output["label"] in output["probabilities"] for output in outputs)
