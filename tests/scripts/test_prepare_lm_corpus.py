"""`scripts/prepare_lm_corpus.py` on three tiny hard-wrapped novels invented for these tests."""

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

import prepare_lm_corpus

SCRIPT = Path(prepare_lm_corpus.__file__)

SKIP_WORDS = 10
HELDOUT_PERCENT = 25

# Each novel opens with paragraphs of 7 and 8 words (15 skipped: the second crosses SKIP_WORDS),
# marked by invented words that must not reach the corpus.
OPENING = """Zorblefax quorvent the opening words, Mr Skip.

   Then    Quibbleton
adds more words we must skip.

"""
NOVELS = {
    "2_second.txt": (
        OPENING + "Anna walked to the\nmarket. She bought\nbread, milk and eggs!\n\n"
        "Was it raining? Nobody\nknew.\n\n\n\nThe end came\n   quickly.\n",
        [
            "Anna walked to the market .",
            "She bought bread , milk and eggs !",
            "Was it raining ?",
            "Nobody knew .",
            "The end came quickly .",
        ],
    ),
    "10_tenth.txt": (
        OPENING + "The ship sailed\nat dawn.\n\nCaptain Reed\nwatched the grey sea; the crew slept.\n",
        ["The ship sailed at dawn .", "Captain Reed watched the grey sea ; the crew slept ."],
    ),
    "1_first.txt": (
        OPENING + "One paragraph\nonly, wrapped over\nthree lines. And\na second sentence. A third!\n"
        "A fourth?\n\nFive.\n",
        [
            "One paragraph only , wrapped over three lines .",
            "And a second sentence .",
            "A third !",
            "A fourth ?",
            "Five .",
        ],
    ),
}


@pytest.fixture
def novels(tmp_path) -> Path:
    directory = tmp_path / "original"
    directory.mkdir()
    for name, (text, _) in NOVELS.items():
        (directory / name).write_text(text, encoding="utf-8")
    return directory


def run(novels: Path, output_dir: Path, *extra: str) -> dict:
    return prepare_lm_corpus.main(
        [
            "--novels",
            str(novels),
            "--output-dir",
            str(output_dir),
            "--skip-words",
            str(SKIP_WORDS),
            "--heldout-percent",
            str(HELDOUT_PERCENT),
            *extra,
        ]
    )


def expected_splits():
    """Train and held-out lines: novels in sorted file-name order, held-out the tail of each."""
    train, heldout = [], []
    for name in sorted(NOVELS):
        sentences = NOVELS[name][1]
        split_at = len(sentences) - math.ceil(len(sentences) * HELDOUT_PERCENT / 100)
        train += sentences[:split_at]
        heldout += sentences[split_at:]
    return train, heldout


def test_sentences_are_tokenised_one_per_line_with_heldout_the_tail_of_each_novel(novels, tmp_path):
    run(novels, tmp_path / "out")
    train, heldout = expected_splits()
    assert (tmp_path / "out" / "train.txt").read_text(encoding="utf-8") == "".join(line + "\n" for line in train)
    assert (tmp_path / "out" / "heldout.txt").read_text(encoding="utf-8") == "".join(line + "\n" for line in heldout)
    assert heldout == [
        "Captain Reed watched the grey sea ; the crew slept .",
        "A fourth ?",
        "Five .",
        "Nobody knew .",
        "The end came quickly .",
    ]


def test_skipped_opening_is_absent(novels, tmp_path):
    run(novels, tmp_path / "out")
    corpus = "".join((tmp_path / "out" / name).read_text(encoding="utf-8") for name in ("train.txt", "heldout.txt"))
    for word in ("Zorblefax", "quorvent", "Skip", "Quibbleton"):
        assert word not in corpus


def test_stats_count_the_output(novels, tmp_path):
    stats = run(novels, tmp_path / "out")
    assert json.loads((tmp_path / "out" / "stats.json").read_text(encoding="utf-8")) == stats
    train, heldout = expected_splits()
    assert stats["novels"] == 3
    assert stats["words_skipped"] == 3 * 15
    for split, lines in (("train", train), ("heldout", heldout)):
        assert stats[split] == {"sentences": len(lines), "tokens": sum(len(line.split()) for line in lines)}
    assert stats["per_novel"]["1_first.txt"] == {"words_skipped": 15, "train_sentences": 3, "heldout_sentences": 2}
    assert stats["arguments"]["skip_words"] == SKIP_WORDS


