"""The sentiment predictor on raw text, over a small untrained model with the tiny biLM."""

import pytest
from allennlp.common import Params
from allennlp.data import Vocabulary
from allennlp.models import Model

from tasks.sst.model import ElmoBcn
from tasks.sst.predictor import SentimentClassifierPredictor
from tests.helpers.sst_snli_data import elmo_params, reader_with_elmo

SENTIMENTS = ["very negative", "negative", "neutral", "positive", "very positive"]


@pytest.fixture(scope="module")
def sentiment(tiny_sst, tiny_elmo):
    reader = reader_with_elmo("sst_trees")
    vocabulary = Vocabulary.from_instances(reader.read(str(tiny_sst)))
    model = Model.from_params(
        vocab=vocabulary,
        params=Params(
            {
                "type": "elmo_bcn",
                "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 4}}},
                "embedding_dropout": 0.0,
                "pre_encode_feedforward": {"num_layers": 1, "hidden_dims": 4, "activations": "relu"},
                "encoder": {"type": "lstm", "input_size": 4, "hidden_size": 2, "bidirectional": True},
                "integrator": {"type": "lstm", "input_size": 12, "hidden_size": 2, "bidirectional": True},
                "integrator_dropout": 0.0,
                "output_layer": {"num_layers": 1, "hidden_dims": 5, "activations": "linear"},
                "elmo": elmo_params(tiny_elmo, 2),
                "use_input_elmo": True,
                "use_integrator_output_elmo": True,
            }
        ),
    )
    return SentimentClassifierPredictor(model, reader, max_tokens=12)


def test_it_is_the_models_default_predictor():
    assert ElmoBcn.default_predictor == "sentiment_classifier"


def test_a_sentence_gets_its_label_and_every_probability_by_name(sentiment):
    output = sentiment.predict_json({"sentence": "The film isn't (quite) brilliant."})
    assert output["tokens"] == ["The", "film", "is", "n't", "(", "quite", ")", "brilliant", "."]
    assert list(output["probabilities"]) == SENTIMENTS  # from most negative to most positive
    assert sum(output["probabilities"].values()) == pytest.approx(1.0, abs=1e-5)
    assert output["label"] == max(output["probabilities"], key=output["probabilities"].get)


def test_bad_sentences_get_an_error_in_place(sentiment):
    outputs = sentiment.predict_batch_json(
        [
            {"sentence": "Dull."},
            {"sentence": " "},
            {"text": "wrong key"},
            {"sentence": " ".join(["very"] * 13)},
        ]
    )
    assert outputs[0]["label"] in SENTIMENTS
    assert outputs[1] == {"error": "the sentence is empty", "input": {"sentence": " "}}
    assert outputs[2]["error"] == 'expected a JSON object with a "sentence" string'
    assert outputs[3]["error"].startswith("the sentence has 13 tokens, more than max_tokens=12")
