"""The CoNLL-2012 coreference reader on files written here: OntoNotes' layout, LitBank's, and broken ones."""

import pytest

from data_readers.conll2012 import Conll2012CorefReader, read_conll2012
from data_readers.errors import DataFormatError

# LitBank's layout: tab-separated, the coreference column empty for none, singletons annotated.
LITBANK_STYLE = (
    "#begin document (105_persuasion_brat); part 0\n"
    "105_persuasion_brat\t0\t0\tSir\t_\t_\t_\t_\t_\t_\t_\t_\t(0\n"
    "105_persuasion_brat\t0\t1\tWalter\t_\t_\t_\t_\t_\t_\t_\t_\t0)\n"
    "105_persuasion_brat\t0\t2\tsaw\t_\t_\t_\t_\t_\t_\t_\t_\t\n"
    "105_persuasion_brat\t0\t3\tKellynch\t_\t_\t_\t_\t_\t_\t_\t_\t(1)\n"
    "105_persuasion_brat\t0\t4\t.\t_\t_\t_\t_\t_\t_\t_\t_\t\n"
    "\n"
    "105_persuasion_brat\t0\t0\tHe\t_\t_\t_\t_\t_\t_\t_\t_\t(0)\n"
    "105_persuasion_brat\t0\t1\tslept\t_\t_\t_\t_\t_\t_\t_\t_\t\n"
    "\n"
    "#end document\n"
)


