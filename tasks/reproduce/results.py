"""
What a folder of runs holds, read from the run directories alone: each run's status, metrics,
per-epoch metrics, learned ELMo layer weights and training-set size, and the plan that made them.
"""

import io
import json
import logging
import re
import tarfile
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

import numpy
import torch

from tasks.reproduce.layout import BILM_INFO, BILM_PERPLEXITY, BILMS_DIR, PLAN_RECORD, RUN_INFO, is_built, is_finished

logger = logging.getLogger(__name__)

_MIX_PARAMETER = re.compile(r"^(?P<owner>.*?)\.?scalar_mix_(?P<mix>\d+)\.(?:scalar_parameters\.(?P<layer>\d+)|gamma)$")
_SUBSET_SIZE = re.compile(r"(training|evaluating) on (\d+) of (\d+) instances")


class Mix(NamedTuple):
    """One learned scalar mix of the biLM's layers: where ELMo enters, softmax weights per layer, γ."""

    place: str  # "input" or "output"
    weights: List[float]
    gamma: float
    trained: bool  # False for a fixed mix (the top-layer ablation)


class RunResult(NamedTuple):
    name: str
    source: Path  # the run's directory, or the record it was read from (tasks/reproduce/records.py)
    status: str  # finished, failed, interrupted, incomplete
    spec: Dict[str, Any]
    info: Dict[str, Any]
    metrics: Optional[Dict[str, Any]]  # metrics.json
    epochs: List[Dict[str, Any]]  # metrics_epoch_*.json, in order
    config: Optional[Dict[str, Any]]  # config.json, as trained
    mixes: List[Mix]
    training_size: Optional[Tuple[int, int]]  # instances trained on, of how many (from the training log)
    evaluation_sizes: List[Tuple[int, int]]  # dev and test instances evaluated on, of how many, when a part
    same_as: Optional[str] = None  # a twin (runner.twins): the run whose training this one is, and whose results

    @property
    def task(self) -> str:
        return self.spec["task"]

    def score(self, split: str) -> Optional[float]:
        """The run's metric on `split` ('test' or 'validation', the best epoch's), or None."""
        if self.metrics is None:
            return None
        key = f"test_{self.spec['metric']}" if split == "test" else f"best_validation_{self.spec['metric']}"
        value = self.metrics.get(key)
        return float(value) if isinstance(value, (int, float)) else None


class BilmResult(NamedTuple):
    """A fine-tuned biLM (§A.1): its task, status, record, and perplexity.json once built."""

    name: str
    task: str
    status: str
    info: Dict[str, Any]
    perplexity: Optional[Dict[str, Any]]


def read_bilms(runs_dir: Path) -> List[BilmResult]:
    """Every fine-tuned biLM folder (one with a bilm_info.json) under `runs_dir`/bilms, sorted by name."""
    results = []
    for info_path in sorted((runs_dir / BILMS_DIR).glob(f"*/{BILM_INFO}")):
        info = _json(info_path)
        built = is_built(info_path.parent)
        results.append(
            BilmResult(
                name=info_path.parent.name,
                task=info["spec"]["task"],
                status="finished" if built else info.get("status", "incomplete"),
                info=info,
                perplexity=_json(info_path.parent / BILM_PERPLEXITY) if built else None,
            )
        )
    return results


def read_runs(runs_dir: Path) -> List[RunResult]:
    """Every run directory (one with a run_info.json) under `runs_dir`, sorted by name."""
    results = []
    for info_path in sorted(runs_dir.glob(f"*/{RUN_INFO}")):
        results.append(read_run(info_path.parent))
    return results


