"""
`allennlp reproduce --executor slurm` against a real one-node Slurm cluster (tests/helpers/slurm_cluster.py:
slurmctld, slurmd, slurmdbd over MariaDB, munge), started by these tests; they skip, saying why, where
Slurm is not installed or the daemons cannot run. The runs are NER on the bundled sample, as the smoke plan.
"""

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers.repository import ALLENNLP, ROOT
from tests.helpers.slurm_cluster import LocalSlurmCluster, unavailable

# One worker runs them all (`--dist loadgroup`): they share one cluster, whose daemons start once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("slurm_cluster")]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    why = unavailable()
    if why:
        pytest.skip(why)
    cluster = LocalSlurmCluster(tmp_path_factory.mktemp("slurm"), cpus=2)
    try:
        cluster.start()
    except RuntimeError as error:
        cluster.stop()
        pytest.skip(f"the local Slurm cluster did not start: {error}")
    yield cluster
    cluster.stop()


def _plan(tmp_path: Path, configs, seeds, epochs: int, time_min: int = 10) -> Path:
    path = tmp_path / "plan.json"
    experiment = {"task": "ner", "configs": configs, "seeds": seeds, "overrides": {"trainer.num_epochs": epochs}}
    plan = {
        "name": "slurm_test",
        "records": str(tmp_path / "records"),
        "experiments": [experiment],
        "slurm": {"resources": {"default": {"cpus": 1, "mem_gb": 2, "time_min": time_min}}},
    }
    path.write_text(json.dumps(plan))
    return path


def _reproduce(plan: Path, runs_dir: Path, environment, *options: str, background: bool = False):
    command = [ALLENNLP, "reproduce", str(plan), "--runs-dir", str(runs_dir), "--allow-uncommitted", *options]
    if background:
        return subprocess.Popen(command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=1800)


def _attempts(runs_dir: Path, name: str):
    return json.loads((runs_dir / name / "run_info.json").read_text())["attempts"]


def _wait_for(condition, what: str, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}")
        time.sleep(1)


def test_the_smoke_plan_through_slurm_gives_the_local_executors_results(cluster, tmp_path):
    """Same runs, same seeds, one thread each: the same metrics, records and report tables; a job a side."""
    plan = _plan(tmp_path, ["baseline", "elmo"], [1], epochs=2)
    environment = {**cluster.environment(), "OMP_NUM_THREADS": "1"}
    local = _reproduce(plan, tmp_path / "local", environment)
    assert local.returncode == 0, local.stdout[-3000:] + local.stderr[-3000:]
    (tmp_path / "records").rename(tmp_path / "local_records")
    on_slurm = _reproduce(plan, tmp_path / "slurm", environment, "--executor", "slurm", "--slurm-poll", "1")
    assert on_slurm.returncode == 0, on_slurm.stderr[-3000:]
    for name in ("ner-baseline-seed1", "ner-elmo-seed1"):
        here, there = (
            json.loads((tmp_path / folder / name / "metrics.json").read_text()) for folder in ("local", "slurm")
        )
        scores = {key for key, value in here.items() if isinstance(value, float) and "memory" not in key}
        assert {key: here[key] for key in scores} == {key: there[key] for key in scores}, name
        [attempt] = _attempts(tmp_path / "slurm", name)
        assert attempt["status"] == "finished" and attempt["slurm"]["state"] == "COMPLETED"
        assert attempt["slurm"]["job_id"] in cluster.jobs_submitted()
        record = json.loads((tmp_path / "records" / f"{name}.json").read_text())
        assert record["metrics"]["test_f1-measure-overall"] == here["test_f1-measure-overall"]
    reports = [(tmp_path / folder / "report" / "README.md").read_text() for folder in ("local", "slurm")]
    for section in ("## Summary", "## Table 1"):
        assert reports[0].split(section)[1].split("\n## ")[0] == reports[1].split(section)[1].split("\n## ")[0]


def test_a_second_runner_waits_for_the_jobs_queued_and_submits_nothing_twice(cluster, tmp_path):
    plan = _plan(tmp_path, ["baseline"], [2, 3], epochs=2)
    environment = cluster.environment()
    runs_dir = tmp_path / "runs"
    before = set(cluster.jobs_submitted())
    cluster.set_partition("DOWN")  # a busy cluster: the jobs wait in the queue
    try:
        first = _reproduce(plan, runs_dir, environment, "--executor", "slurm", "--slurm-poll", "1", background=True)
        _wait_for(lambda: len(set(cluster.jobs_submitted()) - before) == 2, "both jobs to be submitted")
        first.send_signal(signal.SIGKILL)  # the login node lost, say: the jobs stay queued
        first.wait()
    finally:
        cluster.set_partition("UP")
    submitted = set(cluster.jobs_submitted()) - before
    second = _reproduce(plan, runs_dir, environment, "--executor", "slurm", "--slurm-poll", "1")
    assert second.returncode == 0, second.stderr[-3000:]
    assert "waiting for its Slurm job" in second.stderr
    assert set(cluster.jobs_submitted()) - before == submitted  # nothing submitted twice
    for name in ("ner-baseline-seed2", "ner-baseline-seed3"):
        [attempt] = _attempts(runs_dir, name)
        assert attempt["status"] == "finished" and attempt["slurm"]["job_id"] in submitted


