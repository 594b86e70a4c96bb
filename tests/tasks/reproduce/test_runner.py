"""
The runner on a quick plan over the tiny NER fixtures, with real `allennlp train` runs: a failed run
is recorded and the next one goes on, an interrupted run resumes with --recover where it stopped, a
finished one is skipped, a run whose config does not exist is reported, and the report shows them.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import List

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError

from tasks.bilm.weight_file import random_weights, tiny_options, write_elmo_files
from tasks.environment import PROJECT_ROOT
from tasks.reproduce import runner as runner_module
from tasks.reproduce.plan import load_plan
from tasks.reproduce.records import read_run_record, write_run_record
from tasks.reproduce.report import build_report
from tasks.reproduce.results import RunResult
from tasks.reproduce.runner import (
    CHANGED,
    EXTEND,
    FINISHED,
    MISSING,
    RECORDED,
    RESUME,
    STALE,
    START,
    UNEXPLAINED,
    Runner,
    child_environment,
    close_unrecorded_attempts,
    config_identity,
    state_of,
    with_defaults,
)

EPOCHS = 6
# -o for a biLM fine-tuned in a few seconds on the tiny NER fixture
TINY_BILM = {
    "dataset_reader.num_streams": 2,
    "data_loader.batch_size": 2,
    "dataset_reader.unroll_steps": 5,
    "model.num_samples": 0,
    "vocabulary.min_count.tokens": 1,
}


@pytest.fixture
def plan(tmp_path, tiny_conll, tiny_elmo):
    fixture = str(tiny_conll)
    path = tmp_path / "plan.json"
    path.write_text(
        json.dumps(
            {
                "name": "quick",
                "environment": {
                    "ELMO_OPTIONS_FILE": str(tiny_elmo[0]),
                    "ELMO_WEIGHT_FILE": str(tiny_elmo[1]),
                    "NER_TRAIN_DATA": fixture,
                    "NER_DEV_DATA": fixture,
                    "NER_TEST_DATA": fixture,
                },
                "overrides": {"trainer.num_epochs": EPOCHS},
                "experiments": [
                    {
                        "task": "ner",
                        "configs": ["elmo"],
                        "seeds": [1],
                        "label": "broken",
                        "environment": {"NER_TRAIN_DATA": str(tmp_path / "missing" / "eng.train")},
                    },
                    {
                        "task": "ner",
                        "configs": ["elmo"],
                        "seeds": [7],
                        "train_fractions": [0.6],
                        "data": "the tiny fixture",
                    },
                ],
            }
        )
    )
    plan = load_plan(str(path))
    # a config that is not in the repository (yet), as for a task that has not landed
    plan.runs.append(
        plan.runs[-1]._replace(name="ner-unwritten-seed1", config="configs/ablations/ner_unwritten.jsonnet")
    )
    return plan


def _interrupt_after_epoch_1(run_dir, done):
    """
    Ctrl-C for this process once the training in `run_dir` has written epoch 1's metrics (epoch 0's
    checkpoint is saved by then, so a resume skips epoch 0). Until `done`, the temporary file that
    epoch 2's metrics are written to (allennlp_compat/atomic_outputs.py) is a FIFO that nothing
    reads: the training waits there, so however slowly the signal arrives on a busy machine, the
    run cannot finish first. The FIFO is removed once `done` is set.
    """
    held = run_dir / "metrics_epoch_2.json.partial"

    def watch():
        # config.json is written after `allennlp train` has checked that its directory is empty
        while not (run_dir / "config.json").exists() and not done.is_set():
            time.sleep(0.01)
        if done.is_set():
            return
        os.mkfifo(held)
        while not (run_dir / "metrics_epoch_1.json").exists() and not done.is_set():
            time.sleep(0.1)
        if not done.is_set():
            os.kill(os.getpid(), signal.SIGINT)
        done.wait()
        held.unlink(missing_ok=True)  # the training removes it itself when Ctrl-C stops its write

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


@pytest.mark.slow
def test_failures_are_recorded_interruptions_resume_and_finished_runs_are_skipped(plan, tmp_path):
    runs_dir = tmp_path / "runs"
    broken, good = runs_dir / "ner-elmo-broken-seed1", runs_dir / "ner-elmo-fraction0.6-seed7"
    done = threading.Event()
    watcher = _interrupt_after_epoch_1(good, done)
    try:
        with pytest.raises(KeyboardInterrupt):
            Runner(plan, runs_dir).run()
    finally:
        done.set()
        watcher.join()

    failure = json.loads((broken / "run_info.json").read_text())
    assert failure["status"] == "failed" and failure["error"]["exit_code"] == 1
    assert (
        "NER_TRAIN_DATA names" in failure["error"]["summary"] and "which is not a file" in failure["error"]["summary"]
    )
    assert "NER_TRAIN_DATA names" in (broken / "console.log").read_text()
    stopped = json.loads((good / "run_info.json").read_text())
    assert stopped["status"] == "interrupted" and not (good / "metrics.json").exists()
    assert state_of(plan.runs[1], good) == RESUME
    assert state_of(plan.runs[2], runs_dir / "ner-unwritten-seed1") == MISSING

    assert Runner(plan, runs_dir, only=["fraction0.6"]).run() == 0
    info = json.loads((good / "run_info.json").read_text())
    assert info["status"] == "finished" and [a["recover"] for a in info["attempts"]] == [False, True]
    assert info["attempts"][0]["status"] == "interrupted" and info["attempts"][1]["exit_code"] == 0
    assert {attempt["omp_num_threads"] for attempt in info["attempts"]} == {os.environ.get("OMP_NUM_THREADS")}
    assert info["cpu_seconds"] == round(sum(attempt["cpu_seconds"] for attempt in info["attempts"]), 1) > 0
    resumed = (good / "console.log").read_text().split("resuming: ")[1]
    assert "Recovering from prior training" in resumed and f"Epoch {EPOCHS - 1}/{EPOCHS - 1}" in resumed
    # The first epoch was not trained again: its metrics file is the first attempt's.
    resumed_at = datetime.fromisoformat(info["attempts"][1]["started"]).timestamp()
    assert (good / "metrics_epoch_0.json").stat().st_mtime <= resumed_at + 1
    assert (good / f"metrics_epoch_{EPOCHS - 1}.json").stat().st_mtime > resumed_at
    assert (
        info["spec"]["environment"]["TRAIN_FRACTION"] == "0.6" and "6 of 10 instances" in (good / "out.log").read_text()
    )
    assert info["inputs"]["ELMO_WEIGHT_FILE"]["sha256"] and info["inputs"]["NER_TRAIN_DATA"]["bytes"] > 0
    assert info["config_values"]["trainer.num_epochs"] == {"config": 75, "run": EPOCHS}
    assert info["hardware"]["cpu_cores"] >= 1 and "commit" in info["git"]
    assert json.loads((good / "metrics.json").read_text())["epoch"] == EPOCHS - 1

    modified = (good / "run_info.json").stat().st_mtime_ns
    assert Runner(plan, runs_dir, only=["fraction0.6"]).run() == 0  # finished: skipped, nothing rewritten
    assert (good / "run_info.json").stat().st_mtime_ns == modified

    markdown, _ = build_report(runs_dir, tmp_path / "report")
    text = markdown.read_text()
    metrics = json.loads((good / "metrics.json").read_text())
    test_f1, dev_f1 = (metrics[f"{split}_f1-measure-overall"] * 100 for split in ("test", "best_validation"))
    assert f"| `ner-elmo-fraction0.6-seed7` | finished | {test_f1:.2f} (test), {dev_f1:.2f} (dev) |" in text
    assert "| `ner-elmo-broken-seed1` | failed |" in text and "NER_TRAIN_DATA names" in text
    assert "`ner-unwritten-seed1` (config missing: configs/ablations/ner_unwritten.jsonnet)" in text
    assert "trained on 6 of 10 instances (TRAIN_FRACTION / TRAIN_LIMIT)" in text


def test_what_a_run_directory_holds_decides_what_the_runner_does(plan, tmp_path):
    run = plan.runs[1]
    run_dir = tmp_path / run.name
    assert state_of(run, run_dir) == START
    run_dir.mkdir()
    (run_dir / "notes.txt").write_text("mine")
    assert state_of(run, run_dir) == CHANGED  # not made by the runner: left alone
    (run_dir / "notes.txt").unlink()
    (run_dir / "run_info.json").write_text(json.dumps({"spec": run.as_json(), "status": "failed"}))
    assert state_of(run, run_dir) == START  # an early failure: no checkpoint to resume from
    (run_dir / "config.json").write_text("{}")
    (run_dir / "training_state_e1_b0.th").write_bytes(b"")
    assert state_of(run, run_dir) == RESUME
    _end_with_metrics(run_dir, {})
    assert state_of(run, run_dir) == FINISHED
    assert state_of(run._replace(seed=8), run_dir) == CHANGED  # the plan now says otherwise
    assert state_of(run._replace(data="described anew"), run_dir) == FINISHED  # words only: same run
    # more epochs: patience had stopped it (epoch 4 of 6), so the longer schedule's run is this one...
    (run_dir / "config.json").write_text(json.dumps({"trainer": {"num_epochs": EPOCHS}}))
    _end_with_metrics(run_dir, {"epoch": 3})
    longer = run._replace(overrides={**run.overrides, "trainer.num_epochs": EPOCHS + 4})
    assert state_of(longer, run_dir) == FINISHED
    # ...its epochs ran out: it goes on from its last checkpoint where the plan says when and why, dated;
    # fewer epochs is another run
    _end_with_metrics(run_dir, {"epoch": EPOCHS - 1})
    assert state_of(longer, run_dir) == UNEXPLAINED
    reason = {"date": "2026-11-27", "epochs": [EPOCHS, EPOCHS + 4], "reason": "still learning"}
    longer = longer._replace(schedule_changes=(reason,))
    assert state_of(longer, run_dir) == EXTEND
    assert state_of(run._replace(overrides={**run.overrides, "trainer.num_epochs": EPOCHS - 1}), run_dir) == CHANGED
    assert state_of(longer._replace(seed=8), run_dir) == CHANGED


def _one_elmo_run_plan(tmp_path, tiny_conll, weights, finetune=False):
    path = tmp_path / "plan.json"
    environment = {"ELMO_OPTIONS_FILE": str(weights.with_name("options.json")), "ELMO_WEIGHT_FILE": str(weights)}
    environment.update({f"NER_{split}_DATA": str(tiny_conll) for split in ("TRAIN", "DEV", "TEST")})
    experiment = {"task": "ner", "configs": ["elmo"], "seeds": [1], "finetune_bilm": finetune}
    path.write_text(json.dumps({"name": "bytes", "environment": environment, "experiments": [experiment]}))
    return load_plan(str(path))


def _write_biLM(weights, seed):
    write_elmo_files(
        tiny_options(), random_weights(tiny_options(), seed=seed), weights.with_name("options.json"), weights
    )


def _end_with_metrics(run_dir, metrics):
    """A run's final metrics.json, then its archive, in the order `allennlp train` ends a run."""
    (run_dir / "metrics.json").write_text(json.dumps(metrics))
    (run_dir / "model.tar.gz").touch()


