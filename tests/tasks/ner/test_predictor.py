import pytest
from allennlp.common import Params
from allennlp.data import DatasetReader, Vocabulary
from allennlp.models import Model

from tasks.ner.model import BiLstmCrfTagger
from tasks.ner.predictor import NerTaggerPredictor


@pytest.fixture(scope="module")
def predictor(tiny_conll, tiny_elmo):
    params = Params(
        {
            "type": "bilstm_crf_tagger",
            "text_field_embedder": {
                "token_embedders": {
                    "tokens": {"type": "embedding", "embedding_dim": 4},
                    "elmo": {
                        "type": "elmo_token_embedder",
                        "options_file": str(tiny_elmo[0]),
                        "weight_file": str(tiny_elmo[1]),
                        "dropout": 0.0,
                    },
                }
            },
            "encoder": {"type": "lstm", "hidden_size": 4, "bidirectional": True},
        }
    )
    reader = DatasetReader.from_params(
        Params(
            {
                "type": "conll2003_ner",
                "token_indexers": {"tokens": {"type": "single_id"}, "elmo": {"type": "elmo_characters"}},
            }
        )
    )
    vocabulary = Vocabulary.from_instances(reader.read(str(tiny_conll)))
    model = Model.from_params(params=params, vocab=vocabulary)
    return NerTaggerPredictor(model, reader, max_tokens=12)


def test_is_the_default_predictor_of_the_model():
    assert BiLstmCrfTagger.default_predictor == "ner_tagger"


def test_raw_text_gives_tokens_tags_and_entities_with_character_offsets(predictor):
    # Force a known tag sequence so the span arithmetic is checked exactly.
    text = "Alan Turing worked at Bletchley Park."
    instance = predictor._json_to_instance({"sentence": text})
    output = predictor._describe(
        instance,
        {
            "words": [t.text for t in instance["tokens"].tokens],
            "tags": ["B-PER", "L-PER", "O", "O", "B-LOC", "L-LOC", "O"],
        },
    )
    assert output["tokens"] == ["Alan", "Turing", "worked", "at", "Bletchley", "Park", "."]
    assert output["entities"] == [
        {"text": "Alan Turing", "type": "PER", "start": 0, "end": 11, "token_start": 0, "token_end": 2},
        {"text": "Bletchley Park", "type": "LOC", "start": 22, "end": 36, "token_start": 4, "token_end": 6},
    ]


def test_model_predictions_have_one_tag_per_token_and_consistent_spans(predictor):
    text = "Grace  Hopper joined the Navy in 1943."
    output = predictor.predict_json({"sentence": text})
    assert output["tokens"] == ["Grace", "Hopper", "joined", "the", "Navy", "in", "1943", "."]
    assert len(output["tags"]) == len(output["tokens"])
    for entity in output["entities"]:
        assert text[entity["start"] : entity["end"]] == entity["text"]


def test_bad_lines_get_an_error_in_place_and_the_rest_are_predicted(predictor, caplog):
    inputs = [
        {"sentence": "Ada Lovelace wrote."},
        {"sentence": "   "},
        {"text": "wrong key"},
        {"sentence": " ".join(["word"] * 13)},
        {"sentence": "Rome."},
    ]
    outputs = predictor.predict_batch_json(inputs)
    assert [("error" in output) for output in outputs] == [False, True, True, True, False]
    assert outputs[1]["error"] == "the sentence is empty"
    assert outputs[2]["error"] == 'expected a JSON object with a "sentence" string'
    assert outputs[3]["error"].startswith("the sentence has 13 tokens, more than max_tokens=12")
    assert outputs[3]["input"] == inputs[3]
    assert outputs[4]["tokens"] == ["Rome", "."]
    assert caplog.text.count("not predicted") == 3


def test_conll_input_gets_token_spans_without_character_offsets(predictor, tiny_conll):
    instance = next(iter(predictor._dataset_reader.read(str(tiny_conll))))
    output = predictor._describe(
        instance,
        {
            "words": instance["metadata"]["words"],
            "tags": ["B-PER", "L-PER", "O", "U-LOC", "O"],
        },
    )
    assert output["entities"] == [
        {"text": "Ada Lovelace", "type": "PER", "token_start": 0, "token_end": 2},
        {"text": "Turin", "type": "LOC", "token_start": 3, "token_end": 4},
    ]
