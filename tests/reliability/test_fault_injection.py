"""
Real runs of `allennlp train` hurt on purpose: killed with SIGKILL at points where files are half
written (tests/reliability/faults.py), then resumed with `--recover`; and trained over an activation cache
damaged on disk. A run must finish with the metrics an unhurt run has and leave its cache intact,
and no run may train on damaged activations.
"""

import json
import os
import sqlite3
import subprocess
import zlib
from pathlib import Path

import numpy
import pytest

from tasks.reproduce.layout import is_finished
from tests.helpers.repository import ALLENNLP, ROOT, evaluate

# End-to-end through real processes (minutes on two cores): `pytest -m slow` runs them, as CI does.
pytestmark = pytest.mark.slow

OVERRIDES = json.dumps({"trainer.num_epochs": 2, "data_loader.batch_sampler.batch_size": 4})

# The tests that compare with `unhurt_metrics` stay in one pytest-xdist worker (`--dist loadgroup`, as the
# README's slow run uses), so the unhurt run trains once; the module's other tests may run beside them.
UNHURT_RUN_SHARED = pytest.mark.xdist_group("fault_injection_unhurt_run")


def train(
    run_dir: Path, environment, *extra, kill_at: str = "", overrides: str = OVERRIDES
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            ALLENNLP,
            "train",
            "configs/ner_elmo.jsonnet",
            "-s",
            str(run_dir),
            "-o",
            overrides,
            "--include-package",
            "tests.reliability.faults",
            *extra,
        ],
        cwd=ROOT,
        env={**environment, "KILL_AT": kill_at},
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture
def environment(ner_environment, tmp_path):
    return {**ner_environment, "ELMO_CACHE_DIR": str(tmp_path / "cache")}


@pytest.fixture(scope="module")
def unhurt_metrics(tmp_path_factory, tiny_conll, tiny_elmo):
    """The metrics of the same run, never interrupted."""
    directory = tmp_path_factory.mktemp("unhurt")
    environment = {
        **os.environ,
        "ELMO_CACHE_DIR": str(directory / "cache"),
        "NER_WORD_VECTORS": "",
        "ELMO_OPTIONS_FILE": str(tiny_elmo[0]),
        "ELMO_WEIGHT_FILE": str(tiny_elmo[1]),
        **{name: str(tiny_conll) for name in ("NER_TRAIN_DATA", "NER_DEV_DATA", "NER_TEST_DATA")},
    }
    result = train(directory / "run", environment)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads((directory / "run" / "metrics.json").read_text())


def cache_entries_intact(cache_root: Path) -> int:
    """How many entries the cache holds; fails if any entry's bytes do not match their checksum."""
    (folder,) = [path for path in cache_root.iterdir() if path.is_dir()]
    data = numpy.memmap(folder / "activations.bin", dtype=numpy.float16, mode="r")
    metadata = json.loads((folder / "metadata.json").read_text())
    width = metadata["num_layers"] * metadata["dim"]
    with sqlite3.connect(folder / "index.sqlite") as index:
        rows = index.execute("SELECT offset, positions, checksum FROM activations").fetchall()
    for offset, positions, checksum in rows:
        assert zlib.crc32(data[offset : offset + positions * width]) == checksum
    return len(rows)


@UNHURT_RUN_SHARED
@pytest.mark.parametrize("kill_at", ["cache_fill:2", "batch:4", "checkpoint:3", "archive:2"])
def test_killed_anywhere_then_recovered_finishes_with_complete_metrics(environment, tmp_path, kill_at, unhurt_metrics):
    run_dir = tmp_path / "run"
    killed = train(run_dir, environment, kill_at=kill_at)
    assert killed.returncode == -9, f"the fault at {kill_at} was never reached:\n{killed.stderr[-2000:]}"
    assert not is_finished(run_dir)  # even killed while archiving, after metrics.json: the runner resumes it
    recovered = train(run_dir, environment, "--recover")
    assert recovered.returncode == 0, recovered.stderr[-3000:]
    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert set(metrics) == set(unhurt_metrics)
    assert 0.0 <= metrics["test_f1-measure-overall"] <= 1.0
    assert (run_dir / "model.tar.gz").is_file()
    assert cache_entries_intact(tmp_path / "cache") > 0
    # What remains of the killed run's half-written files is never taken for a checkpoint.
    assert not [path.name for path in run_dir.glob("*.partial")]