def test_output_is_the_same_with_several_workers(novels, tmp_path):
    one = run(novels, tmp_path / "one")
    two = run(novels, tmp_path / "two", "--workers", "2")
    for name in ("train.txt", "heldout.txt"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    for stats in (one, two):
        del stats["arguments"]
    assert one == two


def test_max_novels_takes_the_first_in_name_order(novels, tmp_path):
    stats = run(novels, tmp_path / "out", "--max-novels", "1")
    assert list(stats["per_novel"]) == ["10_tenth.txt"]


def test_non_utf8_file_is_named_with_its_byte_offset(novels, tmp_path):
    bad = novels / "3_bad.txt"
    bad.write_bytes(b"Fine words here.\n\nBad \xff byte.\n")
    with pytest.raises(SystemExit, match=re.escape(f"{bad}: not valid UTF-8 at byte offset 22")):
        run(novels, tmp_path / "out")
    assert not list((tmp_path / "out").glob("*.partial"))


def test_missing_or_empty_folder_is_named(tmp_path):
    with pytest.raises(SystemExit, match=re.escape(f"{tmp_path / 'absent'}: novels folder not found")):
        run(tmp_path / "absent", tmp_path / "out")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit, match=re.escape(f"{tmp_path / 'empty'}: no .txt novels")):
        run(tmp_path / "empty", tmp_path / "out")


@pytest.fixture
def task_data(tmp_path) -> Path:
    """Every task source's file in SHARED_DATA_DIR's layout, from the tests' own tiny fixtures."""
    from tests.conftest import TINY_CONLL
    from tests.helpers.squad_data import write_squad
    from tests.helpers.srl_data import conllu_text
    from tests.helpers.sst_snli_data import TINY_SNLI_PAIRS, TINY_SST, snli_lines

    data = tmp_path / "data"
    for folder in ("conll2003", "sst", "snli", "squad", "srl_up_ewt"):
        (data / folder).mkdir(parents=True)
    (data / "conll2003" / "eng.train").write_text(TINY_CONLL, encoding="utf-8")
    (data / "sst" / "train.txt").write_text(TINY_SST, encoding="utf-8")
    (data / "snli" / "snli_1.0_dev.jsonl").write_text(snli_lines(TINY_SNLI_PAIRS), encoding="utf-8")
    write_squad(data / "squad" / "train-v1.1.reconstructed.json")
    (data / "srl_up_ewt" / "en_ewt-up-dev.conllu").write_text(conllu_text(), encoding="utf-8")
    return data


def test_several_sources_are_shuffled_together_and_each_keeps_its_heldout_apart(novels, task_data, tmp_path):
    from tests.helpers.sst_snli_data import TINY_SNLI_PAIRS

    sources = ["litbank", "squad", "conll2003", "sst", "snli", "universal_propbank"]
    stats = run(novels, tmp_path / "out", "--sources", *sources, "--task-data", str(task_data))
    output = tmp_path / "out"
    train = (output / "train.txt").read_text(encoding="utf-8").splitlines()
    heldout = (output / "heldout.txt").read_text(encoding="utf-8").splitlines()
    assert set(stats["sources"]) == set(sources)
    for source in sources:
        alone = (output / f"heldout_{source}.txt").read_text(encoding="utf-8").splitlines()
        assert alone and set(alone) <= set(heldout)
        assert stats["sources"][source]["heldout"]["sentences"] == len(alone)
    assert (
        stats["train"]["sentences"]
        == len(train)
        == sum(parts["train"]["sentences"] for parts in stats["sources"].values())
    )
    assert "Ada Lovelace visited Turin ." in train + heldout  # CoNLL-2003, as tokenised there
    assert "The film is truly brilliant" in train + heldout  # SST's leaves
    assert "A warm film ( mostly funny )" in train + heldout  # PTB brackets unescaped
    snli = [line for line in train + heldout if "riding" in line or "reading" in line or "cooking" in line]
    assert len(snli) == len(set(snli))  # each distinct sentence once
    premises = {premise for _, premise, _ in TINY_SNLI_PAIRS}
    assert (
        sum(premise in snli for premise in premises) == 2
    )  # the part of dev the suite trains on, not the held-out third
    assert not set(train) & set(heldout) - {"."}
    # Universal PropBank: the sentences SRL selects models on (split_for_selection's held-out part) stay out.
    selection = tmp_path / "selection"
    subprocess.run(
        [
            sys.executable,
            str(SCRIPT.parent / "split_for_selection.py"),
            str(task_data / "srl_up_ewt" / "en_ewt-up-dev.conllu"),
            str(selection),
        ],
        check=True,
        capture_output=True,
    )
    held_for_selection = [
        " ".join(row.split("\t")[1] for row in block.splitlines() if row and not row.startswith("#"))
        for block in (selection / "heldout_part.conllu").read_text(encoding="utf-8").split("\n\n")
        if block.strip()
    ]
    assert held_for_selection and not set(held_for_selection) & set(train + heldout)
    # A second run writes the same files: the shuffle is seeded.
    run(novels, tmp_path / "again", "--sources", *sources, "--task-data", str(task_data))
    for name in ("train.txt", "heldout.txt"):
        assert (output / name).read_bytes() == (tmp_path / "again" / name).read_bytes()
