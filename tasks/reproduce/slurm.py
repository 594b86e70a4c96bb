"""
A plan's runs as Slurm jobs, through submitit (the library fairseq and Hydra's Slurm launcher use):
`allennlp reproduce PLAN --executor slurm`. Each run is one job running the same `allennlp train`
command the local executor runs, at the repository root of a folder the cluster shares; the runner
submits it, watches it (`sacct`, through submitit) and records it as it does a local run, so the
runs folder, the records and the report are the same whichever executor trained them.

What a job's end means to the runner:

- finished (its command exited 0): the run is finished, or failed (another exit code), as locally;
- `TIMEOUT`, `PREEMPTED`, `NODE_FAIL`: the job ended early through no fault of its own; it is
  submitted again with `--recover` (from its last epoch's checkpoint), up to `max_resubmits` times,
  each submission an attempt of its own in `run_info.json`;
- `CANCELLED` (`scancel`): recorded with the reason and its log's tail, not submitted again; the
  next `allennlp reproduce` resumes it;
- `FAILED`, `OUT_OF_MEMORY`: failed, with the state and the log's tail.

The job ids are in each attempt (`run_info.json`: `attempts[].slurm`), so a runner started again on
the same folder (after Ctrl-C, or a lost login node) waits on jobs still queued or running instead
of submitting them twice. Ctrl-C stops the watching, never the jobs.
"""

import logging
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional

logger = logging.getLogger(__name__)

ALIVE = {"PENDING", "RUNNING", "REQUEUED", "CONFIGURING", "COMPLETING", "SUSPENDED", "RESIZING", "REQUEUE_HOLD"}
COME_BACK = {"TIMEOUT", "PREEMPTED", "NODE_FAIL", "BOOT_FAIL", "DEADLINE"}
# What a plan's `slurm` block and `allennlp reproduce --slurm-*` may set, with their defaults.
RESOURCE_DEFAULTS = {"gpus": 0, "cpus": 4, "mem_gb": 16, "time_min": 24 * 60}


class Resources(NamedTuple):
    gpus: int
    cpus: int
    mem_gb: int
    time_min: int


class SlurmSettings(NamedTuple):
    partition: Optional[str] = None
    account: Optional[str] = None
    resources: Dict[str, Resources] = {}  # by task; "default" for the tasks not named
    max_resubmits: int = 3
    poll_seconds: float = 10.0

    def resources_of(self, task: str) -> Resources:
        return self.resources.get(task) or self.resources.get("default") or Resources(**RESOURCE_DEFAULTS)


def settings_from(plan_block: Dict[str, Any], where: str, **given: Any) -> SlurmSettings:
    """The plan's `slurm` block ({partition, account, max_resubmits, resources: {default: {...}, <task>: {...}}}),
    with what the command line gives (not None) taking precedence; unknown keys are refused."""
    from allennlp.common.checks import ConfigurationError

    known = {"partition", "account", "max_resubmits", "resources"}
    if set(plan_block) - known:
        raise ConfigurationError(f"{where}: unknown key(s) {sorted(set(plan_block) - known)} in 'slurm'")
    default = {**RESOURCE_DEFAULTS, **plan_block.get("resources", {}).get("default", {})}
    if given.get("time_min") is not None:
        default["time_min"] = given["time_min"]
    resources = {}
    for task, values in {**plan_block.get("resources", {}), "default": {}}.items():
        unknown = set(values) - set(RESOURCE_DEFAULTS)
        if unknown:
            raise ConfigurationError(f"{where}: slurm resources for {task}: unknown key(s) {sorted(unknown)}")
        merged = {**default, **values}
        if task != "default" and given.get("time_min") is not None:
            merged["time_min"] = given["time_min"]
        resources[task] = Resources(**{key: int(merged[key]) for key in RESOURCE_DEFAULTS})
    return SlurmSettings(
        partition=given.get("partition") or plan_block.get("partition"),
        account=given.get("account") or plan_block.get("account"),
        resources=resources,
        max_resubmits=int(
            given["max_resubmits"] if given.get("max_resubmits") is not None else plan_block.get("max_resubmits", 3)
        ),
        poll_seconds=float(given.get("poll_seconds") or 10.0),
    )


def run_logged(command: List[str], environment: Dict[str, str], cwd: str, log: str) -> int:
    """
    What each job runs on its node: `command` at `cwd`, its output appended to `log`; its exit code.
    SIGTERM and SIGINT (Slurm's at the time limit or a preemption, scancel's) are passed on to the
    command: the training goes on to the limit, and the runner, not submitit, submits it again with
    --recover from its last checkpoint.
    """
    with open(log, "ab") as output:
        process = subprocess.Popen(command, cwd=cwd, env=environment, stdout=output, stderr=subprocess.STDOUT)

        def forward(number, _frame):
            process.send_signal(number)

        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, forward)
        return process.wait()