def test_a_cancelled_job_is_recorded_and_the_next_runner_resumes_it(cluster, tmp_path):
    plan = _plan(tmp_path, ["baseline"], [4], epochs=30)
    environment = cluster.environment()
    runs_dir, run_dir = tmp_path / "runs", tmp_path / "runs" / "ner-baseline-seed4"
    runner = _reproduce(plan, runs_dir, environment, "--executor", "slurm", "--slurm-poll", "1", background=True)
    _wait_for(lambda: (run_dir / "metrics_epoch_1.json").is_file(), "two epochs checkpointed")
    job_id = _attempts(runs_dir, "ner-baseline-seed4")[-1]["slurm"]["job_id"]
    subprocess.run(["scancel", job_id], env=environment, check=True)
    output = runner.communicate(timeout=300)[0].decode()
    assert runner.returncode == 1, output[-3000:]
    [cancelled] = _attempts(runs_dir, "ner-baseline-seed4")
    assert cancelled["status"] == "cancelled" and cancelled["slurm"]["state"] == "CANCELLED"
    assert cancelled["error"]["summary"].startswith(f"Slurm job {job_id} cancelled")
    assert cancelled["error"]["log_tail"]  # what the training printed last
    resumed = _reproduce(plan, runs_dir, environment, "--executor", "slurm", "--slurm-poll", "1")
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    attempts = _attempts(runs_dir, "ner-baseline-seed4")
    assert [(a["status"], a["recover"]) for a in attempts] == [("cancelled", False), ("finished", True)]
    assert json.loads((run_dir / "metrics.json").read_text())["epoch"] == 29


def test_a_job_past_its_time_limit_is_submitted_again_with_recover_until_it_finishes(cluster, tmp_path):
    # 40 epochs of a few seconds each take longer than the 1-minute limit, here or in CI
    plan = _plan(tmp_path, ["baseline"], [5], epochs=40, time_min=1)
    environment = cluster.environment()
    runs_dir = tmp_path / "runs"
    result = _reproduce(plan, runs_dir, environment, "--executor", "slurm", "--slurm-poll", "1", "--max-resubmits", "8")
    assert result.returncode == 0, result.stderr[-3000:]
    attempts = _attempts(runs_dir, "ner-baseline-seed5")
    assert attempts[0]["status"] == "timeout" and attempts[0]["slurm"]["state"] == "TIMEOUT"
    assert attempts[-1]["status"] == "finished" and all(a["recover"] for a in attempts[1:])
    assert "submitted again with --recover" in result.stderr
    assert json.loads((runs_dir / "ner-baseline-seed5" / "metrics.json").read_text())["epoch"] == 39
    assert os.path.isfile(runs_dir / "ner-baseline-seed5" / "model.tar.gz")
    # submitit's early warning comes as SIGURG, which kills nothing: under load, a job still starting when
    # Slurm sent the default SIGUSR2 (up to a minute early with a 1-minute limit) died of it, FAILED
    scripts = sorted((runs_dir / ".slurm" / "ner-baseline-seed5").glob("*/*_submission.sh"))
    assert len(scripts) == len(attempts) and all("#SBATCH --signal=URG@60" in s.read_text() for s in scripts)


def test_runs_that_read_a_finetuned_biLM_are_submitted_after_it(cluster, tmp_path, tiny_conll, tiny_elmo):
    """§A.1 on Slurm: the biLM is a job of its own, and its runs depend on it (afterok)."""
    from tests.tasks.reproduce.test_runner import TINY_BILM

    path = tmp_path / "plan.json"
    path.write_text(
        json.dumps(
            {
                "name": "finetuned_on_slurm",
                "environment": {
                    "ELMO_OPTIONS_FILE": str(tiny_elmo[0]),
                    "ELMO_WEIGHT_FILE": str(tiny_elmo[1]),
                    **{f"NER_{split}_DATA": str(tiny_conll) for split in ("TRAIN", "DEV", "TEST")},
                },
                "overrides": {"trainer.num_epochs": 1},
                "experiments": [
                    {
                        "task": "ner",
                        "configs": ["elmo"],
                        "seeds": [6],
                        "finetune_bilm": True,
                        "bilm_overrides": TINY_BILM,
                    }
                ],
                "slurm": {"resources": {"default": {"cpus": 1, "mem_gb": 2, "time_min": 10}}},
            }
        )
    )
    runs_dir = tmp_path / "runs"
    result = _reproduce(path, runs_dir, cluster.environment(), "--executor", "slurm", "--slurm-poll", "1")
    assert result.returncode == 0, result.stderr[-3000:]
    [built] = list((runs_dir / "bilms").iterdir())
    [bilm_attempt] = json.loads((built / "bilm_info.json").read_text())["attempts"]
    [run_attempt] = _attempts(runs_dir, "ner-elmo-finetuned-seed6")
    assert bilm_attempt["status"] == "finished" and run_attempt["status"] == "finished"
    assert run_attempt["slurm"]["after"] == bilm_attempt["slurm"]["job_id"]