def _finish_as_recorded(runner, run):
    """Writes `run` as a finished run of the input files as they are now; returns its run_info.json."""
    run_dir = runner.runs_dir / run.name
    run_dir.mkdir(parents=True, exist_ok=True)
    recorded = {"spec": run.as_json(), "status": "finished"}
    recorded["inputs"] = runner._inputs(run.task, run.environment, runner.environment(run))
    (run_dir / "run_info.json").write_text(json.dumps(recorded))
    _end_with_metrics(run_dir, {})
    return recorded


def test_a_run_trained_on_other_input_bytes_is_not_counted_nor_resumed(tmp_path, tiny_conll, caplog):
    """A biLM replaced in place (re-bundled): its finished runs are reported, not mixed in; no run resumes on it."""
    weights = tmp_path / "bilm" / "weights.hdf5"
    weights.parent.mkdir()
    _write_biLM(weights, seed=1)
    plan = _one_elmo_run_plan(tmp_path, tiny_conll, weights)
    [run] = plan.runs
    runs_dir = tmp_path / "runs"
    run_dir = runs_dir / run.name
    runner = Runner(plan, runs_dir)
    recorded = _finish_as_recorded(runner, run)
    assert runner.state(run) == FINISHED

    original = weights.read_bytes()
    _write_biLM(weights, seed=2)
    runner = Runner(plan, runs_dir)
    assert runner.state(run) == STALE
    [change] = runner.changed_inputs(run)
    assert change.startswith(
        f"ELMO_WEIGHT_FILE: {weights} (sha256 {recorded['inputs']['ELMO_WEIGHT_FILE']['sha256'][:12]}"
    )
    before = sorted((path.name, path.stat().st_mtime_ns) for path in run_dir.iterdir())
    assert runner.run() == 1
    assert sorted((path.name, path.stat().st_mtime_ns) for path in run_dir.iterdir()) == before  # left alone
    assert "trained with other input bytes than the files hold now (ELMO_WEIGHT_FILE: " in caplog.text
    assert "(0 config missing, 0 changed, 1 inputs changed)" in runner.progress(runner.states())

    # interrupted instead: the checkpoint's config is the same, its biLM's bytes are not
    (run_dir / "metrics.json").unlink()
    (run_dir / "model.tar.gz").unlink()
    (run_dir / "training_state_e1_b0.th").write_bytes(b"")
    config = Params.from_file(run.config, json.dumps(run.overrides), ext_vars=with_defaults(runner.environment(run)))
    (run_dir / "config.json").write_text(json.dumps(config.as_dict()))
    assert Runner(plan, runs_dir).state(run) == RESUME
    assert Runner(plan, runs_dir).run() == 1
    refused = json.loads((run_dir / "run_info.json").read_text())
    assert refused["status"] == "failed" and refused["attempts"][-1]["exit_code"] is None
    assert "cannot resume: its checkpoint was trained with other input bytes" in refused["error"]["summary"]
    assert (run_dir / "training_state_e1_b0.th").is_file()

    weights.write_bytes(original)  # restored: the run is the plan's again
    (run_dir / "config.json").unlink()
    _finish_as_recorded(Runner(plan, runs_dir), run)
    assert Runner(plan, runs_dir).state(run) == FINISHED


