"""
A finished run's record: what the report reads of it, in one small JSON file that outlives the
machine that trained it.

A run's directory holds its weights and checkpoints (megabytes to gigabytes) in an ignored folder
that a new machine does not have. A plan that spans sessions keeps each finished run's record in the
folder its `records` names (plans/cpu.jsonnet: results/cpu), committed with the report: there the
runner counts the run as done without its directory, and the report reads it as it would the
directory. A record holds the run's spec, run_info.json (attempts, inputs with their sha256,
commits), metrics.json, each epoch's scores, the learned ELMo layer weights and the data sizes.

    RECORDS_DIR/<run name>.json          a finished run
    RECORDS_DIR/bilms/<biLM name>.json   a finished fine-tuned biLM: Table 7's row
"""

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Set

from allennlp.common.checks import ConfigurationError

from tasks.environment import PROJECT_ROOT
from tasks.reproduce.layout import BILMS_DIR, write_json
from tasks.reproduce.plan import EPOCHS_KEY, default_shared_data_dir, longer_schedule, same_training
from tasks.reproduce.results import BilmResult, Mix, RunResult

RECORD_FORMAT = 1
_RUN_FIELDS = ("name", "spec", "info", "metrics", "epochs", "mixes", "training_size", "evaluation_sizes")
_BILM_FIELDS = ("name", "task", "info", "perplexity")


def run_record_path(records_dir: Path, name: str) -> Path:
    return records_dir / f"{name}.json"


def bilm_record_path(records_dir: Path, name: str) -> Path:
    return records_dir / BILMS_DIR / f"{name}.json"


def portable(value: Any, shared_data_dir: Optional[str] = None) -> Any:
    """
    `value` (a record's spec or info) with no machine's folders: paths under the shared data folder
    written from `$SHARED_DATA_DIR`, paths in the repository relative to it. What identifies an input
    is its sha256, which the record keeps; where it lay is only where to look for it.
    """
    shared = shared_data_dir or os.environ.get("SHARED_DATA_DIR") or default_shared_data_dir()
    roots = [(str(Path(shared).resolve()), "$SHARED_DATA_DIR/"), (shared.rstrip(os.sep), "$SHARED_DATA_DIR/")]
    roots += [(str(PROJECT_ROOT.resolve()), "")]
    if isinstance(value, str):
        for root, name in roots:
            value = value.replace(root + os.sep, name)
        return value
    if isinstance(value, dict):
        return {key: portable(item, shared) for key, item in value.items()}
    if isinstance(value, list):
        return [portable(item, shared) for item in value]
    return value


def write_run_record(records_dir: Path, run: RunResult) -> Path:
    """Writes the record of a finished run (whole or not at all, its paths portable); returns its path."""
    if run.status != "finished" or run.metrics is None:
        raise ValueError(f"{run.name} is {run.status}: only a finished run has a record")
    metric = run.spec["metric"]
    record = {
        "format": RECORD_FORMAT,
        "name": run.name,
        "spec": portable(run.spec),
        "info": portable(run.info),
        "metrics": run.metrics,
        "epochs": [_scores(epoch, metric) for epoch in run.epochs],
        "mixes": [mix._asdict() for mix in run.mixes],
        "training_size": run.training_size,
        "evaluation_sizes": run.evaluation_sizes,
    }
    path = run_record_path(records_dir, run.name)
    _write(path, record)
    return path


def read_run_record(records_dir: Path, name: str) -> Optional[RunResult]:
    """The run's record as the report reads a finished run, or None if there is none."""
    path = run_record_path(records_dir, name)
    return _run_result(path, _read(path, _RUN_FIELDS)) if path.is_file() else None


def read_run_records(records_dir: Path) -> List[RunResult]:
    """Every run record in `records_dir`, sorted by name."""
    return [_run_result(path, _read(path, _RUN_FIELDS)) for path in sorted(records_dir.glob("*.json"))]


