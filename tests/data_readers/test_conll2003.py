import pytest

from data_readers.conll2003 import Conll2003NerReader, convert_iob1
from data_readers.errors import DataFormatError


def test_reads_sentences_and_skips_document_starts(tiny_conll):
    instances = list(Conll2003NerReader().read(str(tiny_conll)))
    assert len(instances) == 10
    first = instances[0]
    assert [t.text for t in first["tokens"].tokens] == ["Ada", "Lovelace", "visited", "Turin", "."]
    assert first["metadata"]["words"] == ["Ada", "Lovelace", "visited", "Turin", "."]
    assert first["tags"].labels == ["B-PER", "L-PER", "O", "U-LOC", "O"]


def test_adjacent_entities_of_one_type_stay_apart_in_every_scheme(tiny_conll):
    def third_sentence(scheme):
        return list(Conll2003NerReader(coding_scheme=scheme).read(str(tiny_conll)))[2]["tags"].labels

    assert third_sentence("IOB1") == ["I-LOC", "B-LOC", "O", "O", "O"]
    assert third_sentence("BIO") == ["B-LOC", "B-LOC", "O", "O", "O"]
    assert third_sentence("BIOUL") == ["U-LOC", "U-LOC", "O", "O", "O"]


@pytest.mark.parametrize(
    "iob1, bio, bioul",
    [
        (["I-PER", "I-PER", "O"], ["B-PER", "I-PER", "O"], ["B-PER", "L-PER", "O"]),
        (["I-ORG", "I-LOC", "I-LOC"], ["B-ORG", "B-LOC", "I-LOC"], ["U-ORG", "B-LOC", "L-LOC"]),
        (["I-MISC", "B-MISC", "I-MISC"], ["B-MISC", "B-MISC", "I-MISC"], ["U-MISC", "B-MISC", "L-MISC"]),
        (["O", "I-PER", "I-PER", "I-PER"], ["O", "B-PER", "I-PER", "I-PER"], ["O", "B-PER", "I-PER", "L-PER"]),
    ],
)
def test_iob1_conversions(iob1, bio, bioul):
    assert convert_iob1(iob1, "IOB1") == iob1
    assert convert_iob1(iob1, "BIO") == bio
    assert convert_iob1(iob1, "BIOUL") == bioul


def test_sentence_at_end_of_file_without_blank_line(tmp_path):
    path = tmp_path / "no_trailing_blank.conll"
    path.write_text("Rome NNP I-NP I-LOC\n. . O O", encoding="utf-8")
    instances = list(Conll2003NerReader().read(str(path)))
    assert [instance["tags"].labels for instance in instances] == [["U-LOC", "O"]]


@pytest.mark.parametrize(
    "content, line_number, expected",
    [
        ("Rome NNP I-NP I-LOC\nfell VBD I-VP\n", 2, "expected 4 space-separated columns"),
        ("Rome NNP I-NP I-LOC\n\nfell VBD I-VP O extra\n", 3, "found 5"),
        ("Rome NNP I-NP I-CITY\n", 1, "unknown NER tag 'I-CITY'"),
        ("Rome NNP I-NP U-LOC\n", 1, "unknown NER tag 'U-LOC'"),
    ],
)
def test_malformed_lines_name_file_line_and_expectation(tmp_path, content, line_number, expected):
    path = tmp_path / "bad.conll"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataFormatError) as error:
        list(Conll2003NerReader().read(str(path)))
    assert error.value.line_number == line_number
    assert str(error.value).startswith(f"{path}, line {line_number}: ")
    assert expected in str(error.value)


def test_broken_encoding_names_the_line(tmp_path):
    path = tmp_path / "latin1.conll"
    path.write_bytes("Rome NNP I-NP I-LOC\n\nM\u00fcller NNP I-NP I-PER\n".encode("latin-1"))
    with pytest.raises(DataFormatError, match=r"line 3: expected UTF-8 text, found byte 0xfc"):
        list(Conll2003NerReader().read(str(path)))


def test_other_entity_types_can_be_allowed(tmp_path):
    path = tmp_path / "other_types.conll"
    path.write_text("Rome NNP I-NP I-CITY\n", encoding="utf-8")
    instances = list(Conll2003NerReader(entity_types=None).read(str(path)))
    assert instances[0]["tags"].labels == ["U-CITY"]


def test_unknown_coding_scheme_is_rejected():
    with pytest.raises(ValueError, match="coding_scheme"):
        Conll2003NerReader(coding_scheme="IOBES")


@pytest.mark.parametrize("split, sentences", [("train", 400), ("dev", 100), ("test", 100)])
def test_the_bundled_sample_reads_cleanly(split, sentences):
    from tasks.environment import BUNDLED_DATA

    instances = list(Conll2003NerReader().read(str(BUNDLED_DATA / "ner" / f"{split}.txt")))
    assert len(instances) == sentences
    tags = {tag for instance in instances for tag in instance["tags"].labels}
    assert {"U-PER", "B-PER", "L-PER", "U-LOC", "B-ORG", "U-MISC", "O"} <= tags