def test_the_data_a_plan_makes_is_made_before_the_runs_that_read_it_once(tmp_path, tiny_snli, caplog, capsys):
    """A new machine needs no hand-written set-up: the runner writes the plan's splits where they are missing."""
    split = tmp_path / "split"
    parts = [str(split / "train_part.jsonl"), str(split / "heldout_part.jsonl")]
    steps = [
        {"command": ["python", "scripts/split_for_selection.py", str(tiny_snli), str(split)], "outputs": parts},
        {"command": ["python", "-c", "raise SystemExit('no such corpus')"], "outputs": [str(tmp_path / "lost.txt")]},
        {"command": ["python", "-c", "raise SystemExit(3)"], "outputs": [str(tmp_path / "unread.txt")]},
    ]
    environment = {"SNLI_TRAIN_DATA": parts[0], "SNLI_DEV_DATA": parts[1], "SNLI_TEST_DATA": str(tiny_snli)}
    lost = {"SNLI_TEST_DATA": steps[1]["outputs"][0]}
    experiments = [
        {"task": "snli", "configs": ["baseline"], "seeds": [1], "environment": environment},
        {"task": "snli", "configs": ["baseline"], "seeds": [2], "environment": lost},
    ]
    path = tmp_path / "plan.json"
    path.write_text(json.dumps({"name": "made", "prepare": steps, "experiments": experiments}))
    plan = load_plan(str(path))
    runner = Runner(plan, tmp_path / "runs")
    for run in plan.runs:  # finished already: only the data is made
        _finish_as_recorded(runner, run)

    runner.dry_run()
    printed = capsys.readouterr().out
    assert f"data {parts[0]}, {parts[1]}: to prepare\n    python scripts/split_for_selection.py {tiny_snli}" in printed
    assert "unread.txt" not in printed and not split.exists()

    caplog.set_level("INFO", logger="tasks.reproduce.prepare")
    assert runner.run() == 1  # a step failed
    assert "train_part 7 pairs" in caplog.text  # the script's own output
    assert "no such corpus" in caplog.text
    assert "Could not prepare " + str(tmp_path / "lost.txt") + ": `python -c" in caplog.text
    assert "unread.txt" not in caplog.text  # no run here reads it
    assert runner.states() == {run.name: FINISHED for run in plan.runs}
    made = [Path(part).stat().st_mtime_ns for part in parts]

    caplog.clear()
    Runner(plan, tmp_path / "runs").run()
    assert [Path(part).stat().st_mtime_ns for part in parts] == made  # there: not made again
    assert "Preparing " + parts[0] not in caplog.text
    Runner(plan, tmp_path / "runs").dry_run()
    assert f"data {parts[0]}, {parts[1]}: prepared" in capsys.readouterr().out


def test_a_finetuned_biLM_built_from_other_bytes_is_not_used(tmp_path, tiny_conll, caplog, capsys):
    weights = tmp_path / "bilm" / "weights.hdf5"
    weights.parent.mkdir()
    _write_biLM(weights, seed=1)
    plan = _one_elmo_run_plan(tmp_path, tiny_conll, weights, finetune=True)
    [run], [bilm] = plan.runs, plan.bilms
    runs_dir = tmp_path / "runs"
    built = runs_dir / "bilms" / bilm.name
    (built / "elmo").mkdir(parents=True)
    (built / "perplexity.json").write_text("{}")
    _write_biLM(built / "elmo" / "weights.hdf5", seed=3)
    runner = Runner(plan, runs_dir)
    inputs = runner._inputs("ner", bilm.environment, child_environment(bilm.environment))
    assert set(inputs) >= {"ELMO_WEIGHT_FILE", "NER_TRAIN_DATA"}
    (built / "bilm_info.json").write_text(json.dumps({"spec": bilm.as_json(), "status": "finished", "inputs": inputs}))
    _finish_as_recorded(runner, run)
    assert runner.state(run) == FINISHED and runner._build_bilm(bilm)

    _write_biLM(weights, seed=2)  # the biLM it was fine-tuned from is another now
    runner = Runner(plan, runs_dir)
    assert runner.state(run) == STALE and not runner._build_bilm(bilm)
    assert f"biLM {bilm.name}: {built} was built from other input bytes" in caplog.text
    runner.dry_run()
    said = capsys.readouterr().out
    assert f"biLM {bilm.name}: built from other input bytes\n    ELMO_WEIGHT_FILE: {weights} (sha256 " in said
    assert f"{run.name}: inputs changed" in said
    assert runner.run() == 1
    assert "its fine-tuned biLM" in caplog.text


