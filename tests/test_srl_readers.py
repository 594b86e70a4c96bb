"""The two SRL readers (CoNLL-2012 and Universal PropBank) and the predicate reader, on fixtures we wrote."""
import logging
import os
from pathlib import Path

import pytest
from allennlp.common.checks import ConfigurationError

from data_readers.conll2012_srl import Conll2012SrlReader
from data_readers.errors import DataFormatError
from data_readers.propbank_predicates import PropBankPredicatesReader
from data_readers.universal_propbank import UniversalPropBankSrlReader
from tests.srl_fixtures import conll2012_text, conllu_text, expected_frames, write_fixtures

SHARED_DATA = Path(os.environ.get("SHARED_DATA_DIR", Path(__file__).resolve().parents[2] / "shared" / "data"))
UP_EWT = SHARED_DATA / "srl_up_ewt"


@pytest.fixture
def fixture_files(tmp_path):
    return write_fixtures(tmp_path)


def frames_of(instances):
    return [
        (instance["metadata"]["words"], instance["metadata"]["verb_index"], instance["tags"].labels)
        for instance in instances
    ]


def test_universal_propbank_heads_become_the_spans_written_by_hand(fixture_files, caplog):
    conllu, _ = fixture_files
    with caplog.at_level(logging.INFO):
        instances = list(UniversalPropBankSrlReader().read(str(conllu)))
    assert frames_of(instances) == expected_frames()
    assert "skipped 1 unannotated sentences, 1 empty nodes, 0 multiword-token lines" in caplog.text
    assert "7 frames from 6 sentences; 1 sentences without a predicate gave no instance" in caplog.text


def test_conversion_counts_name_what_the_rule_did(fixture_files):
    reader = UniversalPropBankSrlReader()
    list(reader.sentences(str(fixture_files[0])))
    counts = reader.last_counts
    assert counts.arguments == 16
    assert (counts.non_contiguous, counts.words_dropped) == (1, 1)  # "The" of "The newly painted fence"
    assert counts.edge_punctuation_trimmed == 1  # the copula's ARG2 "calm"
    assert counts.predicate_in_subtree == 3  # "pilot" for "built", "fence" for "painted", "calm" for "was"
    assert counts.continued_predicates == 1  # "up"


def test_conll2012_reads_the_same_frames_as_universal_propbank(fixture_files):
    conllu, conll2012 = fixture_files
    from_conll2012 = frames_of(Conll2012SrlReader().read(str(conll2012)))
    assert from_conll2012 == expected_frames()
    assert from_conll2012 == frames_of(UniversalPropBankSrlReader().read(str(conllu)))


def test_instances_follow_allennlp_srl_layout(fixture_files):
    instance = next(iter(UniversalPropBankSrlReader().read(str(fixture_files[0]))))
    # allennlp-models' fields, and every predicate of the sentence for the model's predicate finder
    assert set(instance.fields) == {"tokens", "verb_indicator", "tags", "metadata", "sentence_predicates"}
    assert instance["verb_indicator"].labels == [0, 1, 0, 0, 0, 0, 0, 0]
    assert instance["metadata"]["verb"] == "repaired"
    assert instance["metadata"]["gold_tags"] == instance["tags"].labels
    predicates = instance["metadata"]["sentence_predicates"]
    assert 1 in predicates
    assert instance["sentence_predicates"].labels == [int(index in predicates) for index in range(8)]


def test_indicator_marks_the_predicate_alone_not_its_particle(fixture_files):
    picked = [i for i in UniversalPropBankSrlReader().read(str(fixture_files[0])) if i["metadata"]["verb"] == "picked"][0]
    assert picked["tags"].labels[:3] == ["B-ARG0", "B-V", "B-C-V"]
    assert picked["verb_indicator"].labels == [0, 1, 0, 0, 0, 0]


