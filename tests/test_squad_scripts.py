"""The SQuAD scripts: the dev sampler of the CPU runs, and the bundled sample, which must read cleanly."""
import importlib.util
import logging
from pathlib import Path

from data_readers.squad import SquadV1Reader
from squad_fixtures import TINY_SQUAD, write_squad

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("squad_subset", ROOT / "scripts" / "squad_subset.py")
squad_subset = importlib.util.module_from_spec(spec)
spec.loader.exec_module(squad_subset)


def _ids(dataset):
    return [qa["id"] for article in dataset["data"] for paragraph in article["paragraphs"] for qa in paragraph["qas"]]


def test_the_sample_keeps_whole_questions_in_order_and_grows_by_inclusion(tmp_path):
    small, large = squad_subset.sample(TINY_SQUAD, 3, seed=5), squad_subset.sample(TINY_SQUAD, 6, seed=5)
    all_ids = _ids(TINY_SQUAD)
    assert len(_ids(small)) == 3 and len(_ids(large)) == 6
    assert set(_ids(small)) <= set(_ids(large))
    assert _ids(large) == [identifier for identifier in all_ids if identifier in set(_ids(large))]
    for article in large["data"]:
        assert article["paragraphs"], "articles without questions are left out"
        for paragraph in article["paragraphs"]:
            assert paragraph["qas"] and paragraph["context"]
    path = write_squad(tmp_path / "sample.json", large)
    assert len(list(SquadV1Reader().read(path))) == 6  # still valid SQuAD, answers and all


def test_the_bundled_sample_reads_without_dropping_or_widening_anything(caplog):
    with caplog.at_level(logging.INFO, logger="data_readers.squad"):
        for split, expected in (("train", 245), ("dev", 86)):
            path = ROOT / "bundled" / "data" / "squad" / f"{split}.json"
            instances = list(SquadV1Reader().read(path))
            assert len(instances) == expected
            assert f"{path}: {expected} questions, {expected} read, 0 dropped" in caplog.text
    assert "token boundaries" not in caplog.text
