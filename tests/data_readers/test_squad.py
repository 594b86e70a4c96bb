"""The SQuAD 1.1 reader: character spans to token spans, the counts it logs, and its errors."""

import copy
import logging

import pytest
from allennlp.common import Params
from allennlp.data import DatasetReader

from data_readers.squad import SquadFormatError, SquadV1Reader
from tests.helpers.squad_data import TINY_SQUAD, write_squad


@pytest.fixture
def squad_file(tmp_path):
    return write_squad(tmp_path / "tiny.json")


def _with(change):
    """A copy of TINY_SQUAD after `change(copy)`."""
    dataset = copy.deepcopy(TINY_SQUAD)
    change(dataset)
    return dataset


def _first_question(dataset):
    return dataset["data"][0]["paragraphs"][0]["qas"][0]


def test_answers_become_token_spans_with_the_metadata_bidaf_reads(squad_file):
    instances = {instance["metadata"]["id"]: instance for instance in SquadV1Reader().read(squad_file)}
    assert len(instances) == 10
    river = instances["q-river"]
    passage = [token.text for token in river["passage"].tokens]
    assert passage[:9] == ["Velmora", "is", "a", "small", "town", "on", "the", "Orwen", "river"]
    assert (river["span_start"].sequence_index, river["span_end"].sequence_index) == (6, 8)
    assert [token.text for token in river["question"].tokens] == ["On", "which", "river", "is", "Velmora", "?"]
    metadata = river["metadata"].metadata
    assert metadata["answer_texts"] == ["the Orwen river"]
    start, end = metadata["token_offsets"][6][0], metadata["token_offsets"][8][1]
    assert metadata["original_passage"][start:end] == "the Orwen river"


def test_with_several_gold_answers_the_most_given_span_is_the_target_and_all_texts_are_kept(squad_file):
    founder = next(i for i in SquadV1Reader().read(squad_file) if i["metadata"]["id"] == "q-founder")
    tokens = [token.text for token in founder["passage"].tokens]
    assert tokens[founder["span_start"].sequence_index : founder["span_end"].sequence_index + 1] == ["Ada", "Marrow"]
    assert founder["metadata"]["answer_texts"] == ["Ada Marrow", "Ada Marrow, a miller", "Ada Marrow"]


def test_spans_off_token_boundaries_are_widened_and_counted(tmp_path, caplog):
    def answer_inside_a_token(dataset):
        # "214" starts inside the token "1214".
        _first_question(dataset)["answers"] = [{"text": "214", "answer_start": 63}]

    path = write_squad(tmp_path / "inexact.json", _with(answer_inside_a_token))
    with caplog.at_level(logging.INFO, logger="data_readers.squad"):
        founded = list(SquadV1Reader().read(path))[0]
    assert [token.text for token in founded["passage"].tokens][founded["span_start"].sequence_index] == "1214"
    assert "1 answer spans do not start and end on token boundaries" in caplog.text


def test_answers_at_the_first_of_repeated_texts_are_counted(tmp_path, caplog):
    # "Kalvik" occurs twice in its passage; the answer points at the first occurrence.
    def ask_for_kalvik(dataset):
        dataset["data"][0]["paragraphs"][1]["qas"][0]["answers"] = [{"text": "Kalvik", "answer_start": 0}]

    path = write_squad(tmp_path / "repeat.json", _with(ask_for_kalvik))
    with caplog.at_level(logging.INFO, logger="data_readers.squad"):
        assert len(list(SquadV1Reader().read(path))) == 10
    assert (
        "1 answers occur more than once in their passage and have answer_start at the first occurrence" in caplog.text
    )
    assert f"{path}: 10 questions, 10 read, 0 dropped" in caplog.text


def test_long_passages_are_cut_and_questions_left_without_an_answer_are_dropped_and_counted(squad_file, caplog):
    with caplog.at_level(logging.INFO, logger="data_readers.squad"):
        instances = list(SquadV1Reader(passage_length_limit=12).read(squad_file))
    assert {instance["metadata"]["id"] for instance in instances} == {"q-river", "q-people", "q-kind", "q-built"}
    assert all(len(instance["passage"].tokens) == 12 for instance in instances)
    assert f"{squad_file}: 10 questions, 4 read, 6 dropped" in caplog.text
    assert "3 passages cut to passage_length_limit=12 tokens; 6 questions dropped" in caplog.text


def test_text_to_instance_without_answers_has_no_span_fields():
    instance = SquadV1Reader().text_to_instance("Who sank?", "The Tern sank in 1902.")
    assert set(instance.fields) == {"passage", "question", "metadata"}
    assert instance["metadata"]["original_passage"] == "The Tern sank in 1902."


def test_the_config_name_builds_the_reader():
    reader = DatasetReader.from_params(Params({"type": "squad_v1", "tokenizer": {"type": "blank_spacy"}}))
    assert isinstance(reader, SquadV1Reader)


def _drop_context(dataset):
    del dataset["data"][0]["paragraphs"][1]["context"]


def _start_outside(dataset):
    _first_question(dataset)["answers"][0]["answer_start"] = 500


def _text_elsewhere(dataset):
    _first_question(dataset)["answers"][0]["answer_start"] = 61


def _no_answers(dataset):
    _first_question(dataset)["answers"] = []


def _unanswerable(dataset):
    _first_question(dataset)["is_impossible"] = True


def _start_not_a_number(dataset):
    _first_question(dataset)["answers"][0]["answer_start"] = "62"


def _no_question_text(dataset):
    _first_question(dataset)["question"] = " "


@pytest.mark.parametrize(
    "change, record, message",
    [
        (_drop_context, "article 0 ('Velmora'), paragraph 1", 'expected a non-empty "context" string'),
        (
            _start_outside,
            "article 0 ('Velmora'), paragraph 0, question 0 (id 'q-founded'), answer 0",
            "answer_start 500 with an answer of 4 characters is outside the context (143 characters)",
        ),
        (
            _text_elsewhere,
            "question 0 (id 'q-founded'), answer 0",
            "the context at answer_start 61 reads ' 121', not the answer text '1214'",
        ),
        (_no_answers, "question 0 (id 'q-founded')", 'expected a non-empty "answers" list'),
        (_unanswerable, "question 0 (id 'q-founded')", "an unanswerable (SQuAD 2.0) question"),
        (_start_not_a_number, "answer 0", 'expected an integer "answer_start"'),
        (_no_question_text, "question 0 (id 'q-founded')", 'expected a non-empty "question" string'),
    ],
)
def test_malformed_records_stop_reading_naming_the_file_and_the_record(tmp_path, change, record, message):
    path = write_squad(tmp_path / "bad.json", _with(change))
    with pytest.raises(SquadFormatError) as error:
        list(SquadV1Reader().read(path))
    assert str(error.value).startswith(f"{path}, ")
    assert record in str(error.value)
    assert message in str(error.value)


def test_a_file_that_is_not_squad_json_is_refused(tmp_path):
    not_json = tmp_path / "train.txt"
    not_json.write_text("Velmora is a town.\n")
    with pytest.raises(SquadFormatError, match=f"{not_json}, the file: not JSON"):
        list(SquadV1Reader().read(not_json))
    no_data = write_squad(tmp_path / "other.json", {"version": "1.1", "articles": []})
    with pytest.raises(SquadFormatError, match='expected a JSON object with a "data" list'):
        list(SquadV1Reader().read(no_data))