class JobEnd(NamedTuple):
    state: str  # Slurm's, e.g. COMPLETED, TIMEOUT, CANCELLED
    exit_code: Optional[int]  # the command's, where it ended on its own
    job: Dict[str, Any]  # what the attempt records: job_id, state, node, partition, submitted, reason


class SlurmExecutor:
    """Submits commands as Slurm jobs (submitit) and waits for them; keeps submitit's files under `folder`."""

    def __init__(self, settings: SlurmSettings, folder: Path) -> None:
        import submitit

        self.settings, self.folder = settings, folder
        self._submitit = submitit

    def submit(
        self,
        name: str,
        command: List[str],
        environment: Dict[str, str],
        log: Path,
        task: str,
        dependency: Optional[str] = None,
    ) -> Dict[str, Any]:
        """Submits `command` as one job; returns what the attempt records of it (its job id first)."""
        resources = self.settings.resources_of(task)
        executor = self._submitit.AutoExecutor(folder=str(self.folder / name / "%j"), cluster="slurm")
        # Ended early (time limit, preemption), a job is not requeued by Slurm (it would train again from the
        # start into a folder that holds a checkpoint): the runner submits it again with --recover. submitit's
        # warning before the time limit (SIGUSR2, whose default action kills) is sent as SIGURG, which every
        # process ignores unless it asks for it: Slurm may send it up to a minute early, and a job starting
        # under load (submitit unpickling the function imports the suite) was killed by it before any handler.
        additional: Dict[str, Any] = {"no-requeue": True, "signal": "URG@60"}
        if dependency:
            additional.update({"dependency": f"afterok:{dependency}", "kill-on-invalid-dep": "yes"})
        executor.update_parameters(
            name=name,
            timeout_min=resources.time_min,
            cpus_per_task=resources.cpus,
            mem_gb=resources.mem_gb,
            gpus_per_node=resources.gpus or None,
            slurm_partition=self.settings.partition,
            slurm_account=self.settings.account,
            slurm_additional_parameters=additional,
        )
        job_environment = dict(environment)
        job_environment.setdefault("OMP_NUM_THREADS", str(resources.cpus))
        if resources.gpus and "DEVICES" not in job_environment:
            job_environment["DEVICES"] = ",".join(str(index) for index in range(resources.gpus))
        log.parent.mkdir(parents=True, exist_ok=True)
        job = executor.submit(run_logged, command, job_environment, os.getcwd(), str(log))
        described = {
            "job_id": job.job_id,
            "partition": self.settings.partition,
            "resources": resources._asdict(),
            "submitted": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        if dependency:
            described["after"] = dependency
        logger.info("%s: Slurm job %s (%s)", name, job.job_id, _brief(resources))
        return described

    def state(self, job_id: str, name: str) -> str:
        job = self._submitit.SlurmJob(folder=str(self.folder / name / "%j"), job_id=job_id)
        job.watcher.update()
        return job.state.split(" ")[0] or "UNKNOWN"

    def wait(self, job_id: str, name: str, stopping: Optional[threading.Event] = None, on_tick=None) -> JobEnd:
        """Waits for the job to end; Ctrl-C (or `stopping`) raises KeyboardInterrupt, leaving the job to run."""
        job = self._submitit.SlurmJob(folder=str(self.folder / name / "%j"), job_id=job_id)
        while True:
            job.watcher.update()
            info = job.get_info(mode="cache")
            state = (info.get("State") or "UNKNOWN").split(" ")[0]
            if state not in ALIVE and state != "UNKNOWN":
                break
            if on_tick is not None:
                on_tick()
            if stopping is not None and stopping.is_set():
                raise KeyboardInterrupt
            time.sleep(self.settings.poll_seconds)
        exit_code = None
        if state == "COMPLETED":
            try:
                exit_code = int(job.result())
            except Exception as error:  # noqa: BLE001 - the job's own failure, reported below
                logger.error("%s: Slurm job %s completed without a result: %s", name, job_id, error)
        reason = " ".join((info.get("State") or "").split(" ")[1:])  # "CANCELLED by 0": who
        described = {"job_id": job_id, "state": state, "node": info.get("NodeList")}
        if reason:
            described["reason"] = reason
        return JobEnd(state, exit_code, described)

    def cancel(self, job_ids: List[str]) -> None:
        if job_ids:
            subprocess.run(["scancel", *job_ids], check=False)


def _brief(resources: Resources) -> str:
    gpus = f"{resources.gpus} GPU, " if resources.gpus else ""
    return f"{gpus}{resources.cpus} CPUs, {resources.mem_gb} GB, {resources.time_min} min"
