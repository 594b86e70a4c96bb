"""The Universal PropBank reader: dependency heads grown to argument spans, and what it refuses."""

import logging

import pytest

from data_readers.errors import DataFormatError
from data_readers.universal_propbank import UniversalPropBankSrlReader
from tests.helpers.repository import ROOT, SHARED_DATA
from tests.helpers.srl_data import expected_frames, frames_of

UP_EWT = SHARED_DATA / "srl_up_ewt"


def test_universal_propbank_heads_become_the_spans_written_by_hand(srl_files, caplog):
    conllu, _ = srl_files
    with caplog.at_level(logging.INFO):
        instances = list(UniversalPropBankSrlReader().read(str(conllu)))
    assert frames_of(instances) == expected_frames()
    assert "skipped 1 unannotated sentences, 1 empty nodes, 0 multiword-token lines" in caplog.text
    assert "7 frames from 6 sentences; 1 sentences without a predicate gave no instance" in caplog.text


def test_conversion_counts_name_what_the_rule_did(srl_files):
    reader = UniversalPropBankSrlReader()
    list(reader.sentences(str(srl_files[0])))
    counts = reader.last_counts
    assert counts.arguments == 16
    assert (counts.non_contiguous, counts.words_dropped) == (1, 1)  # "The" of "The newly painted fence"
    assert counts.edge_punctuation_trimmed == 1  # the copula's ARG2 "calm"
    assert counts.predicate_in_subtree == 3  # "pilot" for "built", "fence" for "painted", "calm" for "was"
    assert counts.continued_predicates == 1  # "up"


def _conllu_line(word, form, head, pred="_", *arguments):
    return "\t".join([str(word), form, form, "NOUN", "_", "_", str(head), "dep", "_", "_", pred, *arguments])


@pytest.mark.parametrize(
    "lines, line_number, expected",
    [
        (["1\tAda\tada\tPROPN\t_\t_\t2\tnsubj\t_\t_"], 1, "expected at least 11 tab-separated columns"),
        (
            [_conllu_line(1, "Ada", 2, "_", "ARG0"), _conllu_line(2, "ran", 0, "run.01")],
            2,
            "expected 12 tab-separated columns (the 10 of CoNLL-U, PRED, and one argument column for each of the "
            "sentence's 1 predicates, those whose PRED is not '_'), found 11",
        ),
        (
            [_conllu_line(1, "Ada", 2, "_", "ARG0", "_"), _conllu_line(2, "ran", 0, "run.01", "V", "_")],
            1,
            "expected 12 tab-separated columns",
        ),
        (
            [_conllu_line(1, "Ada", 3, "_", "ARG0"), _conllu_line(2, "ran", 0, "run.01", "V")],
            1,
            "HEAD '3': expected a word ID of this sentence, or 0 for the root",
        ),
        (
            [_conllu_line(1, "Ada", 2, "_", "ARG0"), _conllu_line(2, "ran", 1, "run.01", "V")],
            1,
            "expected a dependency tree: the heads form a cycle",
        ),
        ([_conllu_line(1, "Ada", 2, "_", "ARG0"), _conllu_line(3, "ran", 0, "run.01", "V")], 2, "expected word ID 2"),
        (
            [_conllu_line(1, "Ada", 2, "_", ""), _conllu_line(2, "ran", 0, "run.01", "V")],
            1,
            "argument column 1 (column 12) is empty: expected a label or '_'",
        ),
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


def test_bundled_sample_reads_cleanly():
    root = ROOT / "bundled" / "data" / "srl"
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
