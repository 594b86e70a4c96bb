"""
What a folder of runs holds: the files the runner writes and the report reads, by name, and what
makes a run or a fine-tuned biLM finished. Kept apart from both, so that reading a folder of runs
needs nothing of the machinery that makes one.

    RUNS_DIR/plan.json                 the expanded plan (`PLAN_RECORD`)
    RUNS_DIR/<run name>/               a run's serialization directory, with its run_info.json
    RUNS_DIR/bilms/<biLM name>/        a fine-tuned biLM (§A.1), with its bilm_info.json
"""

import json
import os
from pathlib import Path
from typing import Any, Dict, Optional

from allennlp.training import util as training_util

RUN_INFO = "run_info.json"
PLAN_RECORD = "plan.json"
CONSOLE_LOG = "console.log"  # what `allennlp train` printed, every attempt
BILMS_DIR = "bilms"  # fine-tuned biLMs, one folder each
BILM_INFO = "bilm_info.json"
BILM_PERPLEXITY = "perplexity.json"  # written last by `allennlp finetune-bilm`: Table 7's row
FINETUNED_ELMO_FILES = {"ELMO_OPTIONS_FILE": "elmo/options.json", "ELMO_WEIGHT_FILE": "elmo/weights.hdf5"}


def is_finished(run_dir: Path) -> bool:
    """
    Whether `allennlp train` finished the run: it wrote the final metrics, then archived the model.
    An archive older than the metrics is the one Ctrl-C made of an earlier attempt's best epoch: the
    run was stopped before its own (both are written whole or not at all: allennlp_compat/atomic_outputs.py).
    """
    archive, metrics = run_dir / "model.tar.gz", run_dir / "metrics.json"
    return archive.is_file() and metrics.is_file() and archive.stat().st_mtime >= metrics.stat().st_mtime


def has_checkpoint(run_dir: Path) -> bool:
    """Whether an unfinished run can be resumed with `--recover`."""
    return any(run_dir.glob("training_state_e*.th")) and (run_dir / "config.json").is_file()


def is_built(bilm_dir: Path) -> bool:
    """Whether a fine-tuned biLM is finished: its weights exported and its perplexities written."""
    return (bilm_dir / BILM_PERPLEXITY).is_file() and (bilm_dir / FINETUNED_ELMO_FILES["ELMO_WEIGHT_FILE"]).is_file()


def read_json(path: Path) -> Optional[Dict[str, Any]]:
    """A JSON file's value, or None where there is no such file."""
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def write_json(path: Path, value: Any, indent: int = 2, sort_keys: bool = False) -> None:
    """Writes `value` as JSON whole or not at all: under a temporary name, then renamed."""
    temporary = path.with_name(path.name + ".partial")
    temporary.write_text(json.dumps(value, indent=indent, sort_keys=sort_keys) + "\n", encoding="utf-8")
    temporary.replace(path)


# The runner's own files in a run's folder. On Slurm it writes them before the job starts on its node
# (the attempt with its job id, the job's log): `allennlp train` takes a folder holding only them for
# an empty one, not for an earlier run to recover.
RUNNER_FILES = {RUN_INFO, CONSOLE_LOG, RUN_INFO + ".partial"}
_create_serialization_dir = training_util.create_serialization_dir


def _create_serialization_dir_beside_runner_files(params, serialization_dir, recover: bool, force: bool) -> None:
    if not recover and os.path.isdir(serialization_dir) and set(os.listdir(serialization_dir)) <= RUNNER_FILES:
        os.makedirs(serialization_dir, exist_ok=True)  # what AllenNLP does for an empty folder: nothing more
        return
    _create_serialization_dir(params, serialization_dir, recover, force)


training_util.create_serialization_dir = _create_serialization_dir_beside_runner_files
