"""Where the tests find the repository, the shared data and the `allennlp` command, and how they run it."""

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterator, List

from allennlp.commands.subcommand import Subcommand

ROOT = Path(__file__).resolve().parents[2]
# The open benchmark data some tests read when it is there (they skip, saying so, when it is not).
SHARED_DATA = Path(os.environ.get("SHARED_DATA_DIR", ROOT.parent / "shared" / "data"))
ALLENNLP = str(Path(sys.executable).parent / "allennlp")


def allennlp(*arguments: str, environment, check: bool = True, timeout: int = 900, cwd: Path = ROOT):
    """
    `allennlp ARGUMENTS` as a user runs it, from the repository root by default; with `check`, a
    failure fails the test.
    """
    result = subprocess.run(
        [ALLENNLP, *arguments], cwd=cwd, env=environment, capture_output=True, text=True, timeout=timeout
    )
    if check and result.returncode != 0:
        raise AssertionError(f"allennlp {' '.join(arguments)} failed:\n{result.stderr[-3000:]}")
    return result


def evaluate(archive: Path, data: Path, *options: str, environment) -> Dict[str, Any]:
    """
    The metrics `allennlp evaluate ARCHIVE DATA OPTIONS` writes to its --output-file, run in this
    process through the command's own parser, with `environment` as the process's environment for
    the while (the start-up of a subprocess, some 8 s, would check nothing more).
    """
    with tempfile.TemporaryDirectory() as directory, _running_with(environment):
        output = Path(directory) / "metrics.json"
        run_subcommand("evaluate", str(archive), str(data), *options, "--output-file", str(output))
        return json.loads(output.read_text(encoding="utf-8"))


def predict(archive: Path, inputs: Path, *options: str, environment) -> List[Any]:
    """
    The lines `allennlp predict ARCHIVE INPUTS OPTIONS --silent` writes to its --output-file, each read
    as JSON; in this process, as `evaluate`.
    """
    with tempfile.TemporaryDirectory() as directory, _running_with(environment):
        output = Path(directory) / "predictions.jsonl"
        run_subcommand("predict", str(archive), str(inputs), *options, "--output-file", str(output), "--silent")
        return [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]


@contextlib.contextmanager
def _running_with(environment: Dict[str, str], cwd: Path = ROOT) -> Iterator[None]:
    """This process with `environment` as its whole environment and `cwd` as its directory, as a command's would be."""
    saved, directory = dict(os.environ), os.getcwd()
    os.environ.clear()
    os.environ.update(environment)
    os.chdir(cwd)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
        os.chdir(directory)


def run_subcommand(name: str, *arguments: str) -> None:
    """Parses `arguments` with the registered subcommand's own parser and runs it, in this process."""
    parser = argparse.ArgumentParser()
    Subcommand.by_name(name)().add_subparser(parser.add_subparsers())
    parsed = parser.parse_args([name, *arguments])
    parsed.func(parsed)