@pytest.mark.slow
def test_a_finetuned_bilm_is_built_once_and_its_elmo_runs_read_it(tmp_path, tiny_conll, tiny_elmo, capsys):
    shared = tmp_path / "shared"  # the data as the plans read it: from SHARED_DATA_DIR
    shared.mkdir()
    shutil.copy(tiny_conll, shared / "tiny.conll")
    fixture = "@FIXTURE@"
    path = tmp_path / "plan.jsonnet"
    path.write_text(
        "local shared = std.extVar('SHARED_DATA_DIR');\n"
        + json.dumps(
            {
                "name": "finetuned",
                "records": str(tmp_path / "records"),
                "environment": {
                    "ELMO_OPTIONS_FILE": str(tiny_elmo[0]),
                    "ELMO_WEIGHT_FILE": str(tiny_elmo[1]),
                    "NER_TRAIN_DATA": fixture,
                    "NER_DEV_DATA": fixture,
                    "NER_TEST_DATA": fixture,
                },
                "overrides": {"trainer.num_epochs": 1},
                "experiments": [
                    {
                        "task": "ner",
                        "configs": ["elmo"],
                        "seeds": [1, 2],
                        "finetune_bilm": True,
                        "bilm_overrides": TINY_BILM,
                    }
                ],
            }
        ).replace('"@FIXTURE@"', "shared + '/tiny.conll'")
    )
    plan = load_plan(str(path), {"SHARED_DATA_DIR": str(shared)})
    runs_dir = tmp_path / "runs"
    assert Runner(plan, runs_dir).run() == 0
    (bilm,) = plan.bilms
    built = runs_dir / "bilms" / bilm.name
    perplexity = json.loads((built / "perplexity.json").read_text())
    assert perplexity["before"]["perplexity"] > 1 and perplexity["after"]["perplexity"] > 1
    info = json.loads((built / "bilm_info.json").read_text())
    assert info["status"] == FINISHED and len(info["attempts"]) == 1 and "finetune-bilm" in info["shell"]
    for seed in (1, 2):
        run = json.loads((runs_dir / f"ner-elmo-finetuned-seed{seed}" / "run_info.json").read_text())
        assert run["status"] == FINISHED
        assert run["environment"]["ELMO_WEIGHT_FILE"]["value"] == str(built / "elmo" / "weights.hdf5")
        config = json.loads((runs_dir / f"ner-elmo-finetuned-seed{seed}" / "config.json").read_text())
        assert config["model"]["text_field_embedder"]["token_embedders"]["elmo"]["weight_file"] == str(
            built / "elmo" / "weights.hdf5"
        )
    record = tmp_path / "records" / "ner-elmo-finetuned-seed2.json"
    record.unlink()  # lost, or the run finished before the plan kept records: written when the runner next starts
    assert Runner(plan, runs_dir).run() == 0  # built and finished: nothing again
    assert json.loads(record.read_text())["metrics"] == json.loads(
        (record.parent.parent / "runs" / record.stem / "metrics.json").read_text()
    )
    assert len(json.loads((built / "bilm_info.json").read_text())["attempts"]) == 1
    markdown, _ = build_report(runs_dir, tmp_path / "report")
    report = markdown.read_text()
    table_7 = report.split("## Table 7")[1].split("\n## ")[0]
    (row,) = [line for line in table_7.splitlines() if line.startswith("| NER |")]
    assert f"| 103.2 | 46.3 | {perplexity['before']['perplexity']:.1f} (" in row and "tiny.conll: 10, " in row
    assert row.startswith("| NER |") and "attempts" not in row
    assert "| NER (finetuned) |" in report.split("## Table 1")[1].split("\n## ")[0]
    # Another machine, with the records (committed), none of the run directories, and the data in
    # another folder: the biLM has the same name, nothing is trained or built again, and the report
    # has the same rows.
    records = sorted(str(path.relative_to(tmp_path / "records")) for path in (tmp_path / "records").rglob("*.json"))
    assert records == [f"bilms/{bilm.name}.json", "ner-elmo-finetuned-seed1.json", "ner-elmo-finetuned-seed2.json"]
    moved = tmp_path / "moved"
    shutil.copytree(shared, moved)
    plan_there = load_plan(str(path), {"SHARED_DATA_DIR": str(moved)})
    assert plan_there.bilms[0].name == bilm.name
    assert plan_there.bilms[0].environment["NER_TRAIN_DATA"] == str(moved / "tiny.conll")
    elsewhere = tmp_path / "elsewhere"
    runner = Runner(plan_there, elsewhere)
    runner.dry_run()
    said = capsys.readouterr().out
    assert f"biLM {bilm.name}: recorded" in said and "ner-elmo-finetuned-seed1: recorded" in said
    assert "[reproduce] 2 done (2 of them by their records), 0 running, 0 failed, 0 left of 2" in said
    assert runner.run() == 0
    assert sorted(path.name for path in elsewhere.iterdir()) == [".file_hashes.json", ".lock", "plan.json"]
    here, there = (build_report(folder, folder / "report")[0].read_text() for folder in (runs_dir, elsewhere))
    for section in ("## Table 1", "## Table 7", "## Figure 2", "## Training curves"):
        assert there.split(section)[1].split("\n## ")[0] == here.split(section)[1].split("\n## ")[0]
    assert "and the records of 2 runs in `records`" in there
    assert "| `ner-elmo-finetuned-seed1` | finished (record) |" in there
    # There, a build of the biLM and a run begun again (a new run of the plan needs the weights) and
    # stopped: the report keeps the recorded results, not the unfinished ones.
    for source, folder in ((built, elsewhere / "bilms" / bilm.name), (runs_dir / record.stem, elsewhere / record.stem)):
        folder.mkdir(parents=True)
        info_file = "bilm_info.json" if folder.parent.name == "bilms" else "run_info.json"
        unfinished = {**json.loads((source / info_file).read_text()), "status": "interrupted"}
        (folder / info_file).write_text(json.dumps(unfinished))
    again = build_report(elsewhere, elsewhere / "report")[0].read_text()
    for section in ("## Table 1", "## Table 7"):
        assert again.split(section)[1].split("\n## ")[0] == here.split(section)[1].split("\n## ")[0]
    assert f"| `{record.stem}` | finished (record) |" in again and "0 interrupted or incomplete" in again
    # A build resumed in a later session: its time is the last attempt's, and the row says so.
    info["attempts"] = info["attempts"] * 3
    (built / "bilm_info.json").write_text(json.dumps(info))
    report = build_report(runs_dir, tmp_path / "report")[0].read_text()
    assert "(the last of 3 attempts) |" in report.split("## Table 7")[1].split("\n## ")[0]
    assert "none, trained from scratch (the paper: Senna 50-d, fine-tuned)" in report
    # A replaced machine, where a run not yet recorded needs the biLM: it is built again, and its
    # record keeps the earlier build's attempt and perplexity (the weights read before are gone).
    record.unlink()
    replaced = tmp_path / "replaced"
    assert Runner(plan_there, replaced).run() == 0
    rebuilt = json.loads((tmp_path / "records" / "bilms" / f"{bilm.name}.json").read_text())
    assert [attempt["status"] for attempt in rebuilt["info"]["attempts"]] == [FINISHED, FINISHED]
    assert rebuilt["info"]["earlier_builds"][0]["after"] == perplexity["after"]
    assert (
        rebuilt["perplexity"]["after"]
        == json.loads((replaced / "bilms" / bilm.name / "perplexity.json").read_text())["after"]
    )
    table_7 = build_report(replaced, replaced / "report")[0].read_text().split("## Table 7")[1].split("\n## ")[0]
    assert (
        f"built 2 times, the earlier weights lost (perplexity after: {perplexity['after']['perplexity']:.1f})"
        in table_7
    )


def test_a_record_counts_only_for_the_same_run_on_the_same_input_bytes(tmp_path, tiny_conll):
    weights = tmp_path / "bilm" / "weights.hdf5"
    weights.parent.mkdir()
    _write_biLM(weights, seed=1)
    plan = _one_elmo_run_plan(tmp_path, tiny_conll, weights)._replace(records=tmp_path / "records")
    run = plan.runs[0]._replace(overrides={**plan.runs[0].overrides, "trainer.num_epochs": EPOCHS})
    runner = Runner(plan, tmp_path / "runs")
    inputs = runner._inputs(run.task, run.environment, runner.environment(run))
    metrics = {"epoch": EPOCHS - 1, "test_f1-measure-overall": 0.5}
    epochs = [{"epoch": 0, "validation_f1-measure-overall": 0.4, "validation_precision-PER": 0.3}]
    info = {"inputs": inputs}
    result = RunResult(run.name, tmp_path, FINISHED, run.as_json(), info, metrics, epochs, None, [], None, [])
    path = write_run_record(plan.records, result)
    assert runner.state(run) == RECORDED
    assert read_run_record(plan.records, run.name).epochs == [{"epoch": 0, "validation_f1-measure-overall": 0.4}]
    assert runner.state(run._replace(seed=2)) == START  # another run
    moved = tmp_path / "clone" / "tiny.conll"  # the same data, read from another folder
    moved.parent.mkdir()
    moved.write_bytes(tiny_conll.read_bytes())
    environment = {**run.environment, **{name: str(moved) for name in run.environment if name.startswith("NER_")}}
    assert runner.state(run._replace(environment=environment)) == RECORDED
    moved.write_text(tiny_conll.read_text() + "\nEU NNP B-NP B-ORG\n")  # other data
    assert Runner(plan, tmp_path / "runs").state(run._replace(environment=environment)) == START
    longer = run._replace(overrides={**run.overrides, "trainer.num_epochs": EPOCHS + 4})
    assert runner.state(longer) == START  # its epochs ran out: more would change it, and no checkpoint is here
    write_run_record(plan.records, result._replace(metrics={**metrics, "epoch": 2}))
    assert runner.state(longer) == RECORDED  # patience ended it: the longer schedule's run too
    _write_biLM(weights, seed=2)  # the biLM re-bundled: the record is of other bytes
    assert Runner(plan, tmp_path / "runs").state(run) == START

    path.write_text('{"format": 1, "name": "cut short"')
    with pytest.raises(ConfigurationError, match=f"{path}: not a run record, it is not JSON"):
        read_run_record(plan.records, run.name)
    path.write_text(json.dumps({"format": 1, "name": run.name}))
    with pytest.raises(ConfigurationError, match="the record lacks spec, info, metrics, epochs, mixes"):
        read_run_record(plan.records, run.name)


