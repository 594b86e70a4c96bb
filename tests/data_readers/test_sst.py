import logging

import pytest
from allennlp.common.checks import ConfigurationError

from data_readers.errors import DataFormatError
from data_readers.sst import SstTreesReader, class_names
from tests.helpers.repository import ROOT, SHARED_DATA

BUNDLED = ROOT / "bundled" / "data" / "sst"
SHARED_SST = SHARED_DATA / "sst"


def read(path, **kwargs):
    return list(SstTreesReader(**kwargs).read(str(path)))


def test_sentences_get_their_root_label_by_name_and_brackets_unescaped(tiny_sst):
    instances = read(tiny_sst)
    assert len(instances) == 8
    assert [token.text for token in instances[0]["tokens"]] == ["The", "film", "is", "truly", "brilliant"]
    assert [instance["label"].label for instance in instances[:3]] == ["very positive", "very negative", "negative"]
    assert [token.text for token in instances[3]["tokens"]] == ["A", "warm", "film", "(", "mostly", "funny", ")"]


def test_phrases_and_the_minimum_length_are_counted_in_the_log(tiny_sst, caplog):
    with caplog.at_level(logging.INFO, logger="data_readers.sst"):
        phrases = read(tiny_sst, use_subtrees=True, min_phrase_tokens=4)
    # Hand-counted: nodes of 4 tokens or more in the eight trees.
    assert sorted(len(instance["tokens"]) for instance in phrases) == [4, 4, 4, 4, 4, 5, 5, 5, 7]
    assert "8 trees, 9 phrases read; left out: 59 phrases under 4 tokens" in caplog.text
    every_phrase = read(tiny_sst, use_subtrees=True)
    assert len(every_phrase) == 68


def test_coarser_granularities_merge_labels_and_leave_out_neutral(tiny_sst, caplog):
    assert [i["label"].label for i in read(tiny_sst, granularity="3-class")] == [
        "positive",
        "negative",
        "negative",
        "positive",
        "neutral",
        "positive",
        "negative",
        "positive",
    ]
    with caplog.at_level(logging.INFO, logger="data_readers.sst"):
        binary = read(tiny_sst, granularity="2-class")
    assert len(binary) == 7 and "1 neutral trees (no 2-class label)" in caplog.text
    assert class_names("5-class") == ["very negative", "negative", "neutral", "positive", "very positive"]
    assert class_names("2-class") == ["negative", "positive"]


@pytest.mark.parametrize(
    "line, message",
    [
        ("(3 (2 a) (3 film)", "line 2: expected one PTB tree such as (3 (2 a) (3 film)): Tree.read(): expected ')'"),
        ("(3 (2 a)) (3 film)", "line 2: expected one PTB tree"),
        ("(7 (2 a) (3 film))", "line 2: node label '7' is not a sentiment 0-4"),
        ("(3 (2 a) film)", "line 2: word 'film' has no sentiment node of its own: expected e.g. (2 film)"),
        ("(3 (2 a) (3 ))", "line 2: node (3) has no words"),
    ],
)
def test_malformed_trees_stop_with_the_line_and_what_was_expected(tmp_path, line, message):
    path = tmp_path / "trees.txt"
    path.write_text("(2 (2 fine) (2 .))\n" + line + "\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=message.replace("(", r"\(").replace(")", r"\)")) as error:
        read(path)
    assert error.value.path == str(path) and error.value.line_number == 2


def test_text_that_is_not_utf8_names_the_line_and_byte(tmp_path):
    path = tmp_path / "trees.txt"
    path.write_bytes(b"(2 (2 fine) (2 .))\n\n(3 (2 caf\xe9) (3 good))\n")
    with pytest.raises(DataFormatError, match=r"line 3: expected UTF-8 text, found byte 0xe9"):
        read(path)


def test_a_tokenizer_or_a_minimum_below_one_is_refused():
    with pytest.raises(ConfigurationError, match="takes no tokenizer"):
        SstTreesReader(tokenizer=object())
    with pytest.raises(ConfigurationError, match="min_phrase_tokens must be at least 1"):
        SstTreesReader(min_phrase_tokens=0)


def test_a_node_may_hold_a_token_with_a_space_as_the_treebank_does(tmp_path):
    path = tmp_path / "trees.txt"
    path.write_text(
        "(2 (2 (2 like) (2 8 1\\/2)) (2 \\*))\n", encoding="utf-8"
    )  # the title "8 1/2" is one token, with a space
    [instance] = read(path)
    assert [token.text for token in instance["tokens"]] == ["like", "8", "1/2", "*"]


def test_raw_tokens_make_an_unlabelled_instance():
    instance = SstTreesReader().text_to_instance(["not", "bad", "-LRB-", "really", "-RRB-"])
    assert "label" not in instance.fields
    assert [token.text for token in instance["tokens"]] == ["not", "bad", "(", "really", ")"]


def test_the_bundled_sample_reads_cleanly_with_every_label():
    counts = {split: len(read(BUNDLED / f"{split}.txt")) for split in ("train", "dev", "test")}
    assert counts == {"train": 240, "dev": 60, "test": 60}
    labels = {instance["label"].label for instance in read(BUNDLED / "train.txt")}
    assert labels == set(class_names("5-class"))


@pytest.mark.skipif(not SHARED_SST.is_dir(), reason=f"needs the shared SST copy at {SHARED_SST} (SHARED_DATA_DIR)")
def test_the_real_treebank_has_its_published_sizes():
    counts = {split: len(read(SHARED_SST / f"{split}.txt")) for split in ("train", "dev", "test")}
    assert counts == {"train": 8544, "dev": 1101, "test": 2210}
