"""`allennlp demo` started as a user starts it, on a free port, and stopped when the test is done."""

import contextlib
import json
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Dict, Iterator, NamedTuple, Optional, Tuple

from tests.helpers.repository import ALLENNLP, ROOT


class Demo(NamedTuple):
    url: str
    process: subprocess.Popen


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def running_demo(
    archives: Dict[str, Path], environment: Dict[str, str], *options: str, timeout: float = 300
) -> Iterator[Demo]:
    """Serves `archives` ({tab name: archive}); waits until /api/models answers, at most `timeout` seconds."""
    port = free_port()
    arguments = [f"--archive={name}={path}" for name, path in archives.items()]
    log = tempfile.TemporaryFile("w+")
    process = subprocess.Popen(
        [ALLENNLP, "demo", *arguments, "--port", str(port), *options],
        cwd=ROOT,
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while get_json(f"{url}/api/models")[0] != 200:
            if process.poll() is not None:
                log.seek(0)
                raise AssertionError(f"allennlp demo exited with {process.returncode}:\n{log.read()[-3000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"allennlp demo did not answer /api/models within {timeout:.0f} s")
            time.sleep(0.2)
        yield Demo(url, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def get_json(url: str) -> Tuple[int, Optional[dict]]:
    """(status, JSON body) of a GET; (0, None) when nothing listens yet."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
    except (urllib.error.URLError, ConnectionError):
        return 0, None