def write(tmp_path, text, name="data.conll"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_ontonotes_layout_documents_sentences_speakers_and_clusters(tiny_coref_conll):
    documents = list(read_conll2012(tiny_coref_conll))
    assert [(d.document_id, d.part, d.genre) for d in documents] == [
        ("nw/test/00/ada_0000", 0, "nw"),
        ("bc/test/00/talk_0000", 0, "bc"),
        ("nw/test/00/turing_0000", 1, "nw"),
    ]
    ada = documents[0]
    assert ada.sentences[1] == ["She", "admired", "his", "engine", "."]
    # Document offsets (sentences of 8, 5 and 6 words); "his" is a mention inside "his engine".
    assert ada.clusters == {0: [(0, 1), (8, 8), (15, 15)], 1: [(3, 4), (10, 10), (13, 13)], 2: [(10, 11), (16, 17)]}
    talk = documents[1]
    assert talk.speakers[1] == ["Speaker#2"] * 6
    assert talk.clusters[0] == [(0, 0), (6, 6), (15, 15)]


def test_instances_carry_what_the_model_needs(tiny_coref_conll):
    reader = Conll2012CorefReader(max_span_width=3)
    instance = list(reader.read(str(tiny_coref_conll)))[1]
    metadata = instance["metadata"].metadata
    assert metadata["sentence_lengths"] == [5, 6, 9]
    assert metadata["speakers"][:6] == ["Speaker#1"] * 5 + ["Speaker#2"]
    assert (metadata["genre"], metadata["document_id"]) == ("bc", "bc/test/00/talk_0000_0")
    assert sorted(map(sorted, metadata["clusters"])) == [[(0, 0), (6, 6), (15, 15)], [(2, 2), (9, 9), (13, 13)]]
    spans = [(span.span_start, span.span_end) for span in instance["spans"]]
    assert (2, 4) in spans and (4, 5) not in spans  # up to 3 words, never across sentences
    labels = dict(zip(spans, instance["span_labels"].labels))
    assert labels[(6, 6)] == labels[(0, 0)] != labels[(9, 9)] and labels[(1, 1)] == -1


def test_litbank_layout_with_empty_columns_and_singletons(tmp_path):
    path = write(tmp_path, LITBANK_STYLE)
    (document,) = read_conll2012(path)
    assert document.genre is None
    assert document.sentences == [["Sir", "Walter", "saw", "Kellynch", "."], ["He", "slept"]]
    assert document.clusters == {0: [(0, 1), (5, 5)], 1: [(3, 3)]}
    kept = list(Conll2012CorefReader(max_span_width=2).read(str(path)))[0]
    assert sorted(map(sorted, kept["metadata"].metadata["clusters"])) == [[(0, 1), (5, 5)], [(3, 3)]]
    removed = list(Conll2012CorefReader(max_span_width=2, remove_singleton_clusters=True).read(str(path)))[0]
    assert sorted(map(sorted, removed["metadata"].metadata["clusters"])) == [[(0, 1), (5, 5)]]


def test_training_windows_are_random_consecutive_sentences_redrawn_each_read(tiny_coref_conll):
    reader = Conll2012CorefReader(max_span_width=3, max_training_sentences=2, seed=1)
    windows = set()
    for _ in range(12):
        for instance in reader.read(str(tiny_coref_conll)):
            metadata = instance["metadata"].metadata
            assert len(metadata["sentence_lengths"]) == 2
            assert len(metadata["speakers"]) == len(metadata["original_text"]) == sum(metadata["sentence_lengths"])
            if metadata["document_id"].startswith("nw/test/00/ada"):
                windows.add(tuple(metadata["original_text"][:1]))
                words = metadata["original_text"]
                for cluster in metadata["clusters"]:  # offsets are the window's own
                    assert all(0 <= first <= last < len(words) for first, last in cluster)
    assert windows == {("Ada",), ("She",)}  # both windows of 2 of the 3 sentences came up


def test_max_sentences_keeps_the_first_sentences_and_their_mentions(tiny_coref_conll):
    reader = Conll2012CorefReader(max_span_width=3, max_sentences=1)
    instance = list(reader.read(str(tiny_coref_conll)))[0]
    metadata = instance["metadata"].metadata
    assert metadata["original_text"] == ["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London", "."]
    assert sorted(map(sorted, metadata["clusters"])) == [[(0, 1)], [(3, 4)]]


GOOD_LINE = "d 0 0 Ada - - - - - - * (0)\n"


@pytest.mark.parametrize(
    "body, line, message",
    [
        ("d 0 0 Ada - - - (0)\n", 2, "expected at least 12 columns .* found 8"),
        (
            GOOD_LINE + "d 0 1 met - - - - - - * x (0)\n",
            3,
            r"expected 12 columns, as on the sentence's first line \(2\), found 13",
        ),
        (
            "d 0 0 Ada - - - - - - * (0\nd 0 1 met - - - - - - * -\n\n",
            2,
            r"a mention of cluster 0 opens here and is not closed by the end of its sentence \(line 4\)",
        ),
        ("d 0 0 Ada - - - - - - * (0\n", 2, "a mention of cluster 0 opens here and is not closed"),
        ("d 0 0 Ada - - - - - - * 3)\n", 2, r"'3\)' closes a mention of cluster 3, but none is open"),
        (
            "d 0 0 Ada - - - - - - * (0)|(x\n",
            2,
            r"coreference column '\(0\)\|\(x': expected '-' or '\|'-separated parts",
        ),
    ],
)
def test_malformed_lines_stop_with_the_file_and_line(tmp_path, body, line, message):
    path = write(tmp_path, "#begin document (d); part 000\n" + body + "#end document\n")
    with pytest.raises(DataFormatError, match=message) as error:
        list(read_conll2012(path))
    assert error.value.path == str(path) and error.value.line_number == line


@pytest.mark.parametrize(
    "text, line, message",
    [
        (GOOD_LINE, 1, "a token line outside a document: expected '#begin document' first"),
        ("#begin document (d); part 000\n" + GOOD_LINE, 2, r"the file ends inside document 'd' \(line 1\)"),
        ("#begin document (d); part 000\n#begin document (e); part 000\n", 2, r"document 'd' \(line 1\) is not closed"),
        ("#begin document d\n", 1, r"expected '#begin document \(NAME\); part N'"),
        ("#end document\n", 1, "'#end document' without a '#begin document'"),
    ],
)
def test_broken_document_structure_is_refused(tmp_path, text, line, message):
    path = write(tmp_path, text)
    with pytest.raises(DataFormatError, match=message) as error:
        list(read_conll2012(path))
    assert error.value.line_number == line


def test_a_file_without_documents_is_refused(tmp_path):
    path = write(tmp_path, "\n")
    with pytest.raises(DataFormatError, match="no '#begin document' line"):
        list(Conll2012CorefReader(max_span_width=3).read(str(path)))


def test_bytes_that_are_not_utf8_are_refused(tmp_path):
    path = tmp_path / "latin1.conll"
    path.write_bytes(b"#begin document (d); part 000\nd 0 0 Caf\xe9 - - - - - - * -\n#end document\n")
    with pytest.raises(DataFormatError, match="line 2: expected UTF-8 text, found byte 0xe9"):
        list(read_conll2012(path))
