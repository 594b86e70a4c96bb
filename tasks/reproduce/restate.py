"""
Records restated under the names a plan now gives their runs.

When a setting is adopted into a config and the old one is kept as an ablation (SNLI's γ now starts at
0.1; `gamma_1` keeps the paper's 1), the runs trained with the old setting are, by what they trained,
the ablation's runs, yet their records are under the old names, whose configs now read otherwise: the
runner would train the ablation again and the old records would describe nothing. `allennlp reproduce
PLAN --restate-records SINCE` finds (`Runner.restatements`), for each planned run with no record, a
record whose run trained exactly that: the same task, seed, data and variables, input files of the
same bytes, and a config that read at commit SINCE (the commit before the change), overrides and
variables applied, as the planned run's config reads now (`runner.config_identity`). It writes the
record again under the planned run's name and spec, with what it was (`info.restated`), and removes
the old one, which no longer holds for its own name.
"""

import contextlib
import json
import subprocess
import tarfile
import tempfile
from datetime import datetime, timezone
from io import BytesIO
from pathlib import Path
from typing import Any, Dict, Iterator, NamedTuple, Optional, Tuple

from allennlp.common.checks import ConfigurationError

from tasks.environment import PROJECT_ROOT
from tasks.reproduce.layout import RUN_INFO, is_finished, read_json, write_json
from tasks.reproduce.plan import DESCRIPTIVE_FIELDS, RunSpec, same_training
from tasks.reproduce.provenance import git_state
from tasks.reproduce.records import portable, run_record_path
from tasks.reproduce.results import RunResult

# What names a run, or describes it in words: free to differ between a record and the run it is restated as.
_NAMING = ("name", "config_name", "config", "label", "overrides") + DESCRIPTIVE_FIELDS


class Restatement(NamedTuple):
    record: RunResult  # the record as it is
    run: RunSpec  # the planned run it is restated as
    config_sha256: str  # the config both read as
    into: Optional[Path]  # None: the record moves to its new name; else the records folder it is copied into


def restate(restatement: Restatement, since: str, runs_dir: Optional[Path] = None) -> Path:
    """
    Writes the record under its run's name and spec, saying what it was and since which commit's
    configs (`since`), and removes the old one; or, for another plan's record, writes such a copy
    into `restatement.into`. Where `runs_dir` holds a moved run's finished directory (the machine that
    trained it), the directory is renamed and its run_info.json restated alike, so the runner finds
    the run there as the plan now names it.
    """
    record, run = restatement.record, restatement.run
    old = Path(record.source)
    copied = restatement.into is not None
    restated = {
        "from": record.name,
        "spec": record.spec,
        "config_sha256": restatement.config_sha256,
        "since": since,
        "at": git_state(PROJECT_ROOT).get("commit"),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "why": (
            f"{old.parent} holds it as {record.name}, the same training as {run.name} here"
            if copied
            else f"{record.spec['config']} with its overrides then reads as {run.config} with its overrides now"
        ),
    }
    if copied:
        restated["records"] = str(old.parent)
    new = run_record_path(restatement.into if copied else old.parent, run.name)
    directory = runs_dir / record.name if runs_dir is not None and not copied else None
    if directory is not None and not _holds(directory, record):
        directory = None
    clashes = ([new] if new != old else []) + (
        [directory.with_name(run.name)] if directory and run.name != record.name else []
    )
    for taken in clashes:
        if taken.exists():
            raise ConfigurationError(f"{taken}: {run.name} is there already; not restating {record.name} over it")
    content = json.loads(old.read_text(encoding="utf-8"))
    info = portable(_said(record.info, run, restated))
    content.update({"name": run.name, "spec": portable(run.as_json()), "info": info})
    new.parent.mkdir(parents=True, exist_ok=True)
    write_json(new, content, indent=1, sort_keys=True)
    if new != old and not copied:
        old.unlink()
    if directory is not None:
        write_json(directory / RUN_INFO, _said(read_json(directory / RUN_INFO), run, restated))
        if run.name != record.name:
            directory.rename(directory.with_name(run.name))
    return new


def _said(info: Dict[str, Any], run: RunSpec, restated: Dict[str, Any]) -> Dict[str, Any]:
    """A run's info as the planned run's, with what it was."""
    return {**info, "name": run.name, "spec": run.as_json(), "restated": restated}


def _holds(directory: Path, record: RunResult) -> bool:
    """Whether a run directory holds the finished run the record is of."""
    info = read_json(directory / RUN_INFO) if is_finished(directory) else None
    return info is not None and same_training(portable(info.get("spec", {})), record.spec)


def same_setup(record: RunResult, run: RunSpec) -> bool:
    """The same task, seed, data part and variables (input files by name: their bytes are compared apart)."""
    inputs = set(record.info.get("inputs", {}))
    return _comparable(portable(run.as_json()), inputs) == _comparable(record.spec, inputs)


def _comparable(spec: Dict[str, Any], inputs) -> Dict[str, Any]:
    environment = {name: None if name in inputs else value for name, value in spec.get("environment", {}).items()}
    return {**{key: value for key, value in spec.items() if key not in _NAMING}, "environment": environment}


def spec_of(record: RunResult) -> RunSpec:
    """The run a record is of, as the plan would give it."""
    fields = {key: record.spec[key] for key in RunSpec._fields if key in record.spec}
    fields["schedule_changes"] = tuple(fields.get("schedule_changes", ()))
    return RunSpec(**fields)


@contextlib.contextmanager
def configs_at(revision: str) -> Iterator[Tuple[str, Path]]:
    """The commit `revision` names, and a folder holding its configs/ (removed afterwards)."""
    commit = _commit(revision)
    with tempfile.TemporaryDirectory(prefix="configs-") as root:
        _extract_configs(commit, Path(root))
        yield commit, Path(root)


def _commit(revision: str) -> str:
    result = subprocess.run(
        ["git", "rev-parse", "--verify", f"{revision}^{{commit}}"], cwd=PROJECT_ROOT, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise ConfigurationError(f"--restate-records: {revision!r} is not a commit of {PROJECT_ROOT}")
    return result.stdout.strip()


def _extract_configs(commit: str, root: Path) -> None:
    """The configs folder as commit `commit` has it, under `root`."""
    archive = subprocess.run(["git", "archive", commit, "configs"], cwd=PROJECT_ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(root, filter="data")