def test_a_run_another_plan_recorded_is_done_here_and_in_the_report(tmp_path, tiny_conll):
    """A plan's reference_records: another plan's record of the same training counts here, read only."""
    weights = tmp_path / "bilm" / "weights.hdf5"
    weights.parent.mkdir()
    _write_biLM(weights, seed=1)
    plan = _one_elmo_run_plan(tmp_path, tiny_conll, weights)._replace(records=tmp_path / "own")
    run, runs_dir = plan.runs[0], tmp_path / "runs"
    inputs = Runner(plan, runs_dir)._inputs(run.task, run.environment, Runner(plan, runs_dir).environment(run))
    metrics = {"epoch": 1, "test_f1-measure-overall": 0.5}
    result = RunResult(run.name, tmp_path, FINISHED, run.as_json(), {"inputs": inputs}, metrics, [], None, [], None, [])
    write_run_record(tmp_path / "other_plan", result)

    assert Runner(plan, runs_dir).state(run) == START  # another plan's records are not looked at unasked
    referencing = plan._replace(reference_records=[tmp_path / "other_plan"])
    runner = Runner(referencing, runs_dir)
    assert runner.state(run) == RECORDED
    assert runner.state(run._replace(seed=2)) == START  # another training
    runner.run()  # nothing to train
    assert not (tmp_path / "own").exists()  # the record stays where it was written, nowhere else
    markdown, _ = build_report(runs_dir, tmp_path / "report")
    text = markdown.read_text()
    assert "the records of 1 runs in `own` and `other_plan`" in text  # folders outside the repository: by name
    assert "50.00" in text  # the recorded test F1, in Table 1


@pytest.mark.slow
def test_a_run_resumes_from_a_moved_checkout_but_not_with_a_changed_config(plan, tmp_path, tiny_elmo):
    """
    A run whose config.json names its biLM and cache where an older checkout had them resumes, taking
    the new places (same bytes); a value that really changed stops it before training, named, and
    leaves the checkpoint as it was.
    """
    runs_dir, run = tmp_path / "runs", plan.runs[1]
    run_dir = runs_dir / run.name
    done = threading.Event()
    watcher = _interrupt_after_epoch_1(run_dir, done)
    try:
        with pytest.raises(KeyboardInterrupt):
            Runner(plan, runs_dir, only=[run.name]).run()
    finally:
        done.set()
        watcher.join()

    # What the run would have recorded in a checkout at /old/checkout that is gone now.
    prefix = "model.text_field_embedder.token_embedders.elmo."
    elmo_keys = {prefix + key: key for key in ("options_file", "weight_file")}
    cache_key = prefix + "cache_directory"
    config = json.loads((run_dir / "config.json").read_text())
    info = json.loads((run_dir / "run_info.json").read_text())
    elmo = config["model"]["text_field_embedder"]["token_embedders"]["elmo"]
    moved_from = {}
    for key, field in elmo_keys.items():
        moved_from[key] = elmo[field] = f"/old/checkout/bilm/{Path(elmo[field]).name}"
        variable = "ELMO_OPTIONS_FILE" if field == "options_file" else "ELMO_WEIGHT_FILE"
        info["inputs"][variable]["path"] = moved_from[key]
    moved_from[cache_key] = elmo["cache_directory"] = info["environment"]["ELMO_CACHE_DIR"]["value"] = "/old/cache"
    dropout, config["model"]["dropout"] = config["model"]["dropout"], 0.25
    (run_dir / "config.json").write_text(json.dumps(config))
    weight_sha256 = info["inputs"]["ELMO_WEIGHT_FILE"]["sha256"]
    info["inputs"]["ELMO_WEIGHT_FILE"]["sha256"] = "0" * 64  # the old checkout's biLM was another
    (run_dir / "run_info.json").write_text(json.dumps(info))
    checkpoints = sorted(path.name for path in run_dir.glob("training_state_*.th"))

    assert Runner(plan, runs_dir, only=[run.name]).run() == 1
    refused = json.loads((run_dir / "run_info.json").read_text())
    summary = refused["error"]["summary"]
    assert refused["status"] == "failed" and refused["attempts"][-1]["exit_code"] is None
    assert "cannot resume" in summary and "model.dropout: 0.25 when trained" in summary
    assert "elmo.weight_file: '/old/checkout/bilm/" in summary and "options_file" not in summary
    assert sorted(path.name for path in run_dir.glob("training_state_*.th")) == checkpoints
    assert json.loads((run_dir / "config.json").read_text()) == config  # untouched
    markdown, _ = build_report(runs_dir, tmp_path / "report")
    assert f"| `{run.name}` | failed |" in markdown.read_text() and "exit None" not in markdown.read_text()
    assert refused["inputs"]["ELMO_WEIGHT_FILE"]["path"] == moved_from[prefix + "weight_file"]  # still on record

    config["model"]["dropout"] = dropout
    (run_dir / "config.json").write_text(json.dumps(config))
    refused["inputs"]["ELMO_WEIGHT_FILE"]["sha256"] = weight_sha256
    (run_dir / "run_info.json").write_text(json.dumps(refused))
    assert Runner(plan, runs_dir, only=[run.name]).run() == 0
    info = json.loads((run_dir / "run_info.json").read_text())
    assert info["status"] == "finished" and info["attempts"][-1]["recover"]
    moved = info["attempts"][-1]["moved"]
    assert {key: change["from"] for key, change in moved.items()} == moved_from
    resumed = json.loads((run_dir / "config.json").read_text())["model"]["text_field_embedder"]
    assert resumed["token_embedders"]["elmo"]["weight_file"] == str(tiny_elmo[1])
    assert "Recovering from prior training" in (run_dir / "console.log").read_text()


@pytest.mark.slow
def test_a_run_given_more_epochs_goes_on_from_its_last_checkpoint(plan, tmp_path):
    """The plan raises trainer.num_epochs of a run whose epochs ran out: trained on, not again."""
    runs_dir, run = tmp_path / "runs", plan.runs[1]
    run_dir = runs_dir / run.name
    assert Runner(plan, runs_dir, only=[run.name]).run() == 0
    first = json.loads((run_dir / "metrics.json").read_text())
    assert first["epoch"] == EPOCHS - 1
    epoch_0 = (run_dir / "metrics_epoch_0.json").stat().st_mtime_ns

    longer = run._replace(overrides={**run.overrides, "trainer.num_epochs": EPOCHS + 2})
    unexplained = Runner(plan._replace(runs=[longer]), runs_dir)
    assert unexplained.states() == {run.name: UNEXPLAINED}  # a finished run gets more epochs only with a reason
    assert unexplained.run() == 1 and (run_dir / "metrics_epoch_0.json").stat().st_mtime_ns == epoch_0
    reason = {"date": "2026-11-27", "epochs": [EPOCHS, EPOCHS + 2], "reason": "best at its last epoch on dev"}
    longer = longer._replace(schedule_changes=(reason,))
    runner = Runner(plan._replace(runs=[longer]), runs_dir)
    assert runner.states() == {run.name: EXTEND}
    assert runner.run() == 0
    info = json.loads((run_dir / "run_info.json").read_text())
    assert info["status"] == FINISHED and info["spec"]["overrides"]["trainer.num_epochs"] == EPOCHS + 2
    assert [attempt["recover"] for attempt in info["attempts"]] == [False, True]
    assert info["attempts"][-1]["extended"] == {"from": EPOCHS, "to": EPOCHS + 2}
    assert json.loads((run_dir / "metrics.json").read_text())["epoch"] == EPOCHS + 1
    assert json.loads((run_dir / "config.json").read_text())["trainer"]["num_epochs"] == EPOCHS + 2
    assert (run_dir / "metrics_epoch_0.json").stat().st_mtime_ns == epoch_0  # not trained again
    assert f"Epoch {EPOCHS}/{EPOCHS + 1}" in (run_dir / "console.log").read_text().split("resuming: ")[1]
    assert Runner(plan._replace(runs=[longer]), runs_dir).states() == {run.name: FINISHED}
    # the shorter schedule's final metrics are kept beside the extension's
    assert json.loads((run_dir / f"metrics_{EPOCHS}_epochs.json").read_text()) == first


