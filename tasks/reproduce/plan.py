"""
A plan: the experiments to run, read from a JSON or Jsonnet file (see plans/ and docs/reproduce.md).

    {
      name: 'cpu',                       // names the default runs folder: runs/reproduce/<name>
      description: '...',
      records: 'results/cpu',            // optional: where each finished run's record is kept (records.py)
      reference_records: ['results/cpu'],  // optional: other plans' records of runs this plan shares (read only)
      prepare: [ { command: [...], outputs: [...] } ],  // optional: data made before the runs (prepare.py)
      environment: { ... },              // variables for every run (data paths, the biLM, DEVICES)
      overrides: { ... },                // `allennlp train -o` keys for every run
      experiments: [
        { task: 'ner', configs: ['baseline', 'elmo'], seeds: [1, 2, 3],
          train_fractions: [1.0],        // parts of this experiment's training set (Figure 1)
          train_limit: 2000,             // the most training instances; null: all
          eval_limit: 1000,              // the most dev and test instances (a seeded part); null: all
          environment: { ... }, overrides: { ... },
          data: 'CoNLL-2003, first 2,000 training sentences of a seeded shuffle',
          label: 'mybilm',               // optional: part of the run names, to compare biLMs
          finetune_bilm: true,           // optional: its ELMo runs use the biLM fine-tuned on the task's text (§A.1)
          bilm_overrides: { ... },       // optional: `-o` for that fine-tuning's biLM training
          schedule_changes: [            // why a finished run was given more epochs: the runner extends none without
            { date: '2026-11-27', epochs: [15, 25], reason: '...' } ] },
      ],
      finetuned_bilms: [ { task: 'sst', environment: { ... } } ],  // more fine-tuned biLMs, for Table 7 alone
      slurm: { partition: 'gpu', resources: { default: { gpus: 1, cpus: 4, mem_gb: 32, time_min: 720 } } },
    }

The file is evaluated with every environment variable as a Jsonnet external variable, and
SHARED_DATA_DIR defaults to ../shared/data beside the repository. Each experiment expands to one run
per config, training fraction and seed, with a stable name such as `ner-elmo-seed1` or
`sst-baseline-fraction0.1-seed2`; a run that two experiments describe identically is run once.

A fine-tuned biLM (the paper's §A.1: one epoch on the task's training text, `allennlp
finetune-bilm`) is built once per task, data and biLM, named like `ner-3f2a9c0d1e`, and its ELMo
runs are named `ner-elmo-finetuned-seed1`; its held-out perplexities before and after are Table 7.
"""

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from _jsonnet import evaluate_file
from allennlp.common.checks import ConfigurationError

from tasks.environment import PROJECT_ROOT
from tasks.reproduce.paper import ABLATIONS, BASELINE, ELMO, STOCK_CONFIGS, STOCK_PREFIX, TASKS
from tasks.reproduce.prepare import PrepareStep, read_steps

CONFIG_NAMES = (BASELINE, ELMO) + ABLATIONS + STOCK_CONFIGS
SEED_KEYS = ("random_seed", "numpy_seed", "pytorch_seed")
PLAN_KEYS = {
    "name",
    "description",
    "records",
    "reference_records",
    "prepare",
    "environment",
    "overrides",
    "experiments",
    "finetuned_bilms",
    "slurm",
}
EXPERIMENT_KEYS = {
    "task",
    "configs",
    "seeds",
    "train_fractions",
    "train_limit",
    "eval_limit",
    "environment",
    "overrides",
    "data",
    "label",
    "metric",
    "finetune_bilm",
    "bilm_overrides",
    "schedule_changes",
}
SUBSET_VARIABLES = ("TRAIN_FRACTION", "TRAIN_LIMIT", "EVAL_LIMIT")
EPOCHS_KEY = "trainer.num_epochs"
# What a run's spec says about the report alone: a plan may change them without a run changing.
DESCRIPTIVE_FIELDS = ("data", "metric", "schedule_changes")
SCHEDULE_CHANGE_KEYS = {"date", "epochs", "reason"}


