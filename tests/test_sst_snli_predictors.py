"""The sentiment and entailment predictors on raw text, over small untrained models with the tiny biLM."""
import pytest
from allennlp.common import Params
from allennlp.data import DatasetReader, Vocabulary
from allennlp.models import Model

from tasks.snli.model import ElmoEsim
from tasks.snli.predictor import EntailmentClassifierPredictor
from tasks.sst.model import ElmoBcn
from tasks.sst.predictor import SentimentClassifierPredictor
from tests.sst_snli_fixtures import tiny_snli, tiny_sst  # noqa: F401  (fixtures)

SENTIMENTS = ["very negative", "negative", "neutral", "positive", "very positive"]


def _elmo(tiny_elmo, mixes):
    return {"options_file": str(tiny_elmo[0]), "weight_file": str(tiny_elmo[1]), "dropout": 0.0,
            "num_output_representations": mixes, "cache_directory": None}


def _reader(reader_type):
    return DatasetReader.from_params(Params({
        "type": reader_type, "token_indexers": {"tokens": {"type": "single_id"}, "elmo": {"type": "elmo_characters"}},
    }))


@pytest.fixture(scope="module")
def sentiment(tiny_sst, tiny_elmo):
    reader = _reader("sst_trees")
    vocabulary = Vocabulary.from_instances(reader.read(str(tiny_sst)))
    model = Model.from_params(vocab=vocabulary, params=Params({
        "type": "elmo_bcn",
        "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 4}}},
        "embedding_dropout": 0.0,
        "pre_encode_feedforward": {"num_layers": 1, "hidden_dims": 4, "activations": "relu"},
        "encoder": {"type": "lstm", "input_size": 4, "hidden_size": 2, "bidirectional": True},
        "integrator": {"type": "lstm", "input_size": 12, "hidden_size": 2, "bidirectional": True},
        "integrator_dropout": 0.0,
        "output_layer": {"num_layers": 1, "hidden_dims": 5, "activations": "linear"},
        "elmo": _elmo(tiny_elmo, 2), "use_input_elmo": True, "use_integrator_output_elmo": True,
    }))
    return SentimentClassifierPredictor(model, reader, max_tokens=12)


@pytest.fixture(scope="module")
def entailment(tiny_snli, tiny_elmo):
    reader = _reader("snli_jsonl")
    vocabulary = Vocabulary.from_instances(reader.read(str(tiny_snli)))
    model = Model.from_params(vocab=vocabulary, params=Params({
        "type": "elmo_esim",
        "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 4}}},
        "encoder": {"type": "lstm", "hidden_size": 2, "bidirectional": True},
        "matrix_attention": {"type": "dot_product"},
        "projection_feedforward": {"num_layers": 1, "hidden_dims": 3, "activations": "relu"},
        "inference_encoder": {"type": "lstm", "input_size": 3, "hidden_size": 2, "bidirectional": True},
        "output_feedforward": {"input_dim": 16, "num_layers": 1, "hidden_dims": 2, "activations": "relu"},
        "output_logit": {"input_dim": 2, "num_layers": 1, "hidden_dims": 3, "activations": "linear"},
        "elmo": _elmo(tiny_elmo, 2), "use_input_elmo": True, "use_output_elmo": True,
    }))
    return EntailmentClassifierPredictor(model, reader, max_tokens=12)


def test_they_are_the_models_default_predictors():
    assert ElmoBcn.default_predictor == "sentiment_classifier"
    assert ElmoEsim.default_predictor == "entailment_classifier"


def test_a_sentence_gets_its_label_and_every_probability_by_name(sentiment):
    output = sentiment.predict_json({"sentence": "The film isn't (quite) brilliant."})
    assert output["tokens"] == ["The", "film", "is", "n't", "(", "quite", ")", "brilliant", "."]
    assert list(output["probabilities"]) == SENTIMENTS  # from most negative to most positive
    assert sum(output["probabilities"].values()) == pytest.approx(1.0, abs=1e-5)
    assert output["label"] == max(output["probabilities"], key=output["probabilities"].get)


def test_bad_sentences_get_an_error_in_place(sentiment):
    outputs = sentiment.predict_batch_json([
        {"sentence": "Dull."}, {"sentence": " "}, {"text": "wrong key"}, {"sentence": " ".join(["very"] * 13)},
    ])
    assert outputs[0]["label"] in SENTIMENTS
    assert outputs[1] == {"error": "the sentence is empty", "input": {"sentence": " "}}
    assert outputs[2]["error"] == 'expected a JSON object with a "sentence" string'
    assert outputs[3]["error"].startswith("the sentence has 13 tokens, more than max_tokens=12")


def test_a_pair_gets_its_label_and_every_probability_by_name(entailment):
    output = entailment.predict_json({"premise": "A dog runs in a park.", "hypothesis": "An animal is outside."})
    assert output["premise_tokens"] == ["A", "dog", "runs", "in", "a", "park", "."]
    assert output["hypothesis_tokens"] == ["An", "animal", "is", "outside", "."]
    assert list(output["probabilities"]) == ["entailment", "neutral", "contradiction"]
    assert sum(output["probabilities"].values()) == pytest.approx(1.0, abs=1e-5)
    assert output["label"] == max(output["probabilities"], key=output["probabilities"].get)


def test_bad_pairs_get_an_error_in_place(entailment):
    outputs = entailment.predict_batch_json([
        {"premise": "A dog runs.", "hypothesis": "A cat sleeps."},
        {"premise": "A dog runs."},
        {"premise": "", "hypothesis": "A cat sleeps."},
    ])
    assert outputs[0]["label"] in {"entailment", "neutral", "contradiction"}
    assert outputs[1] == {"error": 'expected a JSON object with a "hypothesis" string', "input": {"premise": "A dog runs."}}
    assert outputs[2]["error"] == "the premise is empty"


def test_snli_files_predict_through_the_dataset_reader(entailment, tiny_snli):
    instances = list(entailment._dataset_reader.read(str(tiny_snli)))
    outputs = entailment.predict_batch_instance(instances[:2])
    assert outputs[0]["premise_tokens"][:3] == ["A", "man", "is"]
    assert all(output["label"] in output["probabilities"] for output in outputs)
