"""Records restated under the names a plan now gives their runs, after a setting was adopted into a config."""

import json
import shutil
import subprocess

import pytest
from allennlp.common.checks import ConfigurationError

from tasks.reproduce.plan import load_plan
from tasks.reproduce.records import portable, read_run_record, write_run_record
from tasks.reproduce.restate import configs_at, restate
from tasks.reproduce.results import RunResult
from tasks.reproduce.runner import FINISHED, RECORDED, START, Runner
from tests.helpers.repository import ROOT

GAMMA_1 = {"model.elmo.initial_gamma": 1.0}


@pytest.fixture
def configs_before_gamma(tmp_path):
    """The repository's configs as they were before SNLI's ELMo started γ at 0.1 (the paper's 1 then)."""
    then = tmp_path / "then"
    shutil.copytree(ROOT / "configs", then / "configs")
    lib = then / "configs" / "lib" / "snli.libsonnet"
    adopted = lib.read_text()
    assert "dropout: 0.0, gamma: 0.1 }" in adopted
    lib.write_text(adopted.replace("dropout: 0.0, gamma: 0.1 }", "dropout: 0.0 }"))
    return then


def _plan(tmp_path, tiny_snli, tiny_elmo, experiments, name="restating", references=()):
    environment = {f"SNLI_{split}_DATA": str(tiny_snli) for split in ("TRAIN", "DEV", "TEST")}
    environment.update({"ELMO_OPTIONS_FILE": str(tiny_elmo[0]), "ELMO_WEIGHT_FILE": str(tiny_elmo[1])})
    records = str(tmp_path / ("records" if name == "restating" else f"{name}_records"))
    plan = {"name": name, "records": records, "environment": environment, "reference_records": list(references)}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({**plan, "experiments": experiments}))
    return load_plan(str(path))


def _record(runner, run, accuracy):
    """A finished run's record, as the runner writes it."""
    inputs = runner._inputs(run.task, run.environment, runner.environment(run))
    metrics = {"epoch": 3, "test_accuracy": accuracy}
    result = RunResult(run.name, None, "finished", run.as_json(), {"inputs": inputs}, metrics, [], None, [], None, [])
    return write_run_record(runner.records, result)


def test_the_old_settings_records_become_the_ablations_that_keep_it(
    tmp_path, tiny_snli, tiny_elmo, configs_before_gamma
):
    # The plan before: SNLI's baseline and ELMo (γ from 1 then), and ELMo at the input only, seeds 1 and 2.
    before = _plan(
        tmp_path,
        tiny_snli,
        tiny_elmo,
        [{"task": "snli", "configs": ["baseline", "elmo", "input_only"], "seeds": [1, 2]}],
    )
    for index, run in enumerate(before.runs):
        _record(Runner(before, tmp_path / "runs"), run, 0.5 + index / 100)
    # The plan after: ELMo (now γ from 0.1), `gamma_1` (the paper's 1), and the input-only runs kept at γ = 1.
    after = _plan(
        tmp_path,
        tiny_snli,
        tiny_elmo,
        [
            {"task": "snli", "configs": ["baseline", "elmo", "gamma_1"], "seeds": [1, 2]},
            {"task": "snli", "configs": ["input_only"], "seeds": [1], "overrides": GAMMA_1},
        ],
    )
    runner = Runner(after, tmp_path / "runs")
    runs = {run.name: run for run in after.runs}
    assert runner.state(runs["snli-gamma_1-seed1"]) == START and runner.state(runs["snli-input_only-seed1"]) == START

    found = runner.restatements(configs_before_gamma)

    assert [(r.record.name, r.run.name) for r in found] == [
        ("snli-elmo-seed1", "snli-gamma_1-seed1"),
        ("snli-elmo-seed2", "snli-gamma_1-seed2"),
        ("snli-input_only-seed1", "snli-input_only-seed1"),  # the same name, now with γ = 1 said
    ]
    for restatement in found:
        restate(restatement, "0123abc")
    records = tmp_path / "records"
    assert sorted(path.stem for path in records.glob("*.json")) == [
        "snli-baseline-seed1",
        "snli-baseline-seed2",
        "snli-gamma_1-seed1",
        "snli-gamma_1-seed2",
        "snli-input_only-seed1",
        "snli-input_only-seed2",  # its plan has no run of it now: left as it was
    ]
    restated = read_run_record(records, "snli-gamma_1-seed2")
    assert restated.spec == portable(runs["snli-gamma_1-seed2"].as_json())
    assert restated.metrics == {"epoch": 3, "test_accuracy": 0.53}  # seed 2's ELMo record, the 4th written
    said = restated.info["restated"]
    assert said["from"] == "snli-elmo-seed2" and said["spec"]["config"] == "configs/snli_elmo.jsonnet"
    assert said["since"] == "0123abc" and said["config_sha256"] == found[1].config_sha256
    runner = Runner(after, tmp_path / "runs")
    states = {name: runner.state(run) for name, run in runs.items()}
    assert states == {
        "snli-baseline-seed1": RECORDED,
        "snli-baseline-seed2": RECORDED,
        "snli-elmo-seed1": START,  # γ from 0.1: trained anew
        "snli-elmo-seed2": START,
        "snli-gamma_1-seed1": RECORDED,
        "snli-gamma_1-seed2": RECORDED,
        "snli-input_only-seed1": RECORDED,
    }
    assert runner.restatements(configs_before_gamma) == []  # nothing left to restate