class RunSpec(NamedTuple):
    """Everything that defines one run; two runs with the same name must have equal specs."""

    name: str
    task: str
    config_name: str  # baseline, elmo or an ablation
    config: str  # its path, relative to the repository root
    seed: int
    train_fraction: float
    train_limit: Optional[int]  # the experiment's training set size, before the fraction
    label: str
    metric: str  # the key in metrics.json, without its split prefix
    data: str  # what the data is, in words, for the report
    environment: Dict[str, str]  # what the plan sets, TRAIN_FRACTION and TRAIN_LIMIT included
    overrides: Dict[str, Any]  # `-o` for allennlp train, seeds included
    finetuned_bilm: str = ""  # the BilmSpec whose biLM replaces the plan's, if any
    # Each time the plan gave the run more epochs after it had finished: {date, epochs: [from, to], reason}
    schedule_changes: Tuple[Dict[str, Any], ...] = ()

    def as_json(self) -> Dict[str, Any]:
        return {**self._asdict(), "schedule_changes": list(self.schedule_changes)}  # as JSON reads it back


class BilmSpec(NamedTuple):
    """A biLM fine-tuned on a task's training text (§A.1), with its held-out perplexity before and after (Table 7)."""

    name: str  # `<task>-<digest of what it is made from>`
    task: str
    config: str  # the task's ELMo config, whose readers give the text
    environment: Dict[str, str]  # the task's data and the biLM to start from, as the plan sets them
    overrides: Dict[str, Any]  # `-o` for the biLM's training (configs/bilm_pretrain.jsonnet)

    def as_json(self) -> Dict[str, Any]:
        return dict(self._asdict())


class Plan(NamedTuple):
    name: str
    description: str
    path: str
    runs: List[RunSpec]
    bilms: List[BilmSpec] = []
    records: Optional[Path] = None  # the folder of finished runs' records, if the plan keeps them
    prepare: List[PrepareStep] = []  # data made from the shared data before the runs that read it
    # Other plans' records folders: a run of this plan recorded there (the same training on the same
    # input bytes) is done, read by the report as its own, and never trained again.
    reference_records: List[Path] = []
    # For `--executor slurm`: partition, account, max_resubmits and resources per task (tasks/reproduce/slurm.py).
    slurm: Dict[str, Any] = {}


def same_training(first: Dict[str, Any], second: Dict[str, Any]) -> bool:
    """Whether two run specs (as_json) train the same run (they may describe it differently)."""
    return {k: v for k, v in first.items() if k not in DESCRIPTIVE_FIELDS} == {
        k: v for k, v in second.items() if k not in DESCRIPTIVE_FIELDS
    }


def longer_schedule(trained: Dict[str, Any], planned: Dict[str, Any]) -> bool:
    """Whether `planned` is the `trained` run given more epochs (`trainer.num_epochs`), and nothing else."""
    before, after = (spec.get("overrides", {}).get(EPOCHS_KEY) for spec in (trained, planned))
    if not isinstance(before, int) or not isinstance(after, int) or after <= before:
        return False

    def without_epochs(spec: Dict[str, Any]) -> Dict[str, Any]:
        return {**spec, "overrides": {k: v for k, v in spec.get("overrides", {}).items() if k != EPOCHS_KEY}}

    return same_training(without_epochs(trained), without_epochs(planned))


def default_shared_data_dir() -> str:
    return str(PROJECT_ROOT.parent / "shared" / "data")