def test_conll2012_reads_a_directory_of_gold_conll_files_and_filters_domains(tmp_path):
    (tmp_path / "data" / "nw").mkdir(parents=True)
    (tmp_path / "data" / "bc").mkdir(parents=True)
    (tmp_path / "data" / "nw" / "a.gold_conll").write_text(conll2012_text(), encoding="utf-8")
    (tmp_path / "data" / "bc" / "b.gold_conll").write_text(conll2012_text(), encoding="utf-8")
    (tmp_path / "data" / "bc" / "b.gold_skel").write_text("not read\n", encoding="utf-8")
    assert len(list(Conll2012SrlReader().read(str(tmp_path / "data")))) == 2 * len(expected_frames())
    assert len(list(Conll2012SrlReader(domain_identifier="nw").read(str(tmp_path / "data")))) == len(expected_frames())
    with pytest.raises(ConfigurationError, match="no \\*gold_conll files in domain 'tc'"):
        list(Conll2012SrlReader(domain_identifier="tc").read(str(tmp_path / "data")))


def _conll2012_line(word, form, *cells, lemma="-", frameset="-", parse="*"):
    return " ".join(["doc", "0", str(word), form, "NN", parse, lemma, frameset, "-", "-", "*", *cells, "-"])


@pytest.mark.parametrize(
    "lines, line_number, expected",
    [
        (["doc 0 0 Ada NN (TOP*) - - - -"], 1, "expected at least 12 whitespace-separated columns"),
        ([_conll2012_line(0, "Ada", "(ARG0*)", "*"), _conll2012_line(1, "ran", "(V*)")], 2,
         "expected 14 columns, as on line 1 where this sentence starts (11 fixed, 2 argument columns, coreference), found 13"),
        ([_conll2012_line(0, "Ada", "(ARG0*)"), _conll2012_line(1, "ran", "*")], 1,
         "argument column 1 (column 12) marks no predicate"),
        ([_conll2012_line(0, "Ada", "(V*)"), _conll2012_line(1, "ran", "(V*)", lemma="run", frameset="01")], 2,
         "argument column 1 (column 12) marks a second predicate (the first, V, on line 1)"),
        ([_conll2012_line(0, "Ada", "(ARG0*"), _conll2012_line(1, "ran", "(V*)", lemma="run", frameset="01")], 2,
         "argument column 1 (column 12) opens V while ARG0, opened on line 1, is still open"),
        ([_conll2012_line(0, "Ada", "(ARG0*"), _conll2012_line(1, "ran", "*", lemma="run", frameset="01")], 2,
         "ARG0, opened on line 1, is never closed by the sentence's end"),
        ([_conll2012_line(0, "Ada", "*)"), _conll2012_line(1, "ran", "(V*)", lemma="run", frameset="01")], 1,
         "argument column 1 (column 12) closes a span that no line opened"),
        ([_conll2012_line(0, "Ada", "(ARG0(ARG1*))"), _conll2012_line(1, "ran", "(V*)")], 1,
         "expected *, (LABEL*, *) or (LABEL*), found '(ARG0(ARG1*))'"),
        ([_conll2012_line(0, "Ada", "*", "*"), _conll2012_line(1, "ran", "(V*)", "(V*)", lemma="run", frameset="01")], 2,
         "argument columns 1 and 2 mark the same predicate"),
        ([_conll2012_line(0, "Ada", "(ARG0*)", parse="(TOP"), _conll2012_line(1, "ran", "(V*)")], 1,
         "parse bit '(TOP': expected exactly one '*'"),
    ],
)
def test_bad_conll2012_lines_name_file_line_and_expectation(tmp_path, lines, line_number, expected):
    path = tmp_path / "bad.gold_conll"
    path.write_text("\n".join(lines) + "\n\n#end document\n", encoding="utf-8")
    with pytest.raises(DataFormatError) as error:
        list(Conll2012SrlReader().read(str(path)))
    assert error.value.line_number == line_number
    assert str(error.value).startswith(f"{path}, line {line_number}: ")
    assert expected in str(error.value)


def _conllu_line(word, form, head, pred="_", *arguments):
    return "\t".join([str(word), form, form, "NOUN", "_", "_", str(head), "dep", "_", "_", pred, *arguments])