def write_bilm_record(records_dir: Path, bilm: BilmResult) -> Path:
    if bilm.status != "finished" or bilm.perplexity is None:
        raise ValueError(f"biLM {bilm.name} is {bilm.status}: only a built biLM has a record")
    record = {
        "format": RECORD_FORMAT,
        "name": bilm.name,
        "task": bilm.task,
        "info": portable(bilm.info),
        "perplexity": portable(bilm.perplexity),
    }
    path = bilm_record_path(records_dir, bilm.name)
    _write(path, record)
    return path


def read_bilm_record(records_dir: Path, name: str) -> Optional[BilmResult]:
    path = bilm_record_path(records_dir, name)
    return _bilm_result(_read(path, _BILM_FIELDS)) if path.is_file() else None


def read_bilm_records(records_dir: Path) -> List[BilmResult]:
    return [_bilm_result(_read(path, _BILM_FIELDS)) for path in sorted((records_dir / BILMS_DIR).glob("*.json"))]


def is_result_of(record: RunResult, planned: Dict[str, Any]) -> bool:
    """
    Whether a record is the result of the planned run (a spec, as_json): it trained the same, or
    the plan now gives it more epochs and patience had ended it before its epochs ran out. Where
    an input file lies is not compared (another clone, another data folder): its bytes are, by the
    runner, against the sha256 on record.
    """
    inputs = set(record.info.get("inputs", {}))
    trained, planned = _without_paths(record.spec, inputs), _without_paths(planned, inputs)
    if same_training(trained, planned):
        return True
    last, planned_epochs = (record.metrics or {}).get("epoch"), trained.get("overrides", {}).get(EPOCHS_KEY)
    stopped_early = isinstance(last, int) and isinstance(planned_epochs, int) and last + 1 < planned_epochs
    return stopped_early and longer_schedule(trained, planned)


def is_bilm_result_of(record: BilmResult, planned: Dict[str, Any]) -> bool:
    """Whether a fine-tuned biLM's record is of the planned biLM (a spec, as_json), where its files lie aside."""
    inputs = set(record.info.get("inputs", {}))
    return _without_paths(record.info.get("spec", {}), inputs) == _without_paths(planned, inputs)


def _without_paths(spec: Dict[str, Any], inputs: Set[str]) -> Dict[str, Any]:
    environment = spec.get("environment", {})
    return {
        **spec,
        "environment": {name: "<input file>" if name in inputs else environment[name] for name in environment},
    }


def _scores(epoch: Dict[str, Any], metric: str) -> Dict[str, Any]:
    """An epoch's metrics file cut to what the report and a reader comparing curves use: its number,
    the task metric and the loss on training and dev data (NER's per-type scores are left out)."""
    kept = {"epoch", "best_epoch", f"best_validation_{metric}"}
    kept |= {f"{split}_{name}" for split in ("training", "validation") for name in (metric, "loss")}
    return {key: value for key, value in epoch.items() if key in kept}


def _run_result(path: Path, record: Dict[str, Any]) -> RunResult:
    return RunResult(
        name=record["name"],
        source=path,
        status="finished",
        spec=record["spec"],
        info=record["info"],
        metrics=record["metrics"],
        epochs=record["epochs"],
        config=None,
        mixes=[Mix(**mix) for mix in record["mixes"]],
        training_size=tuple(record["training_size"]) if record["training_size"] else None,
        evaluation_sizes=[tuple(size) for size in record["evaluation_sizes"]],
    )


def _bilm_result(record: Dict[str, Any]) -> BilmResult:
    return BilmResult(record["name"], record["task"], "finished", record["info"], record["perplexity"])


def _read(path: Path, fields) -> Dict[str, Any]:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ConfigurationError(f"{path}: not a run record, it is not JSON ({error})") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        found = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise ConfigurationError(f"{path}: expected a run record of format {RECORD_FORMAT}, found {found!r}")
    missing = [field for field in fields if field not in record]
    if missing:
        raise ConfigurationError(f"{path}: the record lacks {', '.join(missing)}")
    return record


def _write(path: Path, record: Dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(path, record, indent=1, sort_keys=True)