def load_plan(path: str, environment=None) -> Plan:
    """Evaluates the plan file and expands its experiments into runs; bad plans stop with what is wrong."""
    environment = dict(os.environ if environment is None else environment)
    environment.setdefault("SHARED_DATA_DIR", default_shared_data_dir())
    if not Path(path).is_file():
        raise ConfigurationError(f"plan {path!r} not found")
    try:  # every variable is a Jsonnet external variable, as for AllenNLP's configs
        plan = json.loads(evaluate_file(str(path), ext_vars=environment))
    except RuntimeError as error:  # Jsonnet's errors, e.g. an external variable the plan needs
        unset = re.search(r"undefined external variable: (\w+)", str(error))
        if unset:
            raise ConfigurationError(
                f"plan {path} needs the environment variable {unset.group(1)}: see the comment at its top"
            ) from None
        raise ConfigurationError(f"plan {path}: {error}".strip()) from None
    _check_keys(plan, PLAN_KEYS, f"plan {path}")
    if not isinstance(plan.get("experiments"), list) or not plan["experiments"]:
        raise ConfigurationError(f"plan {path}: 'experiments' must be a non-empty list")
    name = str(plan.get("name") or Path(path).stem.split(".")[0])
    runs: Dict[str, RunSpec] = {}
    bilms: Dict[str, BilmSpec] = {}
    for index, experiment in enumerate(plan["experiments"]):
        where = f"plan {path}, experiment {index + 1}"
        for run in _expand(experiment, plan, where, environment["SHARED_DATA_DIR"]):
            if run.name in runs and runs[run.name] != run:
                raise ConfigurationError(
                    f"{where}: run {run.name} is described twice with different settings: "
                    f"{_difference(runs[run.name], run)}"
                )
            runs[run.name] = run
        if experiment.get("finetune_bilm"):
            bilm = _bilm_spec(experiment, plan, where, environment["SHARED_DATA_DIR"])
            bilms[bilm.name] = bilm
    extra = plan.get("finetuned_bilms", [])
    if not isinstance(extra, list):
        raise ConfigurationError(f"plan {path}: 'finetuned_bilms' must be a list of experiments (task, environment)")
    for index, experiment in enumerate(extra):
        where = f"plan {path}, finetuned_bilms {index + 1}"
        if not isinstance(experiment, dict):
            raise ConfigurationError(f"{where}: expected an object, got {experiment!r}")
        _check_keys(experiment, EXPERIMENT_KEYS, where)
        bilm = _bilm_spec(experiment, plan, where, environment["SHARED_DATA_DIR"])
        bilms[bilm.name] = bilm
    records = plan.get("records")
    if records is not None and (not isinstance(records, str) or not records):
        raise ConfigurationError(f"plan {path}: 'records' must be a folder's path, got {records!r}")
    references = plan.get("reference_records", [])
    if not isinstance(references, list) or not all(isinstance(folder, str) and folder for folder in references):
        raise ConfigurationError(f"plan {path}: 'reference_records' must be a list of folders, got {references!r}")
    return Plan(
        name,
        str(plan.get("description", "")),
        str(path),
        list(runs.values()),
        list(bilms.values()),
        PROJECT_ROOT / records if records else None,  # relative to the repository, as the configs' paths
        read_steps(plan.get("prepare", []), f"plan {path}"),
        [PROJECT_ROOT / folder for folder in references],
        _object(plan, "slurm", f"plan {path}"),
    )


def _bilm_spec(experiment: Dict[str, Any], plan: Dict[str, Any], where: str, shared_data_dir: str) -> BilmSpec:
    """
    The fine-tuned biLM of an experiment's task: named by the task, its config and the environment
    it reads, with paths in the shared data folder or this clone named from there, so that the same
    biLM has the same name (and its runs and record theirs) where the two lie elsewhere.
    """
    task = experiment.get("task")
    if task not in TASKS:
        raise ConfigurationError(f"{where}: 'task' is {task!r}, expected one of {sorted(TASKS)}")
    environment = {**_strings(plan.get("environment", {}), where), **_strings(experiment.get("environment", {}), where)}
    overrides = _object(experiment, "bilm_overrides", where)
    config = config_path(task, ELMO)
    digest = hashlib.sha256(
        json.dumps([task, config, _portable(environment, shared_data_dir), overrides], sort_keys=True).encode("utf-8")
    ).hexdigest()
    return BilmSpec(
        name=f"{task}-{digest[:10]}", task=task, config=config, environment=environment, overrides=overrides
    )


