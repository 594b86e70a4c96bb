"""scripts/litbank_coref_split.py on a LitBank-shaped folder written here, and on the real one when present."""

from pathlib import Path

import pytest

import litbank_coref_split
from data_readers.conll2012 import read_conll2012
from tests.helpers.repository import SHARED_DATA


def document(name: str, word: str) -> str:
    row = "\t".join([name, "0", "{}", "{}", *["_"] * 8, "{}"])
    return (
        f"#begin document ({name}); part 0\n"
        + row.format(0, word, "(0)")
        + "\n"
        + row.format(1, "slept", "")
        + "\n"
        + row.format(2, "and", "")
        + "\n"
        + row.format(3, "she", "(0)")
        + "\n\n#end document"
    )  # no final newline: the script must not glue documents together


def fake_litbank(root: Path) -> Path:
    (root / "coref" / "conll").mkdir(parents=True)
    for name, word in (("1_a_brat", "Ann"), ("2_b_brat", "Bea"), ("3_c_brat", "Cat"), ("4_d_brat", "Dot")):
        (root / "coref" / "conll" / f"{name}.conll").write_text(document(name, word), encoding="utf-8")
    split = root / "litbank_tenfold_splits" / "0"
    split.mkdir(parents=True)
    (split / "train.ids").write_text("1_a_brat.tsv\n3_c_brat.tsv\n")
    (split / "dev.ids").write_text("2_b_brat.tsv\n")
    (split / "test.ids").write_text("4_d_brat.tsv\n")
    return root


def run_split(monkeypatch, capsys, litbank: Path, output: Path, split: int = 0) -> str:
    arguments = ["--litbank", str(litbank), "--split", str(split), "--output-dir", str(output)]
    monkeypatch.setattr("sys.argv", ["litbank_coref_split.py", *arguments])
    litbank_coref_split.main()
    return capsys.readouterr().out


def test_writes_each_part_of_the_split_and_the_variables_for_it(tmp_path, monkeypatch, capsys):
    output = run_split(monkeypatch, capsys, fake_litbank(tmp_path / "litbank"), tmp_path / "out")
    assert output.splitlines() == [
        f"export COREF_TRAIN_DATA={tmp_path / 'out' / 'train.conll'}",
        f"export COREF_DEV_DATA={tmp_path / 'out' / 'dev.conll'}",
        f"export COREF_TEST_DATA={tmp_path / 'out' / 'test.conll'}",
    ]
    train = list(read_conll2012(tmp_path / "out" / "train.conll"))
    assert [d.document_id for d in train] == ["1_a_brat", "3_c_brat"]
    assert train[1].sentences == [["Cat", "slept", "and", "she"]] and train[1].clusters == {0: [(0, 0), (3, 3)]}
    assert [d.document_id for d in read_conll2012(tmp_path / "out" / "test.conll")] == ["4_d_brat"]


def test_a_document_missing_from_the_corpus_is_named(tmp_path):
    litbank = fake_litbank(tmp_path / "litbank")
    (litbank / "litbank_tenfold_splits" / "0" / "dev.ids").write_text("2_b_brat.tsv\n9_z_brat.tsv\n")
    with pytest.raises(SystemExit, match="dev.ids, line 2: '9_z_brat.tsv' has no coreference file"):
        litbank_coref_split.write_split(litbank, 0, tmp_path / "out")
    with pytest.raises(SystemExit, match="litbank_tenfold_splits/7"):
        litbank_coref_split.write_split(litbank, 7, tmp_path / "out")


@pytest.mark.skipif(
    not (SHARED_DATA / "litbank" / "litbank_tenfold_splits").is_dir(),
    reason=f"no LitBank at {SHARED_DATA}/litbank (set SHARED_DATA_DIR)",
)
def test_litbank_split_0_has_80_10_and_10_documents(tmp_path):
    outputs = litbank_coref_split.write_split(SHARED_DATA / "litbank", 0, tmp_path)
    counts = {part: len(list(read_conll2012(path))) for part, path in outputs.items()}
    assert counts == {"train": 80, "dev": 10, "test": 10}