@pytest.mark.slow
def test_a_run_whose_extension_was_killed_resumes_it(plan, tmp_path):
    """
    A runner killed with the machine while it extended a run left the shorter schedule's metrics.json
    beside the longer config: the next runner sets that file aside and resumes the extension, rather
    than taking the run as finished.
    """
    runs_dir, run = tmp_path / "runs", plan.runs[1]
    run_dir = runs_dir / run.name
    assert Runner(plan, runs_dir, only=[run.name]).run() == 0
    first = json.loads((run_dir / "metrics.json").read_text())
    longer = run._replace(overrides={**run.overrides, "trainer.num_epochs": EPOCHS + 2})
    # what the killed runner had written when its extension began
    info = json.loads((run_dir / "run_info.json").read_text())
    killed_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    extended = {"from": EPOCHS, "to": EPOCHS + 2}
    info.update(spec=longer.as_json(), status="running")
    machine = {key: info["attempts"][0][key] for key in ("hardware", "git", "omp_num_threads")}
    info["attempts"].append({"started": killed_at, "recover": True, "extended": extended, **machine})
    (run_dir / "run_info.json").write_text(json.dumps(info))
    config = json.loads((run_dir / "config.json").read_text())
    config["trainer"]["num_epochs"] = EPOCHS + 2
    (run_dir / "config.json").write_text(json.dumps(config))

    assert Runner(plan._replace(runs=[longer]), runs_dir).run() == 0
    info = json.loads((run_dir / "run_info.json").read_text())
    assert info["status"] == FINISHED and [a.get("status") for a in info["attempts"]] == [FINISHED, "killed", FINISHED]
    assert json.loads((run_dir / "metrics.json").read_text())["epoch"] == EPOCHS + 1
    assert json.loads((run_dir / f"metrics_{EPOCHS}_epochs.json").read_text()) == first
    assert f"Epoch {EPOCHS}/{EPOCHS + 1}" in (run_dir / "console.log").read_text().split("resuming: ")[-1]


def test_a_run_patience_stopped_is_the_longer_schedules_run_too(plan, tmp_path):
    runs_dir, run = tmp_path / "runs", plan.runs[1]
    longer = run._replace(overrides={**run.overrides, "trainer.num_epochs": EPOCHS + 4})
    runner = Runner(plan._replace(runs=[longer]), runs_dir)
    _finish_as_recorded(runner, run)  # trained for at most EPOCHS epochs, stopped after 4
    (runs_dir / run.name / "config.json").write_text(json.dumps({"trainer": {"num_epochs": EPOCHS}}))
    _end_with_metrics(runs_dir / run.name, {"epoch": 3})
    assert runner.run() == 0
    info = json.loads((runs_dir / run.name / "run_info.json").read_text())
    assert info["spec"] == longer.as_json() and not info.get("attempts")
    assert info["schedule"] == f"planned for {EPOCHS} epochs, stopped by patience; {EPOCHS + 4} planned now"


def test_the_time_left_is_estimated_from_finished_runs_of_the_same_task(tmp_path):
    """
    A run's work (training fraction times epochs) scales its task's timed runs, and once two shapes
    have run, its epochs too (validation); other tasks are not guessed.
    """
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(
        json.dumps(
            {
                "name": "estimate",
                "experiments": [
                    {"task": "ner", "configs": ["baseline"], "seeds": [1, 2], "overrides": {"trainer.num_epochs": 40}},
                    {
                        "task": "ner",
                        "configs": ["baseline"],
                        "seeds": [1],
                        "train_fractions": [0.1],
                        "overrides": {"trainer.num_epochs": 60},
                    },
                    {
                        "task": "ner",
                        "configs": ["baseline"],
                        "seeds": [1],
                        "train_fractions": [0.3],
                        "overrides": {"trainer.num_epochs": 40},
                    },
                    {"task": "sst", "configs": ["baseline"], "seeds": [1]},
                ],
            }
        )
    )
    runner = Runner(load_plan(str(plan_path)), tmp_path / "runs")
    runner.durations["ner-baseline-seed1"] = 4000.0  # 40 epochs of all of it: 100 s an epoch
    states = {run.name: START for run in runner.runs}
    states["ner-baseline-seed1"] = FINISHED
    estimates = {run.name: runner.estimate(run) for run in runner.runs}
    assert estimates["ner-baseline-seed2"] == 4000.0
    assert estimates["ner-baseline-fraction0.1-seed1"] == pytest.approx(600.0)  # 60 epochs of a tenth
    assert estimates["sst-baseline-seed1"] is None
    assert estimates["ner-baseline-fraction0.3-seed1"] == pytest.approx(1200.0)  # 40 epochs of 0.3
    assert runner.progress(states).endswith(
        "1 done, 0 running, 0 failed, 4 left of 5; about 1.6 h to go for 3 of them "
        "(the other 1: no finished run to time them by)"
    )
    # runs side by side share the wall clock
    runner.parallel = 2
    assert "; about 48 min to go for 3 of them, 2 at a time (the other 1" in runner.progress(states)
    runner.parallel = 1
    # a run whose other seeds have finished takes about as long as they did, whatever the rest took
    runner.durations["ner-baseline-fraction0.1-seed1"] = 2000.0  # mostly validation: 333 s a unit of work
    assert runner.estimate(runner.runs[1]) == 4000.0
    # two shapes: 40 a + 40 b = 4000 and 6 a + 60 b = 2000 give a = 74.07 s a unit of work, b = 25.93 s an epoch
    assert runner.estimate(runner.runs[3]) == pytest.approx(12 * 4000 / 54 + 40 * (100 - 4000 / 54))
    # epochs of so many updates, whatever the part's size: its own seeds time it, and it times no other run
    in_passes = runner.runs[3]
    in_updates = in_passes._replace(
        name="ner-baseline-fraction0.3-seed2", overrides={**in_passes.overrides, "data_loader.batches_per_epoch": 100}
    )
    assert runner.estimate(in_updates) is None
    runner.runs.append(in_updates)
    runner.durations[in_updates.name] = 900.0
    assert runner.estimate(in_updates._replace(name="ner-baseline-fraction0.3-seed3")) == 900.0
    assert runner.estimate(in_passes) == pytest.approx(12 * 4000 / 54 + 40 * (100 - 4000 / 54))


def test_a_run_that_ended_as_ctrl_c_came_is_recorded_finished(plan, tmp_path, monkeypatch):
    """
    Ctrl-C that the runner takes after the training has archived its model (the run is done) leaves
    the run recorded as finished, not interrupted: a rerun has nothing to do and the report counts it.
    """
    supervise = runner_module._supervise

    def ctrl_c_as_it_ends(*args, **kwargs):
        process, _, cpu_seconds = supervise(*args, **kwargs)
        return process, True, cpu_seconds

    monkeypatch.setattr(runner_module, "_supervise", ctrl_c_as_it_ends)
    one_run = plan._replace(runs=[plan.runs[1]])
    runs_dir = tmp_path / "runs"
    with pytest.raises(KeyboardInterrupt):
        Runner(one_run, runs_dir).run()
    info = json.loads((runs_dir / one_run.runs[0].name / "run_info.json").read_text())
    assert info["status"] == FINISHED and [a["status"] for a in info["attempts"]] == [FINISHED]
    assert 0 < info["cpu_seconds"] == info["attempts"][0]["cpu_seconds"]
    monkeypatch.undo()
    assert state_of(one_run.runs[0], runs_dir / one_run.runs[0].name) == FINISHED