def _portable(environment: Dict[str, str], shared_data_dir: str) -> Dict[str, str]:
    """Each value under the shared data folder as `$SHARED_DATA_DIR/...`, under this clone as relative to it."""
    shared = [shared_data_dir.rstrip(os.sep), str(Path(shared_data_dir).resolve())]  # as the plan joins it
    roots = [(root, "$SHARED_DATA_DIR") for root in shared] + [(str(PROJECT_ROOT.resolve()), ".")]
    portable = {}
    for name, value in environment.items():
        for root, named in roots:
            if value.startswith(root + os.sep):
                value = named + value[len(root) :]
                break
        portable[name] = value
    return portable


def _expand(experiment: Dict[str, Any], plan: Dict[str, Any], where: str, shared_data_dir: str) -> List[RunSpec]:
    if not isinstance(experiment, dict):
        raise ConfigurationError(f"{where}: expected an object, got {experiment!r}")
    _check_keys(experiment, EXPERIMENT_KEYS, where)
    task = experiment.get("task")
    if task not in TASKS:
        raise ConfigurationError(f"{where}: 'task' is {task!r}, expected one of {sorted(TASKS)}")
    configs = _list_of(experiment, "configs", str, where)
    for config in configs:
        if config not in CONFIG_NAMES:
            raise ConfigurationError(f"{where}: config {config!r} is not one of {list(CONFIG_NAMES)}")
    seeds = _list_of(experiment, "seeds", int, where)
    fractions = [float(f) for f in _list_of(experiment, "train_fractions", (int, float), where, default=[1.0])]
    if any(not 0 < fraction <= 1 for fraction in fractions):
        raise ConfigurationError(f"{where}: every train fraction must be in (0, 1], got {fractions}")
    limit = experiment.get("train_limit")
    if limit is not None and (not isinstance(limit, int) or limit < 1):
        raise ConfigurationError(f"{where}: 'train_limit' must be a positive whole number or null, got {limit!r}")
    eval_limit = experiment.get("eval_limit")
    if eval_limit is not None and (not isinstance(eval_limit, int) or isinstance(eval_limit, bool) or eval_limit < 1):
        raise ConfigurationError(f"{where}: 'eval_limit' must be a positive whole number or null, got {eval_limit!r}")
    environment = {**_strings(plan.get("environment", {}), where), **_strings(experiment.get("environment", {}), where)}
    for variable in SUBSET_VARIABLES:
        if variable in environment:
            raise ConfigurationError(
                f"{where}: set the data's parts with train_fractions, train_limit and eval_limit, not {variable}"
            )
    if eval_limit is not None:
        environment["EVAL_LIMIT"] = str(eval_limit)
    overrides = {**_object(plan, "overrides", where), **_object(experiment, "overrides", where)}
    for key in SEED_KEYS:
        if key in overrides:
            raise ConfigurationError(f"{where}: give seeds with 'seeds', not the override {key!r}")
    label = str(experiment.get("label", ""))
    if label and not label.replace("_", "").isalnum():
        raise ConfigurationError(f"{where}: 'label' may hold letters, digits and '_' only, got {label!r}")
    finetune = experiment.get("finetune_bilm", False)
    if not isinstance(finetune, bool):
        raise ConfigurationError(f"{where}: 'finetune_bilm' must be true or false, got {finetune!r}")
    bilm = _bilm_spec(experiment, plan, where, shared_data_dir).name if finetune else ""
    changes = _schedule_changes(experiment, where)
    runs = []
    for config in configs:
        finetuned = bool(bilm) and config != BASELINE  # a baseline has no biLM to fine-tune
        for fraction in fractions:
            for seed in seeds:
                name = "-".join(
                    [task, config]
                    + ([label] if label else [])
                    + (["finetuned"] if finetuned else [])
                    + ([f"fraction{fraction:g}"] if fraction != 1 else [])
                    + [f"seed{seed}"]
                )
                run_limit = max(1, round(fraction * limit)) if limit is not None else None
                runs.append(
                    RunSpec(
                        name=name,
                        task=task,
                        config_name=config,
                        config=config_path(task, config),
                        seed=seed,
                        train_fraction=fraction,
                        train_limit=limit,
                        label=label,
                        metric=str(experiment.get("metric", TASKS[task].metric_key)),
                        data=str(experiment.get("data", "")),
                        environment={
                            **environment,
                            "TRAIN_FRACTION": f"{fraction:g}",
                            "TRAIN_LIMIT": "" if run_limit is None else str(run_limit),
                        },
                        overrides={**overrides, **{key: seed for key in SEED_KEYS}},
                        finetuned_bilm=bilm if finetuned else "",
                        schedule_changes=changes,
                    )
                )
    return runs