@pytest.mark.parametrize(
    "lines, line_number, expected",
    [
        (["1\tAda\tada\tPROPN\t_\t_\t2\tnsubj\t_\t_"], 1, "expected at least 11 tab-separated columns"),
        ([_conllu_line(1, "Ada", 2, "_", "ARG0"), _conllu_line(2, "ran", 0, "run.01")], 2,
         "expected 12 tab-separated columns (the 10 of CoNLL-U, PRED, and one argument column for each of the "
         "sentence's 1 predicates, those whose PRED is not '_'), found 11"),
        ([_conllu_line(1, "Ada", 2, "_", "ARG0", "_"), _conllu_line(2, "ran", 0, "run.01", "V", "_")], 1,
         "expected 12 tab-separated columns"),
        ([_conllu_line(1, "Ada", 3, "_", "ARG0"), _conllu_line(2, "ran", 0, "run.01", "V")], 1,
         "HEAD '3': expected a word ID of this sentence, or 0 for the root"),
        ([_conllu_line(1, "Ada", 2, "_", "ARG0"), _conllu_line(2, "ran", 1, "run.01", "V")], 1,
         "expected a dependency tree: the heads form a cycle"),
        ([_conllu_line(1, "Ada", 2, "_", "ARG0"), _conllu_line(3, "ran", 0, "run.01", "V")], 2, "expected word ID 2"),
        ([_conllu_line(1, "Ada", 2, "_", ""), _conllu_line(2, "ran", 0, "run.01", "V")], 1,
         "argument column 1 (column 12) is empty: expected a label or '_'"),
    ],
)
def test_bad_conllu_lines_name_file_line_and_expectation(tmp_path, lines, line_number, expected):
    path = tmp_path / "bad.conllu"
    path.write_text("# sent_id = bad\n" + "\n".join(lines) + "\n\n", encoding="utf-8")
    with pytest.raises(DataFormatError) as error:
        list(UniversalPropBankSrlReader().read(str(path)))
    assert str(error.value).startswith(f"{path}, line {line_number + 1}: ")
    assert expected in str(error.value)


def test_broken_encoding_names_the_line(tmp_path):
    path = tmp_path / "latin1.conllu"
    path.write_bytes(("# sent_id = x\n" + _conllu_line(1, "M\u00fcller", 0) + "\t\n").encode("latin-1"))
    with pytest.raises(DataFormatError, match=r"line 2: expected UTF-8 text, found byte 0xfc"):
        list(UniversalPropBankSrlReader().read(str(path)))


def test_predicate_reader_marks_every_predicate_of_every_sentence(fixture_files):
    for path, frames_reader in zip(fixture_files, (UniversalPropBankSrlReader(), Conll2012SrlReader())):
        instances = list(PropBankPredicatesReader(frames_reader).read(str(path)))
        assert len(instances) == 6  # the sentence without a predicate too
        assert instances[1]["tags"].labels == ["O", "O", "O", "V", "O", "O", "V", "O", "O"]
        assert set(instances[5]["tags"].labels) == {"O"}


def test_predicate_reader_needs_an_srl_reader():
    from data_readers.conll2003 import Conll2003NerReader

    with pytest.raises(ConfigurationError, match="frames_reader must be an SRL reader"):
        PropBankPredicatesReader(Conll2003NerReader())


def test_bundled_sample_reads_cleanly():
    root = Path(__file__).resolve().parent.parent / "bundled" / "data" / "srl"
    reader = UniversalPropBankSrlReader()
    sizes = {split: len(list(reader.read(str(root / f"{split}.conllu")))) for split in ("train", "dev", "test")}
    assert all(size > 50 for size in sizes.values()), sizes
    assert reader.last_counts.non_contiguous > 0 and reader.last_counts.continued_predicates > 0


@pytest.mark.skipif(not UP_EWT.is_dir(), reason=f"Universal PropBank EWT not found at {UP_EWT} (set SHARED_DATA_DIR)")
def test_universal_propbank_ewt_dev_reads_as_documented():
    reader = UniversalPropBankSrlReader()
    instances = list(reader.read(str(UP_EWT / "en_ewt-up-dev.conllu")))
    counts = reader.last_counts
    assert len(instances) == 4977  # docs/srl.md
    assert (counts.arguments, counts.non_contiguous, counts.words_dropped) == (9662, 296, 885)
