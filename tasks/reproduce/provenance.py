"""Where and from what a run was made: the machine, the commit, and the identity of every input file."""

import hashlib
import json
import logging
import os
import platform
import subprocess
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional

import torch

from tasks.common.files import file_sha256
from tasks.environment import PROJECT_ROOT
from tasks.reproduce.layout import write_json

logger = logging.getLogger(__name__)


def hardware() -> Dict[str, Any]:
    """CPU model and cores, memory, GPUs (through torch.cuda), and the load when the run started."""
    description: Dict[str, Any] = {
        "host": platform.node(),
        "cpu": _cpu_model(),
        "cpu_cores": os.cpu_count(),
        "cpu_cores_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "memory_gb": _memory_gb(),
        "load_average_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
        "gpus": [torch.cuda.get_device_name(index) for index in range(torch.cuda.device_count())]
        if torch.cuda.is_available()
        else [],
        "python": platform.python_version(),
        "torch": torch.__version__,
    }
    return description


def _cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def _memory_gb() -> Optional[float]:
    meminfo = Path("/proc/meminfo")
    if meminfo.is_file():
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    return None


# What a run reads besides its data: the suite's code, its configs and plans, the scripts that prepare
# data, the bundled biLM and samples, and what installs the packages.
RUN_INPUTS = (
    "allennlp_compat",
    "data_readers",
    "tasks",
    "configs",
    "plans",
    "scripts",
    "bundled",
    ".allennlp_plugins",
    "pyproject.toml",
    "requirements.txt",
    "requirements-allennlp.txt",
    "constraints.txt",
)


def _git(root: Path, *arguments: str) -> Optional[str]:
    try:
        result = subprocess.run(["git", *arguments], cwd=root, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout if result.returncode == 0 else None


def uncommitted_run_inputs(root: Path = PROJECT_ROOT) -> List[str]:
    """The files a run reads that differ from the commit checked out: changed, added or not yet tracked."""
    status = _git(root, "status", "--porcelain", "--untracked-files=all", "--", *RUN_INPUTS)
    return sorted(line[3:] for line in (status or "").splitlines() if line.strip())


def git_state(root: Path = PROJECT_ROOT) -> Dict[str, Any]:
    """
    The commit checked out, whether tracked files differ from it, and, where what a run reads does
    (RUN_INPUTS), those files, the patch of the tracked ones (with its sha256) and the sha256 of each
    untracked one: enough to say exactly what trained, not only that the tree was dirty.
    """
    commit = _git(root, "rev-parse", "HEAD")
    if commit is None:
        return {"commit": None, "dirty": None}
    state: Dict[str, Any] = {
        "commit": commit.strip(),
        "dirty": bool((_git(root, "status", "--porcelain", "--untracked-files=no") or "").strip()),
        "branch": (_git(root, "rev-parse", "--abbrev-ref", "HEAD") or "").strip() or None,
    }
    changed = uncommitted_run_inputs(root)
    if changed:
        patch = _git(root, "diff", "HEAD", "--", *RUN_INPUTS) or ""
        tracked = set((_git(root, "ls-files", "--", *RUN_INPUTS) or "").splitlines())
        state["uncommitted"] = {
            "files": changed,
            "patch": patch,
            "patch_sha256": hashlib.sha256(patch.encode("utf-8")).hexdigest(),
            "untracked_sha256": {
                name: file_sha256(root / name) for name in changed if name not in tracked and (root / name).is_file()
            },
        }
    return state


class FileIdentities:
    """
    sha256, size and modification time of input files. Hashes are kept in `cache_path` under
    (path, size, mtime), so a weight file of hundreds of megabytes is read once, not once per run.
    Safe to share between the threads of `--parallel`: the cache is updated and written whole under
    a lock. A cache file that cannot be read is only a cache: its hashes are computed again.
    """

    def __init__(self, cache_path: Path) -> None:
        self.cache_path = cache_path
        self._lock = threading.Lock()
        try:
            self._cache: Dict[str, str] = json.loads(cache_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            self._cache = {}
        except ValueError as error:  # JSON or UTF-8
            logger.warning("%s cannot be read (%s): its file hashes are computed again", cache_path, error)
            self._cache = {}

    def identify(self, path: str) -> Dict[str, Any]:
        """A file's identity; a folder's (e.g. CoNLL-2012's) is a hash over its files' paths and hashes."""
        file = Path(path)
        if file.is_dir():
            members = sorted(member for member in file.rglob("*") if member.is_file())
            digest = hashlib.sha256()
            for member in members:
                digest.update(f"{member.relative_to(file)}\0{self.identify(str(member))['sha256']}\n".encode())
            size = sum(member.stat().st_size for member in members)
            return {
                "path": str(file.resolve()),
                "exists": True,
                "files": len(members),
                "bytes": size,
                "sha256": digest.hexdigest(),
            }
        if not file.is_file():
            return {"path": path, "exists": False}
        status = file.stat()
        key = f"{file.resolve()}|{status.st_size}|{status.st_mtime_ns}"
        with self._lock:
            if key not in self._cache:
                self._cache[key] = file_sha256(file)
                self.cache_path.parent.mkdir(parents=True, exist_ok=True)
                write_json(self.cache_path, self._cache, indent=1)
            sha256 = self._cache[key]
        return {
            "path": str(file.resolve()),
            "exists": True,
            "bytes": status.st_size,
            "modified": status.st_mtime,
            "sha256": sha256,
        }


def bilm_architecture(options_path: str) -> Optional[Dict[str, Any]]:
    """The sizes in a biLM's options.json that say which biLM it is (None if it cannot be read)."""
    try:
        options = json.loads(Path(options_path).read_text())
        return {
            "lstm_dim": options["lstm"]["dim"],
            "projection_dim": options["lstm"]["projection_dim"],
            "n_layers": options["lstm"]["n_layers"],
            "n_filters": sum(count for _, count in options["char_cnn"]["filters"]),
            "n_highway": options["char_cnn"]["n_highway"],
        }
    except (OSError, ValueError, KeyError, TypeError):
        return None
