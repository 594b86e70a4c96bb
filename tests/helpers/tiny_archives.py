"""
Each task's ELMo config trained once per test session on its tiny fixture, with `allennlp train` as a
user runs it, for the tests that need a trained archive but not a particular training (the demo's).
A task is trained the first time a test asks for it; later tests get the same archive.
"""

import json
import os
from pathlib import Path
from typing import Callable, Dict, Tuple

from tests.helpers.coref_data import TINY_COREF_CONLL
from tests.helpers.ner_data import TINY_CONLL
from tests.helpers.repository import allennlp
from tests.helpers.squad_data import write_squad
from tests.helpers.srl_data import write_fixtures
from tests.helpers.sst_snli_data import TINY_SNLI_PAIRS, TINY_SST, snli_lines


def _ner(directory: Path) -> Tuple[Dict[str, str], Dict]:
    data = directory / "tiny.conll"
    data.write_text(TINY_CONLL, encoding="utf-8")
    splits = {f"NER_{split}_DATA": str(data) for split in ("TRAIN", "DEV", "TEST")}
    # A learning rate and epochs enough for the model to find the fixture's own entities again.
    overrides = {"trainer.num_epochs": 20, "trainer.patience": None, "trainer.optimizer.lr": 0.01}
    return {**splits, "NER_WORD_VECTORS": ""}, overrides


def _srl(directory: Path) -> Tuple[Dict[str, str], Dict]:
    conllu, _ = write_fixtures(directory)
    splits = {f"SRL_{split}_DATA": str(conllu) for split in ("TRAIN", "DEV", "TEST")}
    variables = {**splits, "SRL_DATA_FORMAT": "universal_propbank", "SRL_WORD_VECTORS": "", "SRL_PREDICATE_MODEL": ""}
    return variables, {"model.encoder.hidden_size": 8, "model.encoder.num_layers": 2, "trainer.num_epochs": 2}


def _coref(directory: Path) -> Tuple[Dict[str, str], Dict]:
    data = directory / "tiny.v4_gold_conll"
    data.write_text(TINY_COREF_CONLL, encoding="utf-8")
    splits = {f"COREF_{split}_DATA": str(data) for split in ("TRAIN", "DEV", "TEST")}
    return {**splits, "COREF_WORD_VECTORS": ""}, {"trainer.num_epochs": 2}


def _squad(directory: Path) -> Tuple[Dict[str, str], Dict]:
    data = write_squad(directory / "tiny.json")
    variables = {"SQUAD_TRAIN_DATA": str(data), "SQUAD_DEV_DATA": str(data), "SQUAD_WORD_VECTORS": ""}
    return variables, {"trainer.num_epochs": 2, "data_loader.batch_sampler.batch_size": 4}


def _sst(directory: Path) -> Tuple[Dict[str, str], Dict]:
    data = directory / "trees.txt"
    data.write_text(TINY_SST, encoding="utf-8")
    splits = {f"SST_{split}_DATA": str(data) for split in ("TRAIN", "DEV", "TEST")}
    return {**splits, "SST_WORD_VECTORS": "", "TRAIN_LIMIT": "", "TRAIN_FRACTION": "1.0"}, {"trainer.num_epochs": 1}


def _snli(directory: Path) -> Tuple[Dict[str, str], Dict]:
    data = directory / "pairs.jsonl"
    data.write_text(snli_lines(TINY_SNLI_PAIRS), encoding="utf-8")
    splits = {f"SNLI_{split}_DATA": str(data) for split in ("TRAIN", "DEV", "TEST")}
    return {**splits, "SNLI_WORD_VECTORS": "", "TRAIN_LIMIT": "", "TRAIN_FRACTION": "1.0"}, {"trainer.num_epochs": 1}


TASKS: Dict[str, Callable[[Path], Tuple[Dict[str, str], Dict]]] = {
    "ner": _ner,
    "srl": _srl,
    "coref": _coref,
    "squad": _squad,
    "sst": _sst,
    "snli": _snli,
}


class TinyArchives:
    """`archives["ner"]`: the path of the tiny NER archive, trained on first use."""

    def __init__(self, directory: Path, tiny_elmo: Tuple[Path, Path]) -> None:
        self._directory = directory
        self._elmo = {"ELMO_OPTIONS_FILE": str(tiny_elmo[0]), "ELMO_WEIGHT_FILE": str(tiny_elmo[1])}
        self._archives: Dict[str, Path] = {}

    def __getitem__(self, task: str) -> Path:
        if task not in self._archives:
            data = self._directory / "data" / task
            data.mkdir(parents=True)
            variables, overrides = TASKS[task](data)
            run = self._directory / "runs" / task
            environment = {**os.environ, **self._elmo, **variables}
            arguments = ["train", f"configs/{task}_elmo.jsonnet", "-s", str(run), "-o", json.dumps(overrides)]
            allennlp(*arguments, environment=environment)
            self._archives[task] = run / "model.tar.gz"
        return self._archives[task]
