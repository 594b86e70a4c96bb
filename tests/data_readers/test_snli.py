import json
import logging
import re

import pytest
from allennlp.common.checks import ConfigurationError
from allennlp.data import Token

from data_readers.errors import DataFormatError
from data_readers.snli import SnliJsonlReader
from tests.helpers.repository import ROOT, SHARED_DATA
from tests.helpers.sst_snli_data import TINY_SNLI_PAIRS, snli_lines

BUNDLED = ROOT / "bundled" / "data" / "snli"
SHARED_SNLI = SHARED_DATA / "snli"


def read(path, **kwargs):
    return list(SnliJsonlReader(**kwargs).read(str(path)))


def test_labelled_pairs_are_tokenised_and_no_consensus_pairs_counted_out(tiny_snli, caplog):
    with caplog.at_level(logging.INFO, logger="data_readers.snli"):
        instances = read(tiny_snli)
    assert len(instances) == 9
    first = instances[0]
    assert [t.text for t in first["premise"]] == [
        "A",
        "man",
        "is",
        "riding",
        "a",
        "bicycle",
        "down",
        "a",
        "street",
        ".",
    ]
    assert [t.text for t in first["hypothesis"]] == ["A", "person", "is", "riding", "."]
    assert first["metadata"]["hypothesis_tokens"] == ["A", "person", "is", "riding", "."]
    expected = [label for label, _, _ in TINY_SNLI_PAIRS if label != "-"]
    assert [instance["label"].label for instance in instances] == expected
    assert "9 labelled pairs read; 1 left out: gold_label '-'" in caplog.text


def test_unlabelled_pairs_read_for_prediction(tmp_path, caplog):
    path = tmp_path / "unlabelled.jsonl"
    path.write_text(snli_lines(TINY_SNLI_PAIRS[:3], labelled=False), encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="data_readers.snli"):
        instances = read(path)
    assert len(instances) == 3 and all("label" not in instance.fields for instance in instances)
    assert "3 unlabelled pairs read" in caplog.text


def test_collapsed_labels():
    instance = SnliJsonlReader(collapse_labels=True).text_to_instance("A dog runs.", "A cat sleeps.", "contradiction")
    assert instance["label"].label == "non-entailment"


@pytest.mark.parametrize(
    "line, message",
    [
        (
            '{"gold_label": "neutral", "sentence1": "A dog runs.", "sentence2": "A dog',
            "line 2: expected one JSON object per line: Unterminated string",
        ),
        ('["A dog runs.", "A dog moves."]', "line 2: expected a JSON object, found list"),
        (
            '{"gold_label": "neutral", "sentence1": "A dog runs."}',
            'line 2: expected "sentence2" to be a non-empty string, found nothing',
        ),
        (
            '{"gold_label": "neutral", "sentence1": "  ", "sentence2": "A dog."}',
            "line 2: expected \"sentence1\" to be a non-empty string, found '  '",
        ),
        (
            '{"gold_label": "entails", "sentence1": "A dog runs.", "sentence2": "A dog."}',
            "line 2: unknown gold_label 'entails': expected one of entailment, neutral, contradiction or '-'",
        ),
        (
            '{"sentence1": "A dog runs.", "sentence2": "A dog moves."}',
            "line 2: expected a gold_label, as the lines before it have",
        ),
    ],
)
def test_bad_records_stop_with_the_line_and_what_was_expected(tmp_path, line, message):
    path = tmp_path / "pairs.jsonl"
    first = json.dumps({"gold_label": "entailment", "sentence1": "A dog runs.", "sentence2": "A dog moves."})
    path.write_text(first + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=re.escape(message)) as error:
        read(path)
    assert error.value.path == str(path) and error.value.line_number == 2


def test_an_unlabelled_file_may_not_turn_labelled(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text(
        snli_lines(TINY_SNLI_PAIRS[:1], labelled=False) + snli_lines(TINY_SNLI_PAIRS[1:2]), encoding="utf-8"
    )
    with pytest.raises(DataFormatError, match="line 2: expected no gold_label, as the lines before it"):
        read(path)


def test_text_that_is_not_utf8_names_the_line_and_byte(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(b'{"gold_label": "neutral", "sentence1": "A caf\xe9.", "sentence2": "A shop."}\n')
    with pytest.raises(DataFormatError, match="line 1: expected UTF-8 text, found byte 0xe9"):
        read(path)


def test_token_lists_are_taken_as_they_are():
    reader = SnliJsonlReader()
    instance = reader.text_to_instance([Token("A"), Token("dog")], "A dog runs.")
    assert [t.text for t in instance["premise"]] == ["A", "dog"]
    assert [t.text for t in instance["hypothesis"]] == ["A", "dog", "runs", "."]
    with pytest.raises(ConfigurationError, match="combine_input_fields is not supported"):
        SnliJsonlReader(combine_input_fields=True)


def test_the_bundled_sample_reads_cleanly():
    counts = {split: len(read(BUNDLED / f"{split}.jsonl")) for split in ("train", "dev", "test")}
    assert counts == {"train": 294, "dev": 60, "test": 60}  # train: 300 pairs, 6 without a majority label
    assert {instance["label"].label for instance in read(BUNDLED / "dev.jsonl")} == {
        "entailment",
        "neutral",
        "contradiction",
    }


@pytest.mark.skipif(not SHARED_SNLI.is_dir(), reason=f"needs the shared SNLI copy at {SHARED_SNLI} (SHARED_DATA_DIR)")
def test_the_real_dev_set_has_its_published_size():
    assert len(read(SHARED_SNLI / "snli_1.0_dev.jsonl")) == 9842
