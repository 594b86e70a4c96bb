"""
Runs a plan's runs one after another (or `parallel` at a time), each through `allennlp train` in a
subprocess, into `RUNS_DIR/<run name>/` (its serialization directory), and records each in
`run_info.json` there.

What a run's directory holds decides what happens to it:

- `model.tar.gz` and `metrics.json`: finished, skipped;
- a training checkpoint: interrupted (or failed after some epochs), resumed with `--recover` once its
  config.json is checked against the config as it is now (`tasks.reproduce.resume`);
- a run the plan now gives more epochs (`trainer.num_epochs`, nothing else changed): finished as it
  is if patience stopped it before its epochs ran out (more would change nothing), else extended:
  resumed from its last checkpoint for the epochs added, patience and best epoch carried on;
- anything else (nothing, or an early failure): trained from the start;
- a finished or resumable run that the plan now describes differently: left alone and reported,
  since neither skipping nor resuming it would give what the plan says;
- a run one of whose input files (data, word vectors, the biLM) now holds other bytes than it was
  trained with (sha256 on record), e.g. a re-bundled biLM: a finished one is left alone and reported
  the same way, a resumable one refuses to resume, so that no cell mixes runs of two biLMs and no
  resume switches biLM mid-training.

First, the data that the plan makes from the shared data (its `prepare` steps, `tasks.reproduce.prepare`)
is made where it is missing.

A run whose config does not exist (yet) is reported as 'config missing' and the others go on; so
does a run that fails, whose exit code and last log lines go into its `run_info.json`.

Fine-tuned biLMs (§A.1) are built each once, into `RUNS_DIR/bilms/<name>/` by `allennlp
finetune-bilm` (recorded in its `bilm_info.json`; finished when its `perplexity.json` is there,
resumed otherwise), and the runs that use one read it through ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE.
Those that runs read are built before the runs, or with `parallel` as the first jobs, their runs
waiting for them while other runs train; those for Table 7 alone are built after the runs.
A built biLM whose starting biLM or task text has changed since is not used (nor are its runs).

A run whose config, read as `allennlp train` reads it (the run's overrides and variables applied),
is that of an earlier run of the plan is not trained again: an ablation that is the paper's own
setting, such as SNLI's `input_and_output` beside `elmo`. `plan.json` names each such twin, and the
report gives it the earlier run's results.

A plan with a `records` folder keeps a record of each finished run and built biLM there
(`tasks.reproduce.records`), written as it finishes and for any finished one that lacks it. A run
with no directory here whose record is of the same run, trained on the same input bytes, is done
("recorded"), as is a biLM whose record is there and which no run left to train needs.
"""

import collections
import concurrent.futures
import fcntl
import hashlib
import json
import logging
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Deque, Dict, Iterable, List, Optional, TextIO, Tuple

import numpy
from allennlp.common.checks import ConfigurationError

from tasks.environment import (
    PROJECT_ROOT,
    VARIABLES,
    WORD_VECTORS_SUFFIX,
    bundled_bilm_description,
    default_value,
    word_vectors_variables,
)
from tasks.reproduce.layout import (
    BILM_INFO,
    BILMS_DIR,
    CONSOLE_LOG,
    FINETUNED_ELMO_FILES,
    PLAN_RECORD,
    RUN_INFO,
    has_checkpoint,
    is_built,
    is_finished,
    read_json,
    write_json,
)
from tasks.reproduce.paper import ABLATIONS
from tasks.reproduce.plan import (
    DESCRIPTIVE_FIELDS,
    EPOCHS_KEY,
    BilmSpec,
    Plan,
    RunSpec,
    extension_reason,
    longer_schedule,
    same_training,
)
from tasks.reproduce.prepare import PrepareStep, prepare
from tasks.reproduce.provenance import FileIdentities, bilm_architecture, git_state, hardware
from tasks.reproduce.records import (
    is_bilm_result_of,
    is_result_of,
    portable,
    read_bilm_record,
    read_run_record,
    read_run_records,
    write_bilm_record,
    write_run_record,
)
from tasks.reproduce.restate import Restatement, same_setup, spec_of
from tasks.reproduce.results import BilmResult, RunResult, read_bilms, read_run
from tasks.reproduce.resume import adopt, config_differences, sort_differences
from tasks.reproduce.slurm import COME_BACK, SlurmExecutor, SlurmSettings

logger = logging.getLogger(__name__)

LOG_TAIL_LINES = 40
# A run sees the suite's variables only as its plan sets them (or their bundled defaults), never as
# left in the shell; except those that describe the machine (DEVICES, ELMO_CACHE_DIR), by their kind.
MACHINE_KINDS = ("devices", "directory")

FINISHED, RESUME, START, MISSING, CHANGED = "finished", "resume", "start", "config missing", "changed"
STALE = "inputs changed"  # finished, but an input file's bytes differ from those it was trained with
RECORDED = "recorded"  # finished elsewhere: no directory here, a record of the same run and inputs (records.py)
TWIN = "trains as another run"  # its config, read as `allennlp train` reads it, is an earlier run's: not trained twice
EXTEND = "extend"  # resumed from its last checkpoint for the epochs the plan now adds
UNEXPLAINED = "more epochs, no reason"  # finished, given more epochs by a plan that does not say why
ON_SLURM = "on Slurm"  # its last attempt is a Slurm job this runner has not seen end: waited on, never resubmitted
BATCHES_KEY = "data_loader.batches_per_epoch"  # set, an epoch is that many updates, not a pass over the data


LOGGED_TIME = re.compile(r"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}),\d{3} - ")  # a Python log line's start
# A tqdm progress bar's elapsed time: `2195it [04:50, 1.61s/it]`, `1/2 [1:02:03<00:10, ...]`.
PROGRESS_ELAPSED = re.compile(r"\[(?:(\d+):)?(\d+):(\d{2})[<,\]]")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def read_run_info(run_dir: Path) -> Optional[Dict[str, Any]]:
    return read_json(run_dir / RUN_INFO)


def state_of(run: RunSpec, run_dir: Path) -> str:
    """What the runner will do with `run`: one of FINISHED, RESUME, EXTEND, START, MISSING, CHANGED."""
    info = read_run_info(run_dir)
    if info is None and run_dir.is_dir() and any(run_dir.iterdir()):
        return CHANGED  # not made by the runner: not ours to resume or to empty
    if is_finished(run_dir) or has_checkpoint(run_dir):
        trained = info.get("spec", {}) if info is not None else run.as_json()
        if same_training(trained, run.as_json()):
            return FINISHED if is_finished(run_dir) else RESUME
        if not longer_schedule(trained, run.as_json()):
            return CHANGED
        if is_finished(run_dir) and stopped_early(run_dir):
            return FINISHED  # patience ended it before its epochs did: more epochs would change nothing
        if is_finished(run_dir) and not extension_reason(
            run.as_json(), trained["overrides"][EPOCHS_KEY], run.overrides[EPOCHS_KEY]
        ):
            return UNEXPLAINED  # a finished run's schedule changes only for a reason the plan gives, dated
        return EXTEND if has_checkpoint(run_dir) else CHANGED
    if not (PROJECT_ROOT / run.config).is_file():
        return MISSING
    return START


def stopped_early(run_dir: Path) -> bool:
    """Whether a finished run's patience stopped it before its last epoch (metrics.json against config.json)."""
    last = (read_json(run_dir / "metrics.json") or {}).get("epoch")
    planned = ((read_json(run_dir / "config.json") or {}).get("trainer") or {}).get("num_epochs")
    return isinstance(last, int) and isinstance(planned, int) and last + 1 < planned