# Three epochs of which the first stays the best ("+loss": the highest validation loss wins), the case
# where a resumed run once scored the test set with its last epoch's weights; dropout on the words, so
# that random numbers drawn after a resume other than the uninterrupted run's would show.
RESUMED_OVERRIDES = json.dumps(
    {
        "trainer.num_epochs": 3,
        "data_loader.batch_sampler.batch_size": 4,
        "trainer.validation_metric": "+loss",
        "random_seed": 7,
        "numpy_seed": 7,
        "pytorch_seed": 7,
    }
)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory, tiny_conll, tiny_elmo):
    """Two uninterrupted runs of the same training: (metrics of the first, metrics of the second)."""
    directory = tmp_path_factory.mktemp("uninterrupted")
    environment = {
        **os.environ,
        "ELMO_CACHE_DIR": str(directory / "cache"),
        "NER_WORD_VECTORS": "",
        "ELMO_OPTIONS_FILE": str(tiny_elmo[0]),
        "ELMO_WEIGHT_FILE": str(tiny_elmo[1]),
        **{name: str(tiny_conll) for name in ("NER_TRAIN_DATA", "NER_DEV_DATA", "NER_TEST_DATA")},
    }
    runs = []
    for name in ("first", "second"):
        result = train(directory / name, environment, overrides=RESUMED_OVERRIDES)
        assert result.returncode == 0, result.stderr[-3000:]
        runs.append(json.loads((directory / name / "metrics.json").read_text()))
    return runs


def _seconds(duration: str) -> float:
    hours, minutes, seconds = duration.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


@pytest.mark.xdist_group("fault_injection_uninterrupted_runs")  # its three cases share the two runs
@pytest.mark.parametrize("epoch", [1, 2, 3])
def test_a_run_killed_at_an_epoch_boundary_resumes_to_the_uninterrupted_run(
    environment, tmp_path, epoch, uninterrupted, tiny_conll
):
    run_dir = tmp_path / "run"
    killed = train(run_dir, environment, kill_at=f"epoch_end:{epoch}", overrides=RESUMED_OVERRIDES)
    assert killed.returncode == -9, f"the fault after epoch {epoch} was never reached:\n{killed.stderr[-2000:]}"
    recovered = train(run_dir, environment, "--recover", overrides=RESUMED_OVERRIDES)
    assert recovered.returncode == 0, recovered.stderr[-3000:]
    metrics = json.loads((run_dir / "metrics.json").read_text())
    first, second = uninterrupted
    assert metrics["best_epoch"] == 0

    # The test scores are those of the archived (best) weights.
    archived = evaluate(run_dir / "model.tar.gz", tiny_conll, environment=environment)
    for key, value in archived.items():
        assert metrics[f"test_{key}"] == pytest.approx(value, rel=1e-6, abs=1e-9), key

    # Every score and loss as the uninterrupted run's, to the precision two uninterrupted runs agree to.
    measured = {key for key, value in first.items() if isinstance(value, float) and "memory" not in key}
    assert measured, first
    for key in measured:
        agreement = abs(first[key] - second[key])
        assert metrics[key] == pytest.approx(first[key], abs=max(agreement, 1e-9)), key

    # The duration is the whole training's: the part before the kill counts.
    epoch_seconds = [json.loads((run_dir / f"metrics_epoch_{n}.json").read_text()) for n in range(3)]
    durations = [_seconds(values["training_duration"]) for values in epoch_seconds]
    assert durations == sorted(durations) and _seconds(metrics["training_duration"]) >= durations[-1]
    assert not [path.name for path in run_dir.glob("*.partial")]


@UNHURT_RUN_SHARED
def test_a_run_over_a_damaged_cache_trains_on_what_the_biLM_computes(environment, tmp_path, unhurt_metrics):
    first = train(tmp_path / "fills", environment)
    assert first.returncode == 0, first.stderr[-3000:]
    (data,) = (tmp_path / "cache").glob("*/activations.bin")
    damaged = bytearray(data.read_bytes())
    damaged[: len(damaged) // 2] = os.urandom(len(damaged) // 2)  # half the stored sentences
    data.write_bytes(bytes(damaged))

    second = train(tmp_path / "reads", environment)
    assert second.returncode == 0, second.stderr[-3000:]
    assert (
        "stored sentences damaged (checksum mismatch or past the end of activations.bin): computing them again"
        in second.stdout + second.stderr
    )
    metrics = json.loads((tmp_path / "reads" / "metrics.json").read_text())
    for key in ("best_validation_f1-measure-overall", "test_f1-measure-overall"):
        assert metrics[key] == pytest.approx(unhurt_metrics[key], abs=1e-6), key
    cache_entries_intact(tmp_path / "cache")
