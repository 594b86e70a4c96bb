import json
import subprocess
import sys

from tests.helpers.repository import ROOT
from tests.helpers.sst_snli_data import TINY_SNLI_PAIRS, snli_lines


def test_dev_splits_by_premise_keeping_every_line(tmp_path):
    dev = tmp_path / "dev.jsonl"
    dev.write_text(snli_lines(TINY_SNLI_PAIRS), encoding="utf-8")
    command = [
        sys.executable,
        "scripts/split_for_selection.py",
        str(dev),
        str(tmp_path / "split"),
        "--heldout-fraction",
        "0.34",
    ]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    train = (tmp_path / "split" / "train_part.jsonl").read_text().splitlines()
    heldout = (tmp_path / "split" / "heldout_part.jsonl").read_text().splitlines()
    assert sorted(train + heldout) == sorted(dev.read_text().splitlines())
    premises = [{json.loads(line)["sentence1"] for line in part} for part in (train, heldout)]
    assert len(premises[0]) == 2 and len(premises[1]) == 1 and not premises[0] & premises[1]
    assert "3 premises; train_part" in result.stdout


def test_a_conllu_file_splits_by_sentence_with_its_comments(tmp_path):
    from tests.helpers.srl_data import conllu_text

    dev = tmp_path / "dev.conllu"
    dev.write_text(conllu_text(), encoding="utf-8")
    command = [
        sys.executable,
        "scripts/split_for_selection.py",
        str(dev),
        str(tmp_path / "split"),
        "--heldout-fraction",
        "0.3",
    ]
    subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    parts = [(tmp_path / "split" / f"{name}.conllu").read_text() for name in ("train_part", "heldout_part")]
    sentences = [[block for block in part.split("\n\n") if block.strip()] for part in parts]
    original = [block for block in dev.read_text().split("\n\n") if block.strip()]
    assert sorted(sentences[0] + sentences[1]) == sorted(original)
    assert sentences[1] and sentences[0]
    assert all(block.lstrip().startswith(("#", "1\t")) for part in sentences for block in part)