def test_on_the_machine_that_trained_them_the_run_directories_are_restated_too(
    tmp_path, tiny_snli, tiny_elmo, configs_before_gamma
):
    before = _plan(tmp_path, tiny_snli, tiny_elmo, [{"task": "snli", "configs": ["elmo", "input_only"], "seeds": [1]}])
    runs_dir = tmp_path / "runs"
    for run in before.runs:
        record = read_run_record(tmp_path / "records", _record(Runner(before, runs_dir), run, 0.5).stem)
        directory = runs_dir / run.name
        directory.mkdir(parents=True)
        (directory / "run_info.json").write_text(json.dumps({**record.info, "name": run.name, "spec": run.as_json()}))
        (directory / "metrics.json").write_text(json.dumps(record.metrics))
        (directory / "model.tar.gz").write_bytes(b"")
    after = _plan(
        tmp_path,
        tiny_snli,
        tiny_elmo,
        [
            {"task": "snli", "configs": ["gamma_1"], "seeds": [1]},
            {"task": "snli", "configs": ["input_only"], "seeds": [1], "overrides": GAMMA_1},
        ],
    )
    runner = Runner(after, runs_dir)
    assert runner.states() == {"snli-gamma_1-seed1": START, "snli-input_only-seed1": "changed"}
    for restatement in runner.restatements(configs_before_gamma):
        restate(restatement, "0123abc", runs_dir)
    assert sorted(path.name for path in runs_dir.iterdir() if path.is_dir()) == [
        "snli-gamma_1-seed1",
        "snli-input_only-seed1",
    ]
    runner = Runner(after, runs_dir)
    assert runner.states() == {"snli-gamma_1-seed1": FINISHED, "snli-input_only-seed1": FINISHED}
    records = {path.name: path.read_text() for path in (tmp_path / "records").glob("*.json")}
    runner._keep_records()  # the directories and the records say the same: nothing rewritten
    assert {path.name: path.read_text() for path in (tmp_path / "records").glob("*.json")} == records
    said = json.loads((runs_dir / "snli-gamma_1-seed1" / "run_info.json").read_text())
    assert said["spec"]["config_name"] == "gamma_1" and said["restated"]["from"] == "snli-elmo-seed1"


def test_a_record_is_restated_only_as_the_same_training(tmp_path, tiny_snli, tiny_elmo, configs_before_gamma):
    before = _plan(tmp_path, tiny_snli, tiny_elmo, [{"task": "snli", "configs": ["elmo"], "seeds": [1]}])
    record = _record(Runner(before, tmp_path / "runs"), before.runs[0], 0.5)
    # Another seed, another schedule, or ELMo at the input only: not what the record trained.
    for experiment in (
        {"task": "snli", "configs": ["gamma_1"], "seeds": [2]},
        {"task": "snli", "configs": ["gamma_1"], "seeds": [1], "overrides": {"trainer.num_epochs": 2}},
        {"task": "snli", "configs": ["input_only"], "seeds": [1], "overrides": GAMMA_1},
    ):
        runner = Runner(_plan(tmp_path, tiny_snli, tiny_elmo, [experiment]), tmp_path / "runs")
        assert runner.restatements(configs_before_gamma) == []
    # The same run on other data bytes (the training file changed since): not restated either.
    after = _plan(tmp_path, tiny_snli, tiny_elmo, [{"task": "snli", "configs": ["gamma_1"], "seeds": [1]}])
    original = record.read_text()
    changed = json.loads(original)
    changed["info"]["inputs"]["SNLI_TRAIN_DATA"]["sha256"] = "0" * 64
    record.write_text(json.dumps(changed))
    assert Runner(after, tmp_path / "runs").restatements(configs_before_gamma) == []
    record.write_text(original)
    assert len(Runner(after, tmp_path / "runs").restatements(configs_before_gamma)) == 1
    # Against the configs as they are now, nothing changed: nothing to restate.
    assert Runner(after, tmp_path / "runs").restatements(ROOT) == []


