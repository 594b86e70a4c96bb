"""
Data that a plan's runs read and that is made from the shared data first: a plan's `prepare` steps.

    prepare: [
      { command: ['python', 'scripts/split_for_selection.py', shared + '/snli/snli_1.0_dev.jsonl',
                  'runs/data/snli_split'],
        outputs: ['runs/data/snli_split/train_part.jsonl', 'runs/data/snli_split/heldout_part.jsonl'] },
    ]

Before any run, the runner runs each step that one of its runs or biLMs reads (one of the step's
outputs is the value of one of their variables; with `--only`, the runs chosen) and of whose outputs
one is missing, from the repository root, so that a plan runs on a new machine as it does on the one that wrote it. A
leading `python` is the Python that runs the suite. The steps must be deterministic: the records of
runs made elsewhere count here only if the files hold the same bytes (runner.Runner.recorded).
"""

import logging
import shlex
import subprocess
import sys
from typing import Any, Iterable, List, NamedTuple

from allennlp.common.checks import ConfigurationError

from tasks.environment import PROJECT_ROOT

logger = logging.getLogger(__name__)

STEP_KEYS = {"command", "outputs"}


class PrepareStep(NamedTuple):
    command: List[str]  # as the plan writes it
    outputs: List[str]  # the files it writes: absolute, or relative to the repository root

    def missing(self) -> List[str]:
        return [output for output in self.outputs if not (PROJECT_ROOT / output).is_file()]

    def is_read_by(self, environments: Iterable[dict]) -> bool:
        """Whether one of the outputs is the value of a variable in one of `environments`."""
        outputs = {(PROJECT_ROOT / output).resolve() for output in self.outputs}
        return any(
            (PROJECT_ROOT / value).resolve() in outputs
            for environment in environments
            for value in environment.values()
            if value
        )

    def arguments(self) -> List[str]:
        return [sys.executable, *self.command[1:]] if self.command[0] == "python" else list(self.command)

    def shell_line(self) -> str:
        return " ".join(shlex.quote(argument) for argument in self.command)


def read_steps(values: Any, where: str) -> List[PrepareStep]:
    """The `prepare` list of a plan, checked."""
    if not isinstance(values, list):
        raise ConfigurationError(f"{where}: 'prepare' must be a list of {{command, outputs}} objects")
    steps = []
    for index, value in enumerate(values):
        here = f"{where}, prepare {index + 1}"
        if not isinstance(value, dict) or set(value) != STEP_KEYS:
            raise ConfigurationError(f"{here}: expected an object with exactly 'command' and 'outputs', got {value!r}")
        for key in sorted(STEP_KEYS):
            items = value[key]
            if not isinstance(items, list) or not items or not all(isinstance(item, str) and item for item in items):
                raise ConfigurationError(f"{here}: '{key}' must be a non-empty list of strings, got {items!r}")
        steps.append(PrepareStep(list(value["command"]), list(value["outputs"])))
    return steps


def prepare(step: PrepareStep) -> bool:
    """Runs `step` if an output is missing; whether all its outputs are there now (an error is logged if not)."""
    if not step.missing():
        return True
    logger.info("Preparing %s: %s", ", ".join(step.missing()), step.shell_line())
    try:
        finished = subprocess.run(step.arguments(), cwd=PROJECT_ROOT, capture_output=True, text=True)
    except OSError as error:
        logger.error("Could not prepare %s: %s: %s", ", ".join(step.outputs), step.shell_line(), error)
        return False
    for line in (finished.stdout + finished.stderr).splitlines():
        logger.info("    %s", line)
    if finished.returncode != 0:
        logger.error(
            "Could not prepare %s: `%s` ended with exit code %d (its output is above); the runs that read them fail",
            ", ".join(step.outputs),
            step.shell_line(),
            finished.returncode,
        )
        return False
    if step.missing():
        logger.error("`%s` ended well but did not write %s", step.shell_line(), ", ".join(step.missing()))
        return False
    return True