def read_plan_record(runs_dir: Path) -> Optional[Dict[str, Any]]:
    path = runs_dir / PLAN_RECORD
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def read_run(directory: Path) -> RunResult:
    info = json.loads((directory / RUN_INFO).read_text(encoding="utf-8"))
    finished = is_finished(directory)
    status = "finished" if finished else info.get("status", "incomplete")
    if status in ("finished", "running") and not finished:
        status = "incomplete"  # said so, but has no archive: stopped without a word, or still going
    metrics = _json(directory / "metrics.json") if finished else None
    config = _json(directory / "config.json") if (directory / "config.json").is_file() else None
    return RunResult(
        name=directory.name,
        source=directory,
        status=status,
        spec=info["spec"],
        info=info,
        metrics=metrics,
        epochs=[_json(path) for path in sorted(directory.glob("metrics_epoch_*.json"), key=_epoch_number)],
        config=config,
        mixes=learned_mixes(directory, config or {}) if finished else [],
        training_size=next(iter(_subset_sizes(directory, "training")), None),
        evaluation_sizes=_subset_sizes(directory, "evaluating"),
    )


def learned_mixes(directory: Path, config: Dict[str, Any]) -> List[Mix]:
    """
    The scalar mixes in the run's best weights (best.th, else the archive's weights.th). Which
    place a mix serves follows the suite's convention: a `fast_elmo` token embedder feeds the input;
    a model's own `PaperElmo` has mix 0 at the input and mix 1 at the output when it has two, and
    its single mix is the output's where the run's `config` (its config.json) turns the input's off
    (`use_input_elmo` or `elmo_at_input` false: the `output_only` ablation, or an override).
    """
    state = _best_weights(directory)
    if state is None:
        return []
    parameters: Dict[Tuple[str, int], Dict[str, Any]] = {}
    for key, value in state.items():
        match = _MIX_PARAMETER.match(key)
        if match is None:
            continue
        entry = parameters.setdefault(
            (match["owner"], int(match["mix"])), {"layers": {}, "gamma": None, "trained": True}
        )
        if match["layer"] is None:
            entry["gamma"] = float(value.reshape(-1)[0])
        else:
            entry["layers"][int(match["layer"])] = float(value.reshape(-1)[0])
    model = config.get("model", {})
    input_off = model.get("use_input_elmo") is False or model.get("elmo_at_input") is False
    owners: Dict[str, int] = {}
    for owner, mix in parameters:
        owners[owner] = max(owners.get(owner, 0), mix + 1)
    mixes = []
    for (owner, mix), entry in sorted(parameters.items()):
        raw = numpy.array([entry["layers"][layer] for layer in sorted(entry["layers"])])
        weights = numpy.exp(raw - raw.max())
        weights /= weights.sum()
        mixes.append(
            Mix(
                _place(owner, mix, owners[owner], input_off),
                weights.round(6).tolist(),
                entry["gamma"],
                bool(raw.min() > -1e9),
            )
        )
    return mixes


def _place(owner: str, mix: int, mixes_of_owner: int, input_off: bool) -> str:
    if "text_field_embedder" in owner:
        return "input"
    if mixes_of_owner == 2:
        return ("input", "output")[mix]
    return "output" if input_off else "input"


def _best_weights(directory: Path) -> Optional[Dict[str, torch.Tensor]]:
    if (directory / "best.th").is_file():
        return torch.load(directory / "best.th", map_location="cpu", weights_only=True)
    archive = directory / "model.tar.gz"
    if archive.is_file():
        with tarfile.open(archive) as tar:
            member = tar.extractfile("weights.th")
            if member is not None:
                return torch.load(io.BytesIO(member.read()), map_location="cpu", weights_only=True)
    return None


def _subset_sizes(directory: Path, purpose: str) -> List[Tuple[int, int]]:
    """
    (kept, of) per file from the subset readers' log lines ("training on 2000 of 14041 instances";
    "evaluating on ..." for dev and test), in the order read, each file once; empty: all of the data.
    """
    log = directory / "out.log"
    if not log.is_file():
        return []
    sizes: List[Tuple[int, int]] = []
    with open(log, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            match = _SUBSET_SIZE.search(line)
            if match and match.group(1) == purpose:
                size = (int(match.group(2)), int(match.group(3)))
                if size not in sizes:
                    sizes.append(size)
    return sizes


def _epoch_number(path: Path) -> int:
    return int(path.stem.rsplit("_", 1)[1])


def _json(path: Path) -> Dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))