def test_a_processs_cpu_time_leaves_out_the_time_it_was_stopped():
    """A training paused with SIGSTOP (a timing, a shared machine) adds to its wall time, not its CPU time."""
    burn = "import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end: pass"
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-c", burn])
    process.send_signal(signal.SIGSTOP)
    time.sleep(1.0)
    process.send_signal(signal.SIGCONT)
    cpu_seconds = runner_module._reap(process, timeout=None)
    wall_seconds = time.monotonic() - started
    assert process.returncode == 0 and process.poll() == 0
    assert 0.5 <= cpu_seconds <= wall_seconds - 0.9, (cpu_seconds, wall_seconds)


@pytest.mark.slow
def test_runs_side_by_side_all_stop_on_ctrl_c_and_resume(plan, tmp_path):
    """`--parallel 2`: two runs train at once; Ctrl-C stops both, each resumable, and a rerun finishes both."""
    good = plan.runs[1]
    side_by_side = plan._replace(runs=[good, good._replace(name="ner-elmo-fraction0.6-seed8", seed=8)])
    runs_dir = tmp_path / "runs"
    first, second = (runs_dir / run.name for run in side_by_side.runs)
    done = threading.Event()
    watcher = _interrupt_after_epoch_1(second, done)
    try:
        with pytest.raises(KeyboardInterrupt):
            Runner(side_by_side, runs_dir, parallel=2).run()
    finally:
        done.set()
        watcher.join()
    for run_dir in (first, second):
        info = json.loads((run_dir / "run_info.json").read_text())
        assert info["status"] in ("interrupted", FINISHED), run_dir.name
    stopped = json.loads((second / "run_info.json").read_text())
    assert stopped["status"] == "interrupted" and not (second / "metrics.json").exists()

    assert Runner(side_by_side, runs_dir, parallel=2).run() == 0
    attempts = [json.loads((run_dir / "run_info.json").read_text())["attempts"] for run_dir in (first, second)]
    assert all(a[-1]["status"] == FINISHED for a in attempts)
    # the two first attempts trained at the same time
    assert attempts[1][0]["started"] < attempts[0][0]["ended"] and attempts[0][0]["started"] < attempts[1][0]["ended"]
    with pytest.raises(Exception, match="--parallel must be 1 or more"):
        Runner(side_by_side, runs_dir, parallel=0)


@pytest.mark.slow
def test_an_ablation_that_restates_another_runs_config_is_not_trained_twice(plan, tmp_path, capsys):
    """SNLI's input_and_output ablation is its ELMo config: the run stands for both, in the runner and the report."""
    good = plan.runs[1]
    restated = tmp_path / "ner_input_only.jsonnet"
    restated.write_text(f"(import '{PROJECT_ROOT / good.config}')")
    changed = tmp_path / "ner_output_only.jsonnet"
    changed.write_text(f"(import '{PROJECT_ROOT / good.config}') + {{trainer+: {{patience: 2}}}}")
    twin = good._replace(name="ner-input_only-fraction0.6-seed7", config_name="input_only", config=str(restated))
    other = good._replace(name="ner-output_only-fraction0.6-seed7", config_name="output_only", config=str(changed))
    runs_dir = tmp_path / "runs"
    runner = Runner(plan._replace(runs=[good, twin, other]), runs_dir)
    assert runner.twins == {twin.name: good.name}
    runner.dry_run()
    assert f"{twin.name}: trains as another run {good.name}\n" in capsys.readouterr().out
    runner = Runner(plan._replace(runs=[good, twin]), runs_dir)
    assert runner.run() == 0
    assert not (runs_dir / twin.name).exists()
    assert json.loads((runs_dir / "plan.json").read_text())["twins"] == {twin.name: good.name}
    report = build_report(runs_dir, tmp_path / "report")[0].read_text()
    score = report.split(f"| `{good.name}` | finished | ")[1].split(" |")[0]
    assert f"| `{twin.name}` | finished (trains as `{good.name}`: its results) | {score} |" in report
    assert "Runs: 2 planned, 2 finished" in report
    layer_weights = report.split("## Figure 2")[1].split("\n## ")[0]
    assert "| NER elmo fraction 0.6 | input |" in layer_weights and "input_only" not in layer_weights


def _tiny_ner_plan(tmp_path, tiny_conll, tiny_elmo, experiments, finetuned_bilms=()):
    """A one-epoch plan over the tiny NER fixture and biLM, with biLMs fine-tuned in a few seconds."""
    environment = {"ELMO_OPTIONS_FILE": str(tiny_elmo[0]), "ELMO_WEIGHT_FILE": str(tiny_elmo[1])}
    environment.update({f"NER_{split}_DATA": str(tiny_conll) for split in ("TRAIN", "DEV", "TEST")})
    path = tmp_path / "plan.json"
    plan = {
        "name": "tiny",
        "environment": environment,
        "overrides": {"trainer.num_epochs": 1},
        "experiments": experiments,
        "finetuned_bilms": list(finetuned_bilms),
    }
    path.write_text(json.dumps(plan))
    return load_plan(str(path))


def _jobs_logged(caplog) -> List[str]:
    return [line.split("| next: ")[1] for line in caplog.messages if "| next: " in line]


@pytest.mark.slow
def test_a_biLM_for_table_7_alone_is_fine_tuned_beside_the_runs(tmp_path, tiny_conll, tiny_elmo, caplog):
    """With --parallel, a biLM that no run reads waits for no core: it is a job after the runs, not before them."""
    experiments = [{"task": "ner", "configs": ["baseline"], "seeds": [1, 2]}]
    plan = _tiny_ner_plan(tmp_path, tiny_conll, tiny_elmo, experiments, [{"task": "ner", "bilm_overrides": TINY_BILM}])
    [bilm] = plan.bilms
    caplog.set_level("INFO", logger="tasks.reproduce.runner")
    assert Runner(plan, tmp_path / "runs", parallel=2).run() == 0
    assert json.loads((tmp_path / "runs" / "bilms" / bilm.name / "bilm_info.json").read_text())["status"] == FINISHED
    assert _jobs_logged(caplog) == ["ner-baseline-seed1", "ner-baseline-seed2", f"biLM {bilm.name}"]


@pytest.mark.slow
def test_only_picks_a_biLM_for_table_7_by_its_name_and_trains_no_run(tmp_path, tiny_conll, tiny_elmo, caplog):
    """`--only` with a biLM's name fine-tunes that biLM alone, without waiting for the plan's runs."""
    experiments = [{"task": "ner", "configs": ["baseline"], "seeds": [1]}]
    plan = _tiny_ner_plan(tmp_path, tiny_conll, tiny_elmo, experiments, [{"task": "ner", "bilm_overrides": TINY_BILM}])
    [bilm] = plan.bilms
    runs_dir = tmp_path / "runs"
    caplog.set_level("INFO", logger="tasks.reproduce.runner")
    assert Runner(plan, runs_dir, only=[bilm.name]).run() == 0
    assert "0 left of 0 | what --only picks of plan tiny is done" in caplog.text
    assert json.loads((runs_dir / "bilms" / bilm.name / "bilm_info.json").read_text())["status"] == FINISHED
    assert not (runs_dir / "ner-baseline-seed1").exists()
    with pytest.raises(ConfigurationError, match="no run or biLM of .* matches"):
        Runner(plan, runs_dir, only=["srl-*"])