class Runner:
    def __init__(
        self,
        plan: Plan,
        runs_dir: Path,
        only: Iterable[str] = (),
        parallel: int = 1,
        slurm: Optional[SlurmSettings] = None,
    ) -> None:
        if parallel < 1:
            raise ConfigurationError(f"--parallel must be 1 or more, not {parallel}")
        self.plan, self.runs_dir, self.parallel = plan, runs_dir, parallel
        # On Slurm, each run is a job (tasks/reproduce/slurm.py), and `parallel` is how many are submitted at once.
        self.slurm = SlurmExecutor(slurm, runs_dir / ".slurm") if slurm is not None else None
        self._bilm_jobs: Dict[str, str] = {}  # fine-tuned biLMs being built as Slurm jobs: name -> job id
        self.records = plan.records
        self._stopping = threading.Event()  # set on Ctrl-C: every run going stops (parallel runs)
        patterns = self.only = list(only)
        self.runs = [run for run in plan.runs if not patterns or any(_matches(run.name, p) for p in patterns)]
        # A pattern also picks biLMs by name (`--only sst-79bd1b7b9d`, as the dry run names them): a
        # biLM for Table 7 alone can be fine-tuned without waiting for every run of the plan.
        needed = {run.finetuned_bilm for run in self.runs}
        self.bilms = [
            bilm
            for bilm in plan.bilms
            if not patterns or bilm.name in needed or any(_matches(bilm.name, p) for p in patterns)
        ]
        if not self.runs and not self.bilms:
            raise ConfigurationError(f"no run or biLM of {plan.path} matches {patterns}")
        self.files = FileIdentities(runs_dir / ".file_hashes.json")
        self.durations: Dict[str, float] = {}  # finished runs' wall seconds, for the estimate
        self.failed: List[str] = []
        self.twins = twins(plan.runs, self.environment)

    def states(self) -> Dict[str, str]:
        return {run.name: self.state(run) for run in self.runs}

    def state(self, run: RunSpec) -> str:
        """
        `state_of`; STALE for a finished run of other input bytes than the files hold now; RECORDED
        for a run to start that its record says is done.
        """
        if open_slurm_attempt(read_run_info(self.runs_dir / run.name)) is not None:
            return ON_SLURM
        state = state_of(run, self.runs_dir / run.name)
        if state == FINISHED and self.changed_config(run, read_run_info(self.runs_dir / run.name)):
            return CHANGED
        if state == FINISHED and (
            self.changed_inputs(run) or (run.finetuned_bilm and self.changed_bilm_inputs(run.finetuned_bilm))
        ):
            return STALE
        if state == START and self.recorded(run):
            return RECORDED
        if state == START and run.name in self.twins:
            return TWIN
        return state

    def recorded(self, run: RunSpec) -> bool:
        """
        Whether the plan's records (or its reference records) hold this run, trained on the input bytes
        the files hold now (a
        file that is not here cannot say otherwise: the fine-tuned biLM a record's run read, say).
        """
        record = self.record_of(run)
        if record is None or self.changed_config(run, record.info):
            return False
        now = self._inputs(run.task, run.environment, self.environment(run))
        if _changes(record.info.get("inputs", {}), now):
            return False
        return not run.finetuned_bilm or not self.changed_bilm_inputs(run.finetuned_bilm)

    def changed_config(self, run: RunSpec, info: Optional[Dict[str, Any]]) -> bool:
        """Whether the run's config now reads otherwise than when it trained (runs trained before the suite
        recorded config_sha256 cannot say, and count as the same)."""
        trained = (info or {}).get("config_sha256")
        return trained is not None and trained != config_identity(run, with_defaults(self.environment(run)))

    def record_of(self, run: RunSpec) -> Optional[RunResult]:
        """The record of this run's training in the plan's records, else in its reference records."""
        folders = ([self.records] if self.records else []) + self.plan.reference_records
        for folder in folders:
            record = read_run_record(folder, run.name)
            if record is not None and is_result_of(record, run.as_json()):
                return record
        return None

    def bilm_record_of(self, name: str) -> Optional[BilmResult]:
        """The record of a fine-tuned biLM in the plan's records, else in its reference records."""
        for folder in ([self.records] if self.records else []) + self.plan.reference_records:
            record = read_bilm_record(folder, name)
            if record is not None:
                return record
        return None

    def changed_inputs(self, run: RunSpec) -> List[str]:
        """The input files of a run whose bytes differ from those on record, each said with both hashes."""
        recorded = (read_run_info(self.runs_dir / run.name) or {}).get("inputs", {})
        return _changes(recorded, self._inputs(run.task, run.environment, self.environment(run)))

    def restatements(self, then_root: Path) -> List[Restatement]:
        """
        Each planned run without a record that a record under another name trained, by the configs
        as they were (`then_root`/configs: `restate.configs_at(commit)`): a record that no longer holds
        for its own name (its config reads otherwise now), of the same setup and input bytes, with the
        run it is (tasks.reproduce.restate); or a record of another plan's (`reference_records`) that
        still holds for its own name and trained exactly the planned run as its config reads now, to be
        copied into this plan's records. A record is restated as one run at most (the plan's first).
        """
        folders = ([self.records] if self.records else []) + self.plan.reference_records
        records = [(folder, record) for folder in folders if folder.is_dir() for record in read_run_records(folder)]
        found: List[Restatement] = []
        for run in self.runs:
            if self.record_of(run) is not None:
                continue
            environment = with_defaults(self.environment(run))  # the record's too, where its setup is the same
            identity = config_identity(run, environment)
            if identity is None:
                continue  # its config cannot be read: the run says why when it runs
            now = self._inputs(run.task, run.environment, self.environment(run))
            for folder, record in records:
                if any(restated.record is record for restated in found):
                    continue
                recorded = record.info.get("inputs", {})
                if not same_setup(record, run) or any(
                    then.get("sha256") != now.get(name, {}).get("sha256") for name, then in recorded.items()
                ):
                    continue
                trained = spec_of(record)
                then = config_identity(trained, environment, then_root)
                if then != identity or record.info.get("config_sha256") not in (None, then):
                    continue  # it trained another config
                if then != config_identity(trained, environment):  # no longer holds for its own name
                    found.append(Restatement(record, run, identity, None))
                elif folder != self.records and self.records is not None:
                    found.append(Restatement(record, run, identity, self.records))
                else:
                    continue  # this plan's own record, still its own run's
                break
        return found

    def changed_bilm_inputs(self, name: str) -> List[str]:
        """The same for a fine-tuned biLM, built here or recorded: its starting biLM and its task's data."""
        bilm = next(bilm for bilm in self.plan.bilms if bilm.name == name)
        info = read_json(self.runs_dir / BILMS_DIR / name / BILM_INFO)
        if info is None:
            record = self.bilm_record_of(name)
            info = record.info if record is not None else None
        recorded = (info or {}).get("inputs", {})
        return _changes(recorded, self._inputs(bilm.task, bilm.environment, child_environment(bilm.environment)))

    def _inputs(self, task: str, planned: Dict[str, str], environment: Dict[str, str]) -> Dict[str, Dict[str, Any]]:
        """The identity (path, size, sha256) of each input file a run or biLM of `task` reads."""
        effective = with_defaults(environment)
        variables = {name: effective.get(name, "") for name in relevant_variables(task, planned, effective)}
        return {name: self.files.identify(str(PROJECT_ROOT / path)) for name, path in input_files(variables).items()}

    def _steps_to_prepare(self) -> List[PrepareStep]:
        """The plan's `prepare` steps that a run or biLM here reads (finished and recorded ones too: bytes count)."""
        environments = [run.environment for run in self.runs] + [bilm.environment for bilm in self.bilms]
        return [step for step in self.plan.prepare if step.is_read_by(environments)]

    def dry_run(self) -> None:
        """Says what each data step, fine-tuned biLM and run would do, and the command it would run."""
        for step in self._steps_to_prepare():
            missing = step.missing()
            state = f"to prepare\n    {step.shell_line()}" if missing else "prepared"
            print(f"data {', '.join(missing or step.outputs)}: {state}")
        states = self.states()  # as the files are now (a record counts before its data is made: nothing contradicts it)
        for bilm in self.bilms:
            built = is_built(self.runs_dir / BILMS_DIR / bilm.name) or self._bilm_recorded(bilm, states)
            changes = self.changed_bilm_inputs(bilm.name) if built else []
            state = "built from other input bytes" if changes else "built" if built else "to fine-tune"
            if built and not changes and not is_built(self.runs_dir / BILMS_DIR / bilm.name):
                state = RECORDED
            details = changes if built else [bilm_shell_line(bilm, self.runs_dir)]
            print(f"biLM {bilm.name}: {state}" + "".join(f"\n    {line}" for line in details))
        for run in self.runs:
            state = states[run.name]
            line = f"{run.name}: {state}"
            if state in (START, RESUME, EXTEND):
                line += "\n    " + shell_line(run, self.runs_dir / run.name, recover=state != START)
            if state == STALE:
                line += "".join(f"\n    {change}" for change in self.changed_inputs(run))
            if state == TWIN:
                line += f" {self.twins[run.name]}"
            print(line)
        print(self.progress(states))

    def run(self) -> int:
        """Runs every run not finished; returns 0 if none failed or conflicts, 1 otherwise."""
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        previous_handler = signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops the current run as Ctrl-C does
        # Started in the background (`nohup ... &`), SIGINT is ignored, and the training runs would
        # inherit that and ignore the SIGINT that stops them cleanly: give it back its handler.
        previous_interrupt = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            return self._run_all()
        finally:
            signal.signal(signal.SIGTERM, previous_handler)
            signal.signal(signal.SIGINT, previous_interrupt)

    def _run_all(self) -> int:
        with open(self.runs_dir / ".lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise ConfigurationError(f"another `allennlp reproduce` is using {self.runs_dir}") from None
            for step in self._steps_to_prepare():
                if not prepare(step):
                    self.failed.append(f"prepare {step.outputs[0]}")
            self._record_plan()
            for run in self.runs:
                info = read_run_info(self.runs_dir / run.name)
                if info and close_unrecorded_attempts(info, self.runs_dir / run.name):
                    info = _with_totals(info)
                    write_json(self.runs_dir / run.name / RUN_INFO, info)
                if info:
                    set_aside_superseded_metrics(self.runs_dir / run.name, info.get("attempts", []))
                if info and info["spec"] != run.as_json() and same_training(info["spec"], run.as_json()):
                    info["spec"] = run.as_json()  # the plan describes it anew: the report follows
                    write_json(self.runs_dir / run.name / RUN_INFO, info)
                elif (
                    info
                    and longer_schedule(info["spec"], run.as_json())
                    and state_of(run, self.runs_dir / run.name) == FINISHED
                ):
                    before, after = info["spec"]["overrides"][EPOCHS_KEY], run.overrides[EPOCHS_KEY]
                    info["spec"] = run.as_json()  # stopped by patience: the longer schedule's run too
                    info["schedule"] = f"planned for {before} epochs, stopped by patience; {after} planned now"
                    write_json(self.runs_dir / run.name / RUN_INFO, info)
                if info and info.get("status") == FINISHED and is_finished(self.runs_dir / run.name):
                    self.durations[run.name] = info.get("wall_seconds") or 0.0
            self._keep_records()
            states = self.states()
            for run in self.runs:
                if states[run.name] == RECORDED:
                    record = self.record_of(run)
                    self.durations[run.name] = record.info.get("wall_seconds") or 0.0
            for name, state in states.items():
                if state == MISSING:
                    logger.warning(
                        "%s: config missing (%s); skipped", name, next(r.config for r in self.runs if r.name == name)
                    )
                elif state == CHANGED:
                    logger.error(
                        "%s: %s was made otherwise than the plan says (see its %s, if any); "
                        "remove it, or use another runs folder, to run it again",
                        name,
                        self.runs_dir / name,
                        RUN_INFO,
                    )
                elif state == UNEXPLAINED:
                    run = next(run for run in self.runs if run.name == name)
                    trained = read_run_info(self.runs_dir / name)["spec"]["overrides"][EPOCHS_KEY]
                    logger.error(
                        "%s: finished after %d epochs; the plan now gives it %d, but says neither when nor why: add "
                        "{date: 'YYYY-MM-DD', epochs: [%d, %d], reason: '...'} to its experiment's schedule_changes "
                        "(the report lists them), or give it its %d epochs back",
                        name,
                        trained,
                        run.overrides[EPOCHS_KEY],
                        trained,
                        run.overrides[EPOCHS_KEY],
                        trained,
                    )
                elif state == STALE:
                    run = next(run for run in self.runs if run.name == name)
                    changes = self.changed_inputs(run) or [f"its fine-tuned biLM {run.finetuned_bilm}'s inputs"]
                    logger.error(
                        "%s: %s was trained with other input bytes than the files hold now (%s); restore them, "
                        "or move the folder away to train it with them as they are",
                        name,
                        self.runs_dir / name,
                        "; ".join(changes),
                    )
            # One at a time, the biLMs that runs read are built first. With --parallel they are the first
            # jobs, and their runs wait for them while the others train; the biLMs for Table 7 alone come
            # after the runs, so that no core waits on an hour of fine-tuning.
            wanted = {run.finetuned_bilm for run in self.runs if states[run.name] in (START, RESUME, EXTEND)}
            to_build = [bilm for bilm in self.bilms if not self._bilm_recorded(bilm, states)]
            read_by_runs = [bilm for bilm in to_build if bilm.name in wanted]
            table_7_only = [bilm for bilm in to_build if bilm.name not in wanted]
            to_do = (START, RESUME, EXTEND, ON_SLURM) if self.slurm is not None else (START, RESUME, EXTEND)
            runs = [run for run in self.runs if states[run.name] in to_do]
            for run in self.runs:
                if states[run.name] == ON_SLURM and self.slurm is None:
                    self._run_one(run, resume=True)  # says why it is left alone
            if self.parallel == 1:
                unbuilt = {bilm.name for bilm in read_by_runs if not self._build_bilm(bilm)}
                for run in runs:
                    if run.finetuned_bilm in unbuilt:
                        self._not_run_without_bilm(run, states)
                        continue
                    states[run.name] = "running"
                    logger.info("%s | next: %s", self.progress(states), run.name)
                    states[run.name] = self._run_one(run, resume=state_of(run, self.runs_dir / run.name) != START)
                for bilm in table_7_only:
                    self._build_bilm(bilm)
            else:
                self._run_in_parallel([*read_by_runs, *runs, *table_7_only], states)
            done = f"what --only picks of plan {self.plan.name} is done" if self.only else f"plan {self.plan.name} done"
            logger.info("%s | %s", self.progress(states), done)
        conflicts = [name for name, state in states.items() if state in (CHANGED, STALE, UNEXPLAINED)]
        return 1 if self.failed or conflicts else 0

    def _run_in_parallel(self, queue: List[Any], states: Dict[str, str]) -> None:
        """
        Runs `queue` (biLMs that runs read, runs, then biLMs to fine-tune for Table 7) in order,
        `self.parallel` at a time; a run whose biLM is not built yet gives its turn to the next job.
        Ctrl-C (or `kill`) stops every job going, each as one is stopped alone, and then the runner.
        """
        going: Dict[concurrent.futures.Future, Any] = {}
        unbuilt = {job.name for job in queue if isinstance(job, BilmSpec)}
        failed_bilms = set()
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.parallel) as pool:
            try:
                while queue or going:
                    while len(going) < self.parallel:
                        ready = (
                            job
                            for job in queue
                            if isinstance(job, BilmSpec)
                            or job.finetuned_bilm not in unbuilt
                            or job.finetuned_bilm in self._bilm_jobs  # on Slurm: submitted after it
                        )
                        job = next(ready, None)
                        if job is None:
                            break
                        queue.remove(job)
                        if isinstance(job, BilmSpec) and is_built(self.runs_dir / BILMS_DIR / job.name):
                            # Built by an earlier runner: only its inputs are checked, and it takes no turn.
                            unbuilt.discard(job.name)
                            if not self._build_bilm(job):
                                failed_bilms.add(job.name)
                        elif isinstance(job, BilmSpec):
                            logger.info("%s | next: biLM %s", self.progress(states), job.name)
                            going[pool.submit(self._build_bilm, job)] = job
                        elif job.finetuned_bilm in failed_bilms:
                            self._not_run_without_bilm(job, states)
                        else:
                            states[job.name] = "running"
                            logger.info("%s | next: %s", self.progress(states), job.name)
                            resume = state_of(job, self.runs_dir / job.name) != START
                            going[pool.submit(self._run_one, job, resume)] = job
                    done, _ = concurrent.futures.wait(going, timeout=1.0, return_when="FIRST_COMPLETED")
                    for future in done:
                        job, result = going.pop(future), future.result()
                        if isinstance(job, RunSpec):
                            states[job.name] = result
                        else:
                            unbuilt.discard(job.name)
                            if not result:
                                failed_bilms.add(job.name)
            except KeyboardInterrupt:
                self._stopping.set()
                concurrent.futures.wait(going)
                raise

    def _not_run_without_bilm(self, run: RunSpec, states: Dict[str, str]) -> None:
        logger.error(
            "%s: not run, its fine-tuned biLM %s failed (see %s)",
            run.name,
            run.finetuned_bilm,
            self.runs_dir / BILMS_DIR / run.finetuned_bilm / BILM_INFO,
        )
        states[run.name] = "failed"
        self.failed.append(run.name)

    def progress(self, states: Dict[str, str]) -> str:
        counts = collections.Counter(states.values())
        left = counts[START] + counts[RESUME] + counts[EXTEND]
        from_records = f" ({counts[RECORDED]} of them by their records)" if counts[RECORDED] else ""
        line = (
            f"[reproduce] {counts[FINISHED] + counts[RECORDED]} done{from_records}, {counts['running']} running, "
            f"{counts['failed']} failed, {left} left of {len(states)}"
        )
        if counts[MISSING] or counts[CHANGED] or counts[STALE] or counts[UNEXPLAINED]:
            line += f" ({counts[MISSING]} config missing, {counts[CHANGED]} changed, {counts[STALE]} inputs changed"
            line += f", {counts[UNEXPLAINED]} given more epochs with no reason)" if counts[UNEXPLAINED] else ")"
        if counts[TWIN]:
            line += f"; {counts[TWIN]} train as an earlier run does, which stands for them"
        pending = [run for run in self.runs if states.get(run.name) in (START, RESUME, EXTEND, "running")]
        estimates = [self.estimate(run) for run in pending]
        timed = [seconds for seconds in estimates if seconds is not None]
        if timed:
            # Runs side by side share the wall clock: the sum over `parallel`, roughly.
            line += f"; about {_duration(sum(timed) / self.parallel)} to go for {len(timed)} of them"
            if self.parallel > 1:
                line += f", {self.parallel} at a time"
            if len(timed) < len(pending):
                line += f" (the other {len(pending) - len(timed)}: no finished run to time them by)"
        return line

    def estimate(self, run: RunSpec) -> Optional[float]:
        """
        Seconds `run` may take: the mean of its finished seeds (the same task, config, fraction and
        epochs) if any; else, from its task's finished runs, seconds per unit of training work
        (training fraction times epochs) plus seconds per epoch (validation on the whole dev set,
        which a small fraction does not shrink), fitted once two shapes of run have finished, or
        the mean time per unit of work before that; None before a run of its task has finished.
        A run whose epochs are counted in updates (BATCHES_KEY) is timed by its own seeds alone.
        Rough either way: early stopping ends runs before their epochs.
        """
        timed = [other for other in self.runs if other.task == run.task and other.name in self.durations]
        seeds = [other for other in timed if _cell(other) == _cell(run)]
        if seeds:
            return statistics.fmean(self.durations[other.name] for other in seeds)
        timed = [other for other in timed if BATCHES_KEY not in other.overrides]
        if not timed or BATCHES_KEY in run.overrides:
            return None
        fitted = _fit_work_and_epochs([(_work(other), _epochs(other), self.durations[other.name]) for other in timed])
        if fitted is not None:
            per_unit, per_epoch = fitted
            return per_unit * _work(run) + per_epoch * _epochs(run)
        per_unit = statistics.fmean(self.durations[other.name] / _work(other) for other in timed)
        return per_unit * _work(run)

    def plan_record(self) -> Dict[str, Any]:
        """The expanded plan, as the report reads it: what was planned (and so what was not run), the twins."""
        missing = {run.name: run.config for run in self.plan.runs if state_of(run, self.runs_dir / run.name) == MISSING}
        return {
            "name": self.plan.name,
            "description": self.plan.description,
            "path": self.plan.path,
            "runs": [run.as_json() for run in self.plan.runs],
            "config_missing": missing,
            "records": str(self.plan.records) if self.plan.records else None,
            "reference_records": [str(folder) for folder in self.plan.reference_records],
            "twins": self.twins,
            "bilms": [bilm.as_json() for bilm in self.plan.bilms],
        }

    def _record_plan(self) -> None:
        """Writes the expanded plan beside the runs, so the report knows what was planned and not run."""
        write_json(self.runs_dir / PLAN_RECORD, {**self.plan_record(), "written": now()})

    def _run_one(self, run: RunSpec, resume: bool) -> str:
        run_dir = self.runs_dir / run.name
        previous = read_run_info(run_dir) or {}
        submitted = open_slurm_attempt(previous)
        if submitted is not None:  # a job an earlier runner submitted: waited for, never submitted twice
            if self.slurm is None:
                logger.error(
                    "%s: its Slurm job %s has not been seen to end; run with --executor slurm to wait for it "
                    "(or scancel it)",
                    run.name,
                    submitted["slurm"]["job_id"],
                )
                return ON_SLURM
            logger.info("%s: waiting for its Slurm job %s", run.name, submitted["slurm"]["job_id"])
            return self._await_job(run, run_dir, previous, submitted)
        if not resume and run_dir.exists():
            shutil.rmtree(run_dir)  # an early failure's record (state_of leaves others alone)
        info = self._describe(run, resume)
        if same_training(previous.get("spec", {}), info["spec"]) or longer_schedule(
            previous.get("spec", {}), info["spec"]
        ):
            info["attempts"] = previous.get("attempts", [])
        environment = self._threads(self.environment(run))
        attempt = {
            "started": now(),
            "recover": resume,
            "hardware": hardware(),
            "omp_num_threads": environment.get("OMP_NUM_THREADS"),  # None: torch's default, one per core
            "git": git_state(),
        }
        info["attempts"].append(attempt)
        started = time.monotonic()
        console = _Console(run_dir)
        console.write(f"=== {attempt['started']} {'resuming' if resume else 'starting'}: {info['shell']}\n")
        logger.info("%s %s: %s", run.name, "resumes" if resume else "starts", info["shell"])
        refusal = self._prepare_resume(run, run_dir, previous, attempt, console) if resume else None
        if refusal is not None:
            # What the checkpoint was trained with stays on record, for the resume that follows a fix.
            info.update({key: previous[key] for key in ("environment", "inputs") if key in previous})
            return self._refuse(run, run_dir, info, attempt, console, refusal)
        recorded = False

        def record_once_started() -> None:
            nonlocal recorded
            if not recorded and run_dir.is_dir():  # `allennlp train` has made it: say the run is on
                write_json(run_dir / RUN_INFO, _with_totals(info))
                recorded = True

        if self.slurm is not None:
            console.close()  # the job appends to console.log itself
            dependency = self._bilm_jobs.get(run.finetuned_bilm) if run.finetuned_bilm else None
            attempt["slurm"] = self.slurm.submit(
                run.name, info["command"], environment, run_dir / CONSOLE_LOG, run.task, dependency
            )
            attempt["status"] = info["status"] = "submitted"
            write_json(run_dir / RUN_INFO, _with_totals(info))
            return self._await_job(run, run_dir, info, attempt)
        process, interrupted, cpu_seconds = _supervise(
            info["command"],
            environment,
            console,
            record_once_started,
            f"Interrupted: stopping {run.name} (its best epoch so far is archived; rerun to resume)",
            self._stopping,
        )
        attempt.update(
            ended=now(),
            seconds=round(time.monotonic() - started, 1),
            cpu_seconds=round(cpu_seconds, 1),
            exit_code=process.returncode,
        )
        if is_finished(run_dir) and (process.returncode == 0 or interrupted):
            status = FINISHED  # also when Ctrl-C came as it ended: it had archived the model after its metrics
        elif interrupted:
            status = "interrupted"
        else:
            status = "failed"
            attempt["error"] = info["error"] = {
                "exit_code": process.returncode,
                "summary": error_summary(console.tail),
                "log_tail": list(console.tail),
            }
        attempt["status"] = info["status"] = status
        console.close()
        info = _with_totals(info)
        write_json(run_dir / RUN_INFO, info)
        if status == FINISHED:
            self.durations[run.name] = info["wall_seconds"]
            logger.info("%s finished in %s", run.name, _duration(attempt["seconds"]))
            if self.records:
                write_run_record(self.records, read_run(run_dir))
        elif status == "failed":
            self.failed.append(run.name)
            logger.error("%s failed (exit code %s): %s", run.name, process.returncode, info["error"]["summary"])
        if interrupted and self.parallel == 1:
            raise KeyboardInterrupt
        return status

    def _await_job(self, run: RunSpec, run_dir: Path, info: Dict[str, Any], attempt: Dict[str, Any]) -> str:
        """
        Waits for the run's Slurm job and records how it ended: finished, failed, cancelled (not submitted
        again), or ended early by its time limit or a preemption (submitted again with --recover, up to
        the settings' max_resubmits). Ctrl-C leaves the job running and its attempt open, to be waited for.
        """
        job_id = attempt["slurm"]["job_id"]
        try:
            end = self.slurm.wait(job_id, run.name, self._stopping)
        except KeyboardInterrupt:
            logger.warning(
                "%s: Slurm job %s goes on; `allennlp reproduce` again waits for it (scancel %s stops it)",
                run.name,
                job_id,
                job_id,
            )
            if self.parallel == 1:
                raise
            return "submitted"
        started = datetime.fromisoformat(attempt["started"])
        attempt["slurm"].update(end.job)
        attempt.update(
            ended=now(),
            seconds=round((datetime.now(timezone.utc) - started).total_seconds(), 1),
            exit_code=end.exit_code,
        )
        tail = _log_tail(run_dir / CONSOLE_LOG)
        if end.state == "COMPLETED" and end.exit_code == 0 and is_finished(run_dir):
            status = FINISHED
        elif end.state in COME_BACK:
            status = end.state.lower()
        elif end.state == "CANCELLED":
            status = "cancelled"
            why = f"Slurm job {job_id} cancelled{' ' + end.job['reason'] if end.job.get('reason') else ''}"
            attempt["error"] = info["error"] = {"exit_code": None, "summary": why, "log_tail": tail}
        else:
            status = "failed"
            why = error_summary(tail) if end.state == "COMPLETED" else f"Slurm job {job_id} ended {end.state}"
            attempt["error"] = info["error"] = {"exit_code": end.exit_code, "summary": why, "log_tail": tail}
        attempt["status"] = info["status"] = status
        info = _with_totals(info)
        write_json(run_dir / RUN_INFO, info)
        if status == FINISHED:
            info["inputs"] = self._inputs(run.task, run.environment, self.environment(run))  # a biLM built meanwhile
            write_json(run_dir / RUN_INFO, info)
            self.durations[run.name] = info["wall_seconds"]
            logger.info("%s finished (Slurm job %s) in %s", run.name, job_id, _duration(attempt["seconds"]))
            if self.records:
                write_run_record(self.records, read_run(run_dir))
            return status
        if end.state in COME_BACK:
            came_back = sum(1 for earlier in info["attempts"] if earlier.get("status") in _CAME_BACK)
            if came_back <= self.slurm.settings.max_resubmits:
                logger.warning(
                    "%s: Slurm job %s ended %s; submitted again with --recover (%d of at most %d)",
                    run.name,
                    job_id,
                    end.state,
                    came_back,
                    self.slurm.settings.max_resubmits,
                )
                return self._run_one(run, resume=has_checkpoint(run_dir))
            logger.error("%s: ended early %d times; not submitted again", run.name, came_back)
        if status in ("failed", "cancelled") or end.state in COME_BACK:
            self.failed.append(run.name)
            logger.error("%s %s: %s", run.name, status, info.get("error", {}).get("summary", end.state))
        return status

    def _threads(self, environment: Dict[str, str]) -> Dict[str, str]:
        """With runs side by side, each gets its share of the cores, unless OMP_NUM_THREADS says otherwise."""
        if self.parallel > 1 and self.slurm is None and "OMP_NUM_THREADS" not in environment:  # a job has its CPUs
            environment = {**environment, "OMP_NUM_THREADS": str(max(1, (os.cpu_count() or 1) // self.parallel))}
        return environment

    def _prepare_resume(
        self, run: RunSpec, run_dir: Path, previous: Dict[str, Any], attempt: Dict[str, Any], console: "_Console"
    ) -> Optional[str]:
        """
        Adopts the values of the run's config.json that only moved (`tasks.reproduce.resume`) and the
        epochs the plan adds to an extended run; says why the run cannot resume when others changed, or
        when an input file holds other bytes than the checkpoint was trained with, else None.
        """
        effective = with_defaults(self.environment(run))
        differences = config_differences(PROJECT_ROOT / run.config, run.overrides, effective, run_dir / "config.json")
        extended = longer_schedule(previous.get("spec", {}), run.as_json())
        epochs = [difference for difference in differences or [] if extended and difference.key == EPOCHS_KEY]

        def sha256_of(path: str) -> Optional[str]:
            return self.files.identify(path)["sha256"] if Path(path).is_file() else None

        others = [difference for difference in differences or [] if difference not in epochs]
        moved, changed = sort_differences(others, previous, effective, sha256_of, MACHINE_KINDS)
        if changed:
            return (
                f"{run.name} cannot resume: its config now differs from the one its checkpoint was trained with "
                f"({'; '.join(map(str, changed))}). Restore it, or remove {run_dir} to train the run again."
            )
        # the same paths, other bytes (a file replaced in place)
        changes = _changes(previous.get("inputs", {}), self._inputs(run.task, run.environment, self.environment(run)))
        if changes:
            return (
                f"{run.name} cannot resume: its checkpoint was trained with other input bytes than the files "
                f"hold now ({'; '.join(changes)}). Restore them, or remove {run_dir} to train the run again."
            )
        if moved or epochs:
            adopt(run_dir / "config.json", moved + epochs)
        if moved:
            attempt["moved"] = {
                difference.key: {"from": difference.trained, "to": difference.now} for difference in moved
            }
            for difference in moved:
                console.write(f"config.json: {difference.key} now names {difference.now!r} (moved, same content)\n")
            logger.info("%s resumes with %d moved file(s) or folder(s) in its config.json", run.name, len(moved))
        for difference in epochs:
            attempt["extended"] = {"from": difference.trained, "to": difference.now}
            set_aside_superseded_metrics(run_dir, [attempt])
            console.write(f"config.json: {EPOCHS_KEY} {difference.trained} -> {difference.now} (extended)\n")
            logger.info("%s goes on from its last checkpoint to %d epochs", run.name, difference.now)
        return None

    def _refuse(
        self, run: RunSpec, run_dir: Path, info: Dict[str, Any], attempt: Dict[str, Any], console: "_Console", why: str
    ) -> str:
        """Records an attempt that did not start `allennlp train`, and why, as a failure."""
        console.write(why + "\n")
        console.close()
        attempt.update(ended=now(), seconds=0.0, exit_code=None, status="failed")
        attempt["error"] = info["error"] = {"exit_code": None, "summary": why, "log_tail": [why]}
        info["status"] = "failed"
        write_json(run_dir / RUN_INFO, _with_totals(info))
        self.failed.append(run.name)
        logger.error("%s", why)
        return "failed"

    def environment(self, run: RunSpec) -> Dict[str, str]:
        """What the run's `allennlp train` gets: `child_environment`, and its fine-tuned biLM if it has one."""
        environment = child_environment(run.environment)
        if run.finetuned_bilm:
            directory = self.runs_dir / BILMS_DIR / run.finetuned_bilm
            environment.update({name: str(directory / path) for name, path in FINETUNED_ELMO_FILES.items()})
        return environment

    def _keep_records(self) -> None:
        """Writes the record of each finished run and built biLM here whose record is missing or differs."""
        if not self.records:
            return
        for run in self.runs:
            run_dir = self.runs_dir / run.name
            if state_of(run, run_dir) != FINISHED or read_run_info(run_dir).get("status") != FINISHED:
                continue
            record = read_run_record(self.records, run.name)
            here = (portable(read_run_info(run_dir)), read_json(run_dir / "metrics.json"))
            if record is None or (record.info, record.metrics) != here:
                logger.info("%s: recorded in %s", run.name, write_run_record(self.records, read_run(run_dir)))
        planned = {bilm.name for bilm in self.bilms}
        for built in read_bilms(self.runs_dir):
            if built.name not in planned or built.status != FINISHED:
                continue
            record = read_bilm_record(self.records, built.name)
            if record is None or (record.info, record.perplexity) != portable((built.info, built.perplexity)):
                logger.info("biLM %s: recorded in %s", built.name, write_bilm_record(self.records, built))

    def _bilm_recorded(self, bilm: BilmSpec, states: Dict[str, str]) -> bool:
        """Whether a biLM not built here is done by its record: same inputs, and no run left needs its weights."""
        if is_built(self.runs_dir / BILMS_DIR / bilm.name):
            return False
        record = self.bilm_record_of(bilm.name)
        if record is None or not is_bilm_result_of(record, bilm.as_json()) or self.changed_bilm_inputs(bilm.name):
            return False
        return not any(
            states.get(run.name) in (START, RESUME, EXTEND) for run in self.runs if run.finetuned_bilm == bilm.name
        )

    def _build_bilm(self, bilm: BilmSpec) -> bool:
        """Fine-tunes `bilm` unless it is built (resuming what an earlier attempt left); whether it is built now."""
        directory = self.runs_dir / BILMS_DIR / bilm.name
        if is_built(directory):
            changes = self.changed_bilm_inputs(bilm.name)
            if changes:
                logger.error(
                    "biLM %s: %s was built from other input bytes than the files hold now (%s); restore them, "
                    "or move the folder away to build it again",
                    bilm.name,
                    directory,
                    "; ".join(changes),
                )
            return not changes
        directory.mkdir(parents=True, exist_ok=True)
        info = read_json(directory / BILM_INFO) or self._earlier_builds(bilm.name)
        close_unrecorded_attempts(info, directory)
        if info.get("spec") not in (None, bilm.as_json()):
            logger.error(
                "biLM %s: %s was made otherwise than the plan says; remove it to build it again", bilm.name, directory
            )
            return False
        command, environment = bilm_command(bilm, directory), self._threads(child_environment(bilm.environment))
        earlier_job = open_slurm_attempt(info)
        if earlier_job is not None and self.slurm is not None:  # an earlier runner's job: waited for, not resubmitted
            self._bilm_jobs[bilm.name] = earlier_job["slurm"]["job_id"]
            end = self.slurm.wait(earlier_job["slurm"]["job_id"], f"bilm-{bilm.name}", self._stopping)
            earlier_job["slurm"].update(end.job)
            earlier_job.update(ended=now(), exit_code=end.exit_code, status=end.state.lower())
            write_json(directory / BILM_INFO, info)
            if end.state == "COMPLETED" and end.exit_code == 0 and is_built(directory):
                earlier_job["status"] = info["status"] = FINISHED
                write_json(directory / BILM_INFO, info)
                return True
        info.update(
            name=bilm.name,
            plan=self.plan.name,
            spec=bilm.as_json(),
            command=command,
            shell=bilm_shell_line(bilm, self.runs_dir),
            status="running",
            inputs=self._inputs(bilm.task, bilm.environment, environment),
        )
        attempt = {
            "started": now(),
            "hardware": hardware(),
            "omp_num_threads": environment.get("OMP_NUM_THREADS"),
            "git": git_state(),
        }
        info.setdefault("attempts", []).append(attempt)
        write_json(directory / BILM_INFO, info)
        logger.info("biLM %s: fine-tuning on the %s training text (%s)", bilm.name, bilm.task, info["shell"])
        started = time.monotonic()
        console = _Console(directory)
        console.write(f"=== {attempt['started']}: {info['shell']}\n")
        if self.slurm is not None:
            console.close()
            returncode, interrupted = self._bilm_job(bilm, command, environment, directory, info, attempt), False
        else:
            process, interrupted, cpu_seconds = _supervise(
                command,
                environment,
                console,
                lambda: None,
                f"Interrupted: stopping the fine-tuning of biLM {bilm.name} (rerun to resume)",
                self._stopping,
            )
            console.close()
            returncode = process.returncode
            attempt["cpu_seconds"] = round(cpu_seconds, 1)
        attempt.update(ended=now(), seconds=round(time.monotonic() - started, 1), exit_code=returncode)
        console.tail.extend(_log_tail(directory / CONSOLE_LOG) if self.slurm is not None else [])
        status = "interrupted" if interrupted else FINISHED if returncode == 0 and is_built(directory) else "failed"
        attempt["status"] = info["status"] = status
        if status == "failed":
            info["error"] = {
                "exit_code": returncode,
                "summary": error_summary(console.tail),
                "log_tail": list(console.tail),
            }
            logger.error("biLM %s failed (exit code %s): %s", bilm.name, returncode, info["error"]["summary"])
        info.update(_time_totals(info["attempts"]))
        write_json(directory / BILM_INFO, info)
        if status == FINISHED and self.records:
            write_bilm_record(self.records, next(b for b in read_bilms(self.runs_dir) if b.name == bilm.name))
        if interrupted:
            raise KeyboardInterrupt
        return status == FINISHED

    def _earlier_builds(self, name: str) -> Dict[str, Any]:
        """
        The start of a biLM's info where a record says it was built but its weights are not here (a
        replaced machine): the recorded attempts and results, so that the record written after this
        build keeps them (the time spent, the perplexity of weights that are gone).
        """
        record = self.bilm_record_of(name)
        if record is None:
            return {}
        lost = {"ended": record.info["attempts"][-1].get("ended"), **record.perplexity}
        return {
            "attempts": record.info.get("attempts", []),
            "earlier_builds": record.info.get("earlier_builds", []) + [lost],
        }

    def _bilm_job(
        self, bilm: BilmSpec, command: List[str], environment: Dict[str, str], directory: Path, info, attempt
    ) -> Optional[int]:
        """Fine-tunes a biLM as a Slurm job (the runs that read it are submitted after it, depending on it);
        its exit code, None where the job did not complete."""
        attempt["slurm"] = self.slurm.submit(
            f"bilm-{bilm.name}", command, environment, directory / CONSOLE_LOG, bilm.task
        )
        self._bilm_jobs[bilm.name] = attempt["slurm"]["job_id"]
        write_json(directory / BILM_INFO, info)
        end = self.slurm.wait(attempt["slurm"]["job_id"], f"bilm-{bilm.name}", self._stopping)
        attempt["slurm"].update(end.job)
        return end.exit_code if end.state == "COMPLETED" else None

    def _describe(self, run: RunSpec, resume: bool) -> Dict[str, Any]:
        """The run_info.json of a run about to start: what it is, its command, its inputs."""
        run_dir = self.runs_dir / run.name
        effective = with_defaults(self.environment(run))
        bundled_bilm = effective["ELMO_WEIGHT_FILE"] == VARIABLES["ELMO_WEIGHT_FILE"].default
        return {
            "name": run.name,
            "plan": self.plan.name,
            "spec": run.as_json(),
            "status": "running",
            "command": command(run, run_dir, resume),
            "shell": shell_line(run, run_dir, resume),
            "environment": recorded_environment(run, effective),
            "inputs": self._inputs(run.task, run.environment, self.environment(run)),
            "bilm": bilm_architecture(str(PROJECT_ROOT / effective["ELMO_OPTIONS_FILE"])),
            "bilm_description": bundled_bilm_description() if bundled_bilm else None,
            "config_values": _config_values(run, effective),
            "config_sha256": config_identity(run, effective),
            "attempts": [],
        }


def bilm_command(bilm: BilmSpec, directory: Path) -> List[str]:
    arguments = [sys.executable, "-m", "allennlp", "finetune-bilm", bilm.config, str(directory)]
    return arguments + (["-o", json.dumps(bilm.overrides, sort_keys=True)] if bilm.overrides else [])


def bilm_shell_line(bilm: BilmSpec, runs_dir: Path) -> str:
    """The fine-tuning as one line to paste into a shell at the repository root."""
    variables = " ".join(f"{name}={shlex.quote(value)}" for name, value in sorted(bilm.environment.items()))
    arguments = bilm_command(bilm, runs_dir / BILMS_DIR / bilm.name)[3:]
    return f"{variables} allennlp {' '.join(shlex.quote(argument) for argument in arguments)}".strip()


def twins(runs: List[RunSpec], environment_of) -> Dict[str, str]:
    """
    Each run whose training is an earlier run's, by another config file: {its name: the earlier
    run's}. An ablation may restate the paper's own setting, so runs that differ in their config
    alone, one an ablation at least, are compared, read as `allennlp train` reads them (with
    `environment_of(run)` and each suite variable's default: about 0.3 s a config); a config that
    cannot be read is nobody's twin (its run fails and says why).
    """
    from allennlp.common import Params

    alike: Dict[str, List[RunSpec]] = collections.defaultdict(list)
    for run in runs:
        naming = ("name", "config_name", "config", "label") + DESCRIPTIVE_FIELDS
        rest = {k: v for k, v in run.as_json().items() if k not in naming}
        alike[json.dumps(rest, sort_keys=True)].append(run)
    found: Dict[str, str] = {}
    effective: Dict[str, Dict[str, str]] = {}  # with_defaults reads the word vectors files: once per environment
    for group in alike.values():
        if len(group) < 2 or not any(run.config_name in ABLATIONS for run in group):
            continue
        seen: Dict[str, str] = {}
        for run in group:
            environment = environment_of(run)
            variables = json.dumps(environment, sort_keys=True)
            if variables not in effective:
                effective[variables] = with_defaults(environment)
            try:
                params = Params.from_file(
                    str(PROJECT_ROOT / run.config), json.dumps(run.overrides), effective[variables]
                )
            except Exception:  # noqa: BLE001 - any error: the run says it when it runs
                continue
            config = json.dumps(params.as_dict(quiet=True), sort_keys=True)
            if config in seen:
                found[run.name] = seen[config]
            else:
                seen[config] = run.name
    return found


def child_environment(planned: Dict[str, str]) -> Dict[str, str]:
    """The runner's environment without the suite's experiment variables, plus what the plan sets (`planned`)."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in VARIABLES or VARIABLES[name].kind in MACHINE_KINDS
    }
    environment.update(planned)
    return environment


def with_defaults(environment: Dict[str, str]) -> Dict[str, str]:
    """
    What the run's configs read: each unset suite variable takes its default, and what the run reads
    of its word vectors files, as in the run (a file it cannot read stops the run, which says why).
    """
    effective = {**environment, **{name: default_value(name) for name in VARIABLES if not environment.get(name)}}
    for name in VARIABLES:
        if name.endswith(WORD_VECTORS_SUFFIX):
            try:
                effective.update(word_vectors_variables(name, effective[name]))
            except ConfigurationError:
                pass
    return effective


def relevant_variables(task: str, planned: Dict[str, str], environment: Dict[str, str]) -> List[str]:
    """
    The variables a run of `task` reads: its own (NER_...), ELMo's, the training part's, DEVICES,
    and the plan's (`planned`).
    """
    prefixes = (task.upper() + "_", "ELMO_", "TRAIN_", "DEVICES")
    return sorted({name for name in set(VARIABLES) | set(environment) if name.startswith(prefixes)} | set(planned))


def recorded_environment(run: RunSpec, environment: Dict[str, str]) -> Dict[str, Dict[str, Any]]:
    """The value of each variable the run reads, whether it is the bundled default, and whether the plan set it."""
    names = relevant_variables(run.task, run.environment, environment)
    return {
        name: {
            "value": environment.get(name, ""),
            "default": name in VARIABLES and environment.get(name, "") == VARIABLES[name].default,
            "from_plan": name in run.environment,
        }
        for name in names
    }


def _changes(recorded: Dict[str, Dict[str, Any]], now: Dict[str, Dict[str, Any]]) -> List[str]:
    """Each input on record that is there now with other bytes, as 'NAME: path (sha256 then → now)'."""
    return [
        f"{name}: {now[name]['path']} (sha256 {then['sha256'][:12]}… then, {now[name]['sha256'][:12]}… now)"
        for name, then in sorted(recorded.items())
        if then.get("sha256") and now.get(name, {}).get("sha256") not in (None, then["sha256"])
    ]


def input_files(environment: Dict[str, str]) -> Dict[str, str]:
    """The variables that name an input (a data file or folder, the biLM), with their values."""
    return {
        name: value
        for name, value in sorted(environment.items())
        if value
        and ((name in VARIABLES and VARIABLES[name].kind == "file") or Path(PROJECT_ROOT, value).exists())
        and not (name in VARIABLES and VARIABLES[name].kind == "directory")
    }


def command(run: RunSpec, run_dir: Path, recover: bool) -> List[str]:
    arguments = [sys.executable, "-m", "allennlp", "train", run.config, "-s", str(run_dir)]
    arguments += ["-o", json.dumps(run.overrides, sort_keys=True), "--file-friendly-logging"]
    return arguments + (["--recover"] if recover else [])


def shell_line(run: RunSpec, run_dir: Path, recover: bool) -> str:
    """The run as one line to paste into a shell at the repository root."""
    variables = " ".join(f"{name}={shlex.quote(value)}" for name, value in sorted(run.environment.items()))
    arguments = command(run, run_dir, recover)[3:]
    return f"{variables} allennlp {' '.join(shlex.quote(argument) for argument in arguments)}".strip()


def error_summary(lines: Iterable[str]) -> str:
    """The last line that names an error (Python's `SomeError: ...`), else the last line printed."""
    lines = [line.strip() for line in lines if line.strip()]
    for line in reversed(lines):
        head = line.split(":", 1)[0]
        if (
            ":" in line
            and " " not in head
            and (head.endswith(("Error", "Exception", "Interrupt")) or head.endswith("Received"))
        ):
            return line
    return lines[-1] if lines else "no output"


def config_identity(run: RunSpec, environment: Dict[str, str], root: Path = PROJECT_ROOT) -> Optional[str]:
    """
    The sha256 of the run's config as `allennlp train` reads it (its overrides and variables applied;
    the config file under `root`: the repository, or its configs as a commit had them),
    where the files it reads are named by their variables (their bytes have sha256s of their own, in
    `inputs`), with no machine's folders (`records.portable`) and without the activation cache's
    folder, which describes the machine: a config file edited since a run trained makes its record
    another run's. None when the config cannot be read (the run itself fails on it, saying why).
    """
    from allennlp.common import Params

    named = {**environment, **{name: f"<{name}>" for name in input_files(environment)}}
    try:
        params = Params.from_file(str(root / run.config), json.dumps(run.overrides), named)
    except Exception:  # noqa: BLE001 - any error: the run says it when it runs
        return None
    config = portable(_without_key(params.as_dict(quiet=True), "cache_directory"))
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode("utf-8")).hexdigest()


def _without_key(value: Any, key: str) -> Any:
    if isinstance(value, dict):
        return {name: _without_key(item, key) for name, item in value.items() if name != key}
    if isinstance(value, list):
        return [_without_key(item, key) for item in value]
    return value


def _config_values(run: RunSpec, environment: Dict[str, str]) -> Dict[str, Any]:
    """For each overridden key, the config's own value and the run's: the report says what was changed."""
    from allennlp.common import Params

    try:
        params = Params.from_file(str(PROJECT_ROOT / run.config), ext_vars=environment).as_flat_dict()
    except Exception as error:  # the run itself fails on it and says why, in its log
        return {"error": f"{type(error).__name__}: {error}"}
    return {key: {"config": params.get(key), "run": value} for key, value in run.overrides.items()}


def _supervise(
    command: List[str],
    environment: Dict[str, str],
    console: "_Console",
    on_tick,
    interrupted_message: str,
    stopping: Optional[threading.Event] = None,
):
    """
    Runs `command` at the repository root, its output into `console`; stops it on Ctrl-C, or when
    `stopping` is set (a run in a worker thread, which Ctrl-C does not reach). Returns (process,
    interrupted, the CPU seconds it used).
    """
    process = subprocess.Popen(
        command,
        cwd=PROJECT_ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        start_new_session=True,
    )
    reader = threading.Thread(target=console.copy, args=(process.stdout,), daemon=True)
    reader.start()
    interrupted = False
    try:
        while (cpu_seconds := _reap(process, timeout=0.0)) is None:
            on_tick()
            if stopping is not None and stopping.is_set():
                raise KeyboardInterrupt
            time.sleep(0.5)
    except KeyboardInterrupt:
        interrupted = True
        logger.warning(interrupted_message)
        cpu_seconds = _stop(process)
    reader.join()
    return process, interrupted, cpu_seconds


def _interrupt(signal_number, frame) -> None:
    raise KeyboardInterrupt


def _stop(process: subprocess.Popen) -> float:
    """
    Ctrl-C for the run's process group (AllenNLP archives the best epoch); killed if it hangs. Returns
    the CPU seconds the process used.
    """
    for stop_signal, timeout in ((signal.SIGINT, 300.0), (signal.SIGKILL, None)):
        try:
            os.killpg(process.pid, stop_signal)
        except ProcessLookupError:
            pass  # the whole group has ended; the process is left to reap
        cpu_seconds = _reap(process, timeout)
        if cpu_seconds is not None:
            return cpu_seconds
    raise AssertionError("unreachable: a process waited for without a timeout has ended")


def _reap(process: subprocess.Popen, timeout: Optional[float]) -> Optional[float]:
    """
    Waits for `process` to end (`timeout` seconds at most; None: for as long as it runs) and reaps it
    with its resource usage, which Popen.wait would drop: returns the CPU seconds (user and system)
    that it and the children it waited for used, or None while it runs. Sets `process.returncode`.
    A process stopped with SIGSTOP uses none, so this is the run's compute, where its wall time is not.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, 0 if deadline is None else os.WNOHANG)
        if pid == process.pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            return usage.ru_utime + usage.ru_stime
        if time.monotonic() >= deadline:
            return None
        time.sleep(min(0.2, max(0.0, deadline - time.monotonic())))


class _Console:
    """The run's console output: kept in memory until `allennlp train` makes the run directory, then appended there."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.tail: Deque[str] = collections.deque(maxlen=LOG_TAIL_LINES)
        self._pending: List[str] = []
        self._file: Optional[TextIO] = None
        self._lock = threading.Lock()

    def copy(self, stream: TextIO) -> None:
        for line in stream:
            self.write(line)

    def write(self, text: str) -> None:
        with self._lock:
            self.tail.extend(text.rstrip("\n").split("\n"))
            self._pending.append(text)
            if self._file is None and self.run_dir.is_dir():
                self._file = open(self.run_dir / CONSOLE_LOG, "a", encoding="utf-8")
            if self._file is not None:
                self._file.writelines(self._pending)
                self._file.flush()
                self._pending.clear()

    def close(self) -> None:
        with self._lock:
            if self._file is None:
                self.run_dir.mkdir(parents=True, exist_ok=True)
                self._file = open(self.run_dir / CONSOLE_LOG, "a", encoding="utf-8")
            self._file.writelines(self._pending)
            self._pending.clear()
            self._file.close()


_CAME_BACK = {state.lower() for state in COME_BACK}  # attempts that ended early through no fault of their own


def _log_tail(path: Path) -> List[str]:
    """The last LOG_TAIL_LINES lines of a log (what a Slurm job appended to console.log)."""
    if not path.is_file():
        return []
    return path.read_text(encoding="utf-8", errors="replace").splitlines()[-LOG_TAIL_LINES:]


def open_slurm_attempt(info: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The run's last attempt if it is a Slurm job whose end no runner has recorded yet."""
    attempts = (info or {}).get("attempts", [])
    last = attempts[-1] if attempts else None
    return last if last is not None and "slurm" in last and "ended" not in last else None


KILLED_ATTEMPT_END = (
    "the last time logged in console.log, or shown passing by its progress bars after that"
    " (the runner was killed before it recorded the end)"
)


def close_unrecorded_attempts(info: Dict[str, Any], run_dir: Path) -> bool:
    """
    Gives each attempt with no recorded end (its runner was killed, so nothing wrote one) the last
    time its part of console.log shows it running, so the wall time summed over attempts counts it;
    returns whether any attempt changed.
    """
    open_attempts = [
        a for a in info.get("attempts", []) if "ended" not in a and a.get("status") != "killed" and "slurm" not in a
    ]
    if not open_attempts or not (run_dir / CONSOLE_LOG).is_file():
        return False
    last_logged = _last_running_time_per_attempt((run_dir / CONSOLE_LOG).read_text(encoding="utf-8", errors="replace"))
    for attempt in open_attempts:
        ended = last_logged.get(attempt["started"])
        started = datetime.fromisoformat(attempt["started"])
        attempt["status"] = "killed"
        if ended is not None and ended >= started:
            attempt.update(
                ended=ended.isoformat(timespec="seconds"),
                seconds=round((ended - started).total_seconds(), 1),
                ended_from=KILLED_ATTEMPT_END,
            )
    return True


def set_aside_superseded_metrics(run_dir: Path, attempts: List[Dict[str, Any]]) -> bool:
    """
    Renames the metrics.json of a run's shorter schedule, where the last of `attempts` to extend it
    has not written its own yet, to metrics_<epochs>_epochs.json, so that a run stopped during its
    extension reads as one to resume, not as finished; returns whether it renamed one.
    """
    extensions = [attempt["extended"] for attempt in attempts if "extended" in attempt]
    metrics = read_json(run_dir / "metrics.json")
    if not extensions or metrics is None or metrics.get("epoch", -1) + 1 > extensions[-1]["from"]:
        return False
    (run_dir / "metrics.json").rename(run_dir / f"metrics_{extensions[-1]['from']}_epochs.json")
    return True


def _last_running_time_per_attempt(console: str) -> Dict[str, datetime]:
    """
    For each attempt's section of a console.log (headed `=== <start> ...`), the last time it is known
    to have been running, in UTC: its last logged line, plus the time its progress bars show passing
    after that line (an epoch, or a biLM's fine-tuning, logs nothing for an hour while its bar runs).
    A bar's advance is measured within the bar (told apart by its text before the first digit), so
    it never goes past what the log shows.
    """
    last: Dict[str, datetime] = {}
    attempt, logged = None, None  # the section being read, and its last logged time so far
    first_shown: Dict[str, int] = {}  # per bar, the elapsed seconds it first showed after that time
    for line in console.replace("\r", "\n").split("\n"):
        if line.startswith("=== "):
            # a run's header is `=== <start> resuming: ...`, a biLM's `=== <start>: ...`
            attempt, logged, first_shown = line[4:].split(" ", 1)[0].rstrip(":"), None, {}
            continue
        match = LOGGED_TIME.match(line)
        if attempt is not None and match:
            # AllenNLP's log lines carry the machine's local time, without a zone.
            logged = datetime.strptime(match.group(1), "%Y-%m-%d %H:%M:%S").astimezone(timezone.utc)
            last[attempt], first_shown = logged, {}
            continue
        elapsed = PROGRESS_ELAPSED.search(line)
        if elapsed and logged is not None:
            hours, minutes, seconds = (int(part or 0) for part in elapsed.groups())
            shown = 3600 * hours + 60 * minutes + seconds
            first = first_shown.setdefault(re.split(r"\d", line, maxsplit=1)[0], shown)
            last[attempt] = max(last[attempt], logged + timedelta(seconds=shown - first))
    return last


def _with_totals(info: Dict[str, Any]) -> Dict[str, Any]:
    """Adds the first start, the last end and the wall and CPU time summed over attempts."""
    attempts = info["attempts"]
    return {
        **info,
        "started": attempts[0]["started"],
        "ended": attempts[-1].get("ended"),
        **_time_totals(attempts),
        "hardware": attempts[-1]["hardware"],
        "git": attempts[-1]["git"],
    }


def _time_totals(attempts: List[Dict[str, Any]]) -> Dict[str, Optional[float]]:
    """
    The wall seconds summed over attempts, and the CPU seconds where every ended attempt measured them,
    else None (a Slurm job's CPU time is Slurm's accounting: `sacct -o TotalCPU`).
    """
    ended = [attempt for attempt in attempts if "ended" in attempt]
    measured = ended and all("cpu_seconds" in attempt for attempt in ended)
    return {
        "wall_seconds": round(sum(attempt.get("seconds", 0.0) for attempt in attempts), 1),
        "cpu_seconds": round(sum(attempt["cpu_seconds"] for attempt in ended), 1) if measured else None,
    }


def _matches(name: str, pattern: str) -> bool:
    from fnmatch import fnmatchcase

    return fnmatchcase(name, pattern) or fnmatchcase(name, f"*{pattern}*")


def _cell(run: RunSpec) -> tuple:
    """What a run's seeds share: they take about as long."""
    return (
        run.task,
        run.config_name,
        run.label,
        run.train_fraction,
        run.overrides.get(EPOCHS_KEY),
        run.overrides.get(BATCHES_KEY),
    )


def _epochs(run: RunSpec) -> float:
    return float(run.overrides.get(EPOCHS_KEY, 1))


def _work(run: RunSpec) -> float:
    """A run's training work, for the estimate: its training fraction times its epochs (the config's if not set)."""
    return run.train_fraction * _epochs(run)


def _fit_work_and_epochs(timed: List[Tuple[float, float, float]]) -> Optional[Tuple[float, float]]:
    """
    Least-squares seconds per unit of work and per epoch from (work, epochs, seconds) of finished
    runs; None unless two shapes of run (work per epoch) give both as positive numbers.
    """
    if len({round(work / epochs, 9) for work, epochs, _ in timed}) < 2:
        return None
    solution = numpy.linalg.lstsq(
        numpy.array([[work, epochs] for work, epochs, _ in timed]),
        numpy.array([seconds for _, _, seconds in timed]),
        rcond=None,
    )[0]
    per_unit, per_epoch = (float(value) for value in solution)
    return (per_unit, per_epoch) if per_unit > 0 and per_epoch > 0 else None


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
