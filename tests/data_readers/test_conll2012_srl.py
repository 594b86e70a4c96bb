"""The CoNLL-2012 SRL reader: OntoNotes' bracketed argument columns, files and folders, and what it refuses."""

import pytest
from allennlp.common.checks import ConfigurationError

from data_readers.conll2012_srl import Conll2012SrlReader
from data_readers.errors import DataFormatError
from data_readers.universal_propbank import UniversalPropBankSrlReader
from tests.helpers.srl_data import conll2012_text, expected_frames, frames_of


def test_conll2012_reads_the_same_frames_as_universal_propbank(srl_files):
    conllu, conll2012 = srl_files
    from_conll2012 = frames_of(Conll2012SrlReader().read(str(conll2012)))
    assert from_conll2012 == expected_frames()
    assert from_conll2012 == frames_of(UniversalPropBankSrlReader().read(str(conllu)))


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
        (
            [_conll2012_line(0, "Ada", "(ARG0*)", "*"), _conll2012_line(1, "ran", "(V*)")],
            2,
            "expected 14 columns, as on line 1 where this sentence starts (11 fixed, 2 argument columns, "
            "coreference), found 13",
        ),
        (
            [_conll2012_line(0, "Ada", "(ARG0*)"), _conll2012_line(1, "ran", "*")],
            1,
            "argument column 1 (column 12) marks no predicate",
        ),
        (
            [_conll2012_line(0, "Ada", "(V*)"), _conll2012_line(1, "ran", "(V*)", lemma="run", frameset="01")],
            2,
            "argument column 1 (column 12) marks a second predicate (the first, V, on line 1)",
        ),
        (
            [_conll2012_line(0, "Ada", "(ARG0*"), _conll2012_line(1, "ran", "(V*)", lemma="run", frameset="01")],
            2,
            "argument column 1 (column 12) opens V while ARG0, opened on line 1, is still open",
        ),
        (
            [_conll2012_line(0, "Ada", "(ARG0*"), _conll2012_line(1, "ran", "*", lemma="run", frameset="01")],
            2,
            "ARG0, opened on line 1, is never closed by the sentence's end",
        ),
        (
            [_conll2012_line(0, "Ada", "*)"), _conll2012_line(1, "ran", "(V*)", lemma="run", frameset="01")],
            1,
            "argument column 1 (column 12) closes a span that no line opened",
        ),
        (
            [_conll2012_line(0, "Ada", "(ARG0(ARG1*))"), _conll2012_line(1, "ran", "(V*)")],
            1,
            "expected *, (LABEL*, *) or (LABEL*), found '(ARG0(ARG1*))'",
        ),
        (
            [
                _conll2012_line(0, "Ada", "*", "*"),
                _conll2012_line(1, "ran", "(V*)", "(V*)", lemma="run", frameset="01"),
            ],
            2,
            "argument columns 1 and 2 mark the same predicate",
        ),
        (
            [_conll2012_line(0, "Ada", "(ARG0*)", parse="(TOP"), _conll2012_line(1, "ran", "(V*)")],
            1,
            "parse bit '(TOP': expected exactly one '*'",
        ),
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