@pytest.mark.slow
def test_with_parallel_the_runs_of_a_biLM_wait_for_it_while_the_others_train(
    tmp_path, tiny_conll, tiny_elmo, caplog, monkeypatch
):
    """
    With --parallel, a biLM that runs read is the first job, and its runs wait for it while other
    runs take the free core; if it fails, its runs are not run (and say why) and the others finish.
    """
    experiments = [
        {"task": "ner", "configs": ["elmo"], "seeds": [1], "finetune_bilm": True, "bilm_overrides": TINY_BILM},
        {"task": "ner", "configs": ["baseline"], "seeds": [1, 2]},
    ]
    plan = _tiny_ner_plan(tmp_path, tiny_conll, tiny_elmo, experiments)
    [bilm] = plan.bilms
    runs_dir, built = tmp_path / "runs", tmp_path / "runs" / "bilms" / bilm.name
    caplog.set_level("INFO", logger="tasks.reproduce.runner")

    failing = [sys.executable, "-c", "raise SystemExit('no training text')"]
    monkeypatch.setattr(runner_module, "bilm_command", lambda bilm, directory: failing)
    assert Runner(plan, runs_dir, only=["ner-elmo-finetuned-seed1", "ner-baseline-seed1"], parallel=2).run() == 1
    assert _jobs_logged(caplog) == [f"biLM {bilm.name}", "ner-baseline-seed1"]
    assert f"ner-elmo-finetuned-seed1: not run, its fine-tuned biLM {bilm.name} failed" in caplog.text
    assert not (runs_dir / "ner-elmo-finetuned-seed1").exists()
    assert state_of(plan.runs[1], runs_dir / "ner-baseline-seed1") == FINISHED
    monkeypatch.undo()

    caplog.clear()
    assert Runner(plan, runs_dir, parallel=2).run() == 0
    assert _jobs_logged(caplog) == [f"biLM {bilm.name}", "ner-baseline-seed2", "ner-elmo-finetuned-seed1"]
    bilm_attempt = json.loads((built / "bilm_info.json").read_text())["attempts"][-1]
    [elmo_attempt] = json.loads((runs_dir / "ner-elmo-finetuned-seed1" / "run_info.json").read_text())["attempts"]
    baseline_attempt = json.loads((runs_dir / "ner-baseline-seed2" / "run_info.json").read_text())["attempts"][0]
    assert bilm_attempt["status"] == FINISHED and bilm_attempt["ended"] <= elmo_attempt["started"]
    assert baseline_attempt["started"] < bilm_attempt["ended"]  # the free core trained beside the biLM

    # A later runner checks the built biLM's inputs without announcing it as the next job.
    experiments[0]["seeds"] = [1, 2]
    caplog.clear()
    assert Runner(_tiny_ner_plan(tmp_path, tiny_conll, tiny_elmo, experiments), runs_dir, parallel=2).run() == 0
    assert _jobs_logged(caplog) == ["ner-elmo-finetuned-seed2"]


def test_an_attempt_whose_runner_was_killed_ends_at_its_last_logged_line(tmp_path):
    """
    A runner killed with its machine records no end for the attempt it ran; the next runner takes
    the attempt's last logged time from its part of console.log, so the summed wall time counts it.
    """

    def logged(iso: str, message: str) -> str:  # AllenNLP logs the machine's local time
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M:%S") + f",123 - INFO - x - {message}"

    killed, finished = "2026-11-26T06:00:00+00:00", "2026-11-26T07:00:00+00:00"
    (tmp_path / "console.log").write_text(
        f"=== {killed} starting: allennlp train ...\n"
        + logged("2026-11-26T06:00:05+00:00", "Beginning training.")
        + "\nf1: 0.51 ||:  50%|#####     | 1/2\rf1: 0.60 ||: 100%|##########| 2/2\n"
        + logged("2026-11-26T06:24:30+00:00", "Epoch duration: 0:12:00")
        + "\nf1: 0.70 ||:  50%|#####     | 1/2\r"  # killed mid-epoch: the progress bar has no time
        + f"=== {finished} resuming: allennlp train ... --recover\n"
        + logged("2026-11-26T07:10:00+00:00", "Epoch duration: 0:10:00")
        + "\n"
    )
    info = {
        "attempts": [
            {"started": killed},
            {"started": finished, "ended": "2026-11-26T07:10:00+00:00", "seconds": 600.0, "status": FINISHED},
        ]
    }
    assert close_unrecorded_attempts(info, tmp_path)
    assert info["attempts"][0]["ended"] == "2026-11-26T06:24:30+00:00"
    assert info["attempts"][0]["seconds"] == 1470.0
    assert info["attempts"][0]["status"] == "killed"
    assert info["attempts"][1]["seconds"] == 600.0  # a recorded attempt is left as it was
    assert not close_unrecorded_attempts(info, tmp_path)  # nothing left open
    # a fine-tuned biLM's header is `=== <start>: ...`; an attempt that logged nothing counts no time
    (tmp_path / "console.log").write_text(f"=== {killed}: allennlp finetune-bilm ...\n")
    lost = {"attempts": [{"started": killed}]}
    assert close_unrecorded_attempts(lost, tmp_path)
    assert lost["attempts"] == [{"started": killed, "status": "killed"}]
    assert not close_unrecorded_attempts(lost, tmp_path)  # closed once, not again at every start


def test_a_killed_attempt_ends_where_its_progress_bars_last_showed_time_passing(tmp_path):
    """
    An epoch (or a biLM's fine-tuning) logs no line while its progress bars run; the time they show
    passing after the last logged line counts, measured within each bar, never past what they show.
    """
    started = "2026-11-26T06:00:00+00:00"
    logged = datetime.fromisoformat("2026-11-26T06:10:00+00:00").astimezone().strftime("%Y-%m-%d %H:%M:%S")
    (tmp_path / "console.log").write_text(
        f"=== {started}: allennlp finetune-bilm ...\n"
        + f"{logged},123 - INFO - x - Training\n"
        + "loading instances: 64it [00:02, 30.1it/s]\r"  # a second bar, started beside the first
        + "batch_loss: 7.50, loss: 0.31 ||: : 1it [00:03, 3.02s/it]\r"
        + "loading instances: 140416it [1:04:48, 39.06it/s]\x1b[A\r"
        + "batch_loss: 7.27, loss: 0.32 ||: : 2196it [1:04:53, 1.67s/it]\r"
        + "batch_loss: 7.27, loss: 0.32 ||: : 2197it [1"  # cut off by the kill
    )
    info = {"attempts": [{"started": started}]}
    assert close_unrecorded_attempts(info, tmp_path)
    # the batches' bar showed 1:04:50 pass after it first showed, the loader's 1:04:46
    assert info["attempts"][0]["ended"] == "2026-11-26T07:14:50+00:00"
    assert info["attempts"][0]["seconds"] == 4490.0


def test_a_config_edited_since_a_run_trained_makes_it_another_run(tmp_path, tiny_conll):
    """A run (or its record) counts only for the config as it reads now: an edit that changes it is a change."""
    weights = tmp_path / "bilm" / "weights.hdf5"
    weights.parent.mkdir()
    _write_biLM(weights, seed=1)
    plan = _one_elmo_run_plan(tmp_path, tiny_conll, weights)
    config = tmp_path / "configs" / "ner_elmo.jsonnet"  # a copy of the shipped config, to edit
    shutil.copytree(PROJECT_ROOT / "configs", config.parent)
    run = plan.runs[0]._replace(config=str(config))
    runner = Runner(plan._replace(runs=[run]), tmp_path / "runs")
    recorded = _finish_as_recorded(runner, run)
    recorded["config_sha256"] = config_identity(run, with_defaults(runner.environment(run)))
    (runner.runs_dir / run.name / "run_info.json").write_text(json.dumps(recorded))
    assert runner.state(run) == FINISHED
    config.write_text(config.read_text() + "\n// a comment changes nothing that trains\n")
    assert runner.state(run) == FINISHED
    config.write_text(config.read_text().replace("(use_elmo=true)", "(use_elmo=true, elmo_overrides={gamma: 0.1})"))
    assert runner.state(run) == CHANGED