def _schedule_changes(experiment: Dict[str, Any], where: str) -> Tuple[Dict[str, Any], ...]:
    changes = experiment.get("schedule_changes", [])
    if not isinstance(changes, list):
        raise ConfigurationError(f"{where}: 'schedule_changes' must be a list of {{date, epochs, reason}}")
    for change in changes:
        if (
            not isinstance(change, dict)
            or set(change) != SCHEDULE_CHANGE_KEYS
            or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(change.get("date")))
            or not (isinstance(change.get("epochs"), list) and len(change["epochs"]) == 2)
            or not all(isinstance(n, int) for n in change["epochs"])
            or not change["epochs"][0] < change["epochs"][1]
            or not str(change.get("reason", "")).strip()
        ):
            raise ConfigurationError(
                f"{where}: a schedule change is {{date: 'YYYY-MM-DD', epochs: [from, to] with from < to, "
                f"reason: '...'}}, got {change!r}"
            )
    return tuple(changes)


def extension_reason(spec: Dict[str, Any], before: int, after: int) -> Optional[Dict[str, Any]]:
    """The plan's dated reason for giving a run that trained `before` epochs `after` (a spec, as_json), if any."""
    return next((c for c in spec.get("schedule_changes", ()) if list(c["epochs"]) == [before, after]), None)


def config_path(task: str, config: str) -> str:
    """
    configs/<task>_<config>.jsonnet for the baseline and ELMo, configs/stock/<task>_<name>.jsonnet for
    `stock_<name>` (allennlp-models' own configs), configs/ablations/<task>_<ablation>.jsonnet.
    """
    if config in (BASELINE, ELMO):
        return f"configs/{task}_{config}.jsonnet"
    if config.startswith(STOCK_PREFIX):
        return f"configs/stock/{task}_{config[len(STOCK_PREFIX) :]}.jsonnet"
    return f"configs/ablations/{task}_{config}.jsonnet"


def _check_keys(values: Dict[str, Any], allowed, where: str) -> None:
    unknown = sorted(set(values) - set(allowed))
    if unknown:
        raise ConfigurationError(f"{where}: unknown key(s) {unknown}; expected some of {sorted(allowed)}")


def _list_of(values, key, kind, where, default=None) -> list:
    items = values.get(key, default)
    if (
        not isinstance(items, list)
        or not items
        or not all(isinstance(item, kind) and not isinstance(item, bool) for item in items)
    ):
        raise ConfigurationError(f"{where}: {key!r} must be a non-empty list, got {items!r}")
    return items


def _object(values, key, where) -> Dict[str, Any]:
    value = values.get(key, {})
    if not isinstance(value, dict):
        raise ConfigurationError(f"{where}: {key!r} must be an object, got {value!r}")
    return value


def _strings(variables, where) -> Dict[str, str]:
    """Environment variables as strings (numbers allowed in the plan); anything else is refused."""
    if not isinstance(variables, dict):
        raise ConfigurationError(f"{where}: 'environment' must be an object, got {variables!r}")
    strings = {}
    for name, value in variables.items():
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise ConfigurationError(
                f"{where}: environment variable {name} must be a string or a number, got {value!r}"
            )
        strings[name] = str(value)
    return strings


def _difference(first: RunSpec, second: RunSpec) -> str:
    return "; ".join(
        f"{field}: {json.dumps(a, sort_keys=True)} vs {json.dumps(b, sort_keys=True)}"
        for field, a, b in zip(RunSpec._fields, first, second)
        if a != b
    )
