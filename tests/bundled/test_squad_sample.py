"""The bundled SQuAD sample (bundled/data/squad/make_sample.py), which must read cleanly."""

import logging

from data_readers.squad import SquadV1Reader
from tests.helpers.repository import ROOT


def test_the_bundled_sample_reads_without_dropping_or_widening_anything(caplog):
    with caplog.at_level(logging.INFO, logger="data_readers.squad"):
        for split, expected in (("train", 245), ("dev", 86)):
            path = ROOT / "bundled" / "data" / "squad" / f"{split}.json"
            instances = list(SquadV1Reader().read(path))
            assert len(instances) == expected
            assert f"{path}: {expected} questions, {expected} read, 0 dropped" in caplog.text
    assert "token boundaries" not in caplog.text
