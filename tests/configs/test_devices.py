"""
DEVICES: where a config trains. The config side (configs/lib/devices.libsonnet), the variable's
check, and one distributed run of two CPU processes (gloo) on the tiny NER fixture: its metrics
count the whole development set across the workers, it tests on all of the test set, the training
part is the one a single process takes, and the workers share the ELMo activation cache.
"""

import json
import logging
import sqlite3
import subprocess
import sys

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError

from tasks.environment import apply_defaults
from tests.helpers.repository import ROOT


def _config(monkeypatch, devices):
    monkeypatch.setenv("DEVICES", devices)
    return Params.from_file(str(ROOT / "configs/ner_elmo.jsonnet")).as_dict(quiet=True)


def test_one_device_sets_the_trainer_and_several_make_a_distributed_run(monkeypatch):
    cpu = _config(monkeypatch, "cpu")
    assert cpu["trainer"]["cuda_device"] == -1 and "distributed" not in cpu
    assert cpu["data_loader"]["batch_sampler"]["batch_size"] == 64
    gpu = _config(monkeypatch, "1")
    assert gpu["trainer"]["cuda_device"] == 1 and "distributed" not in gpu
    four = _config(monkeypatch, "0,1,2,3")
    assert four["distributed"]["cuda_devices"] == [0, 1, 2, 3] and "cuda_device" not in four["trainer"]
    # Each process takes a quarter of the batch: the optimiser still sees 64 sentences a step.
    assert four["data_loader"]["batch_sampler"]["batch_size"] == 16
    assert _config(monkeypatch, "cpu,cpu")["distributed"]["cuda_devices"] == [-1, -1]


TRAINING_CONFIGS = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "configs").rglob("*.jsonnet"))


@pytest.mark.parametrize("config", TRAINING_CONFIGS)
def test_every_config_trains_where_devices_says(monkeypatch, config):
    """One rule for every config: the trainer's device, or a distributed run, comes from DEVICES."""
    for devices, device in (("cpu", -1), ("1", 1)):
        monkeypatch.setenv("DEVICES", devices)
        params = Params.from_file(str(ROOT / config)).as_dict(quiet=True)
        assert params["trainer"]["cuda_device"] == device and "distributed" not in params
    monkeypatch.setenv("DEVICES", "cpu,cpu")
    if config == "configs/bilm_pretrain.jsonnet":  # its text streams run on from batch to batch
        with pytest.raises(RuntimeError, match="trains in one process"):
            Params.from_file(str(ROOT / config))
        return
    params = Params.from_file(str(ROOT / config)).as_dict(quiet=True)
    assert params["distributed"]["cuda_devices"] == [-1, -1] and "cuda_device" not in params["trainer"]


@pytest.mark.parametrize("value", ["gpu", "0,0", "cpu,0", "-1"])
def test_devices_are_checked(value):
    with pytest.raises(ConfigurationError, match=f"DEVICES is '{value}': expected 'cpu', a GPU id"):
        apply_defaults({"DEVICES": value})


@pytest.mark.parametrize("gpus, expected", [(0, "cpu"), (2, "0")])
def test_unset_devices_take_the_first_gpu_else_the_cpu_and_the_log_says_why(monkeypatch, caplog, gpus, expected):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: gpus > 0)
    environment = {"DEVICES": ""}
    with caplog.at_level(logging.INFO, logger="tasks.environment"):
        apply_defaults(environment)
    assert environment["DEVICES"] == expected
    if gpus:
        assert "Configs train on GPU 0: DEVICES is not set and the first GPU torch sees" in caplog.text
    else:
        assert "Configs train on the CPU: DEVICES is not set and torch sees no GPU" in caplog.text


def test_devices_set_are_logged_and_gpus_that_torch_cannot_see_are_refused(monkeypatch, caplog):
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    with caplog.at_level(logging.INFO, logger="tasks.environment"):
        apply_defaults({"DEVICES": "cpu,cpu"})
        apply_defaults({"DEVICES": "0"})
    assert "Configs train in 2 processes on the CPU (AllenNLP's distributed trainer): DEVICES=cpu,cpu." in caplog.text
    assert "Configs train on GPU 0: DEVICES=0." in caplog.text
    with pytest.raises(ConfigurationError, match=r"DEVICES is '0,1', but torch sees 1 GPU\(s\) \(ids 0 to 0\)"):
        apply_defaults({"DEVICES": "0,1"})


@pytest.mark.slow
def test_two_cpu_processes_train_as_one(tiny_conll, tiny_elmo, tmp_path):
    fixture = str(tiny_conll)
    environment = {
        **__import__("os").environ,
        "DEVICES": "cpu,cpu",
        "TRAIN_FRACTION": "0.6",
        "ELMO_CACHE_DIR": str(tmp_path / "cache"),
        "NER_TRAIN_DATA": fixture,
        "NER_DEV_DATA": fixture,
        "NER_TEST_DATA": fixture,
        "ELMO_OPTIONS_FILE": str(tiny_elmo[0]),
        "ELMO_WEIGHT_FILE": str(tiny_elmo[1]),
    }
    run = tmp_path / "run"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "train",
            "configs/ner_elmo.jsonnet",
            "-s",
            str(run),
            "-o",
            json.dumps({"trainer.num_epochs": 2}),
        ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (run / "model.tar.gz").is_file()
    metrics = json.loads((run / "metrics.json").read_text())
    # Dev and test are the same file: the dev scores, counted by two workers over their halves and
    # summed, equal the test scores the primary computes alone over all of it.
    for name in ("precision-overall", "recall-overall", "f1-measure-overall", "f1-measure-LOC"):
        assert metrics[f"best_validation_{name}"] == pytest.approx(metrics[f"test_{name}"]), name
    # Recall is found / gold, and the fixture holds 17 gold entities: a whole number found of all 17.
    found = metrics["best_validation_recall-overall"] * 17
    assert found == pytest.approx(round(found))
    assert metrics["peak_worker_1_memory_MB"] > 0
    for worker in (0, 1):
        log = (run / f"out_worker{worker}.log").read_text()
        assert "training on 6 of 10 instances" in log  # the single-process choice, shared
    # One cache for both workers: each of the ten sentences stored once, all within the data file.
    (cache,) = (tmp_path / "cache").iterdir()
    with sqlite3.connect(cache / "index.sqlite") as index:
        rows = index.execute("SELECT offset, positions FROM activations").fetchall()
    layers_and_dim = json.loads((cache / "metadata.json").read_text())
    width = layers_and_dim["num_layers"] * layers_and_dim["dim"] * 2  # float16
    assert len(rows) == 10
    assert (
        max(offset * 2 + positions * width for offset, positions in rows) <= (cache / "activations.bin").stat().st_size
    )