def test_another_plans_record_of_the_same_training_is_copied_under_this_plans_name(tmp_path, tiny_snli, tiny_elmo):
    # The arms plan trained ELMo with γ from 0.1 by override (`gamma0_1`), and at the input only with γ = 1.
    arms = _plan(
        tmp_path,
        tiny_snli,
        tiny_elmo,
        [
            {
                "task": "snli",
                "configs": ["elmo"],
                "seeds": [1],
                "label": "gamma0_1",
                "overrides": {"model.elmo.initial_gamma": 0.1},
            },
            {"task": "snli", "configs": ["input_only"], "seeds": [1], "overrides": GAMMA_1},
        ],
        name="arms",
    )
    for run in arms.runs:
        _record(Runner(arms, tmp_path / "arms_runs"), run, 0.6)
    # The table plan, whose ELMo config starts γ at 0.1 now, and whose input-only run is γ from 0.1 too.
    table = _plan(
        tmp_path,
        tiny_snli,
        tiny_elmo,
        [{"task": "snli", "configs": ["elmo", "input_only"], "seeds": [1]}],
        references=[str(tmp_path / "arms_records")],
    )
    runner = Runner(table, tmp_path / "runs")

    [found] = runner.restatements(ROOT)

    assert (found.record.name, found.run.name, found.into) == (
        "snli-elmo-gamma0_1-seed1",
        "snli-elmo-seed1",
        tmp_path / "records",
    )
    copy = restate(found, "0123abc", tmp_path / "runs")
    assert copy == tmp_path / "records" / "snli-elmo-seed1.json"
    assert sorted(path.stem for path in (tmp_path / "arms_records").glob("*.json")) == [
        "snli-elmo-gamma0_1-seed1",  # the other plan's record stays
        "snli-input_only-seed1",
    ]
    said = read_run_record(tmp_path / "records", "snli-elmo-seed1")
    assert said.metrics == {"epoch": 3, "test_accuracy": 0.6}
    assert said.info["restated"]["from"] == "snli-elmo-gamma0_1-seed1"
    assert said.info["restated"]["records"] == str(tmp_path / "arms_records")
    runner = Runner(table, tmp_path / "runs")
    assert runner.states() == {"snli-elmo-seed1": RECORDED, "snli-input_only-seed1": START}
    assert runner.restatements(ROOT) == []  # copied once


def test_restating_refuses_a_name_another_record_has(tmp_path, tiny_snli, tiny_elmo, configs_before_gamma):
    before = _plan(tmp_path, tiny_snli, tiny_elmo, [{"task": "snli", "configs": ["elmo"], "seeds": [1]}])
    _record(Runner(before, tmp_path / "runs"), before.runs[0], 0.5)
    after = _plan(tmp_path, tiny_snli, tiny_elmo, [{"task": "snli", "configs": ["gamma_1"], "seeds": [1]}])
    [found] = Runner(after, tmp_path / "runs").restatements(configs_before_gamma)
    (tmp_path / "records" / "snli-gamma_1-seed1.json").write_text("{}")  # e.g. written meanwhile
    with pytest.raises(
        ConfigurationError,
        match="snli-gamma_1-seed1.json: snli-gamma_1-seed1 is there already; not restating snli-elmo-seed1 over it",
    ):
        restate(found, "0123abc")
    assert (tmp_path / "records" / "snli-elmo-seed1.json").is_file()  # nothing lost


def test_the_configs_of_a_commit_are_read_from_git():
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    with configs_at("HEAD") as (commit, root):
        assert commit == head.strip()
        assert (root / "configs" / "snli_elmo.jsonnet").is_file()
    assert not root.exists()
    with pytest.raises(ConfigurationError, match="'no-such-commit' is not a commit of"):
        with configs_at("no-such-commit"):
            pass
