import hashlib
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tasks.reproduce.commands import check_committed
from tasks.reproduce.provenance import FileIdentities, git_state, uncommitted_run_inputs


def test_threads_sharing_the_hash_cache_leave_it_whole(tmp_path):
    """`--parallel` identifies inputs from several threads at once: every hash is kept, the file stays JSON."""
    files = []
    for number in range(200):
        path = tmp_path / "inputs" / f"{number}.txt"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"input {number}\n" * (number + 1))
        files.append(path)
    cache = tmp_path / "runs" / ".file_hashes.json"
    identities = FileIdentities(cache)
    start = threading.Barrier(4)

    def identify(part):
        start.wait()
        for path in part:
            identities.identify(str(path))

    threads = [threading.Thread(target=identify, args=(files[offset::4],)) for offset in range(4)]
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the threads take turns often, as a busy runner's may
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(previous)
    kept = json.loads(cache.read_text())
    assert len(kept) == len(files)
    assert FileIdentities(cache).identify(str(files[7])) == identities.identify(str(files[7]))


def test_a_damaged_hash_cache_is_computed_again(tmp_path, caplog):
    """A cache cut short (a machine lost mid-write) does not stop the runner: hashes are computed again."""
    source = tmp_path / "weights.hdf5"
    source.write_bytes(b"weights")
    cache = tmp_path / ".file_hashes.json"
    FileIdentities(cache).identify(str(source))
    cache.write_text(cache.read_text()[:-5] + "}\n}\n")
    identity = FileIdentities(cache).identify(str(source))
    assert identity["sha256"] == hashlib.sha256(b"weights").hexdigest()
    assert ".file_hashes.json cannot be read" in caplog.text
    json.loads(cache.read_text())  # written whole again


def _repository(root: Path) -> Path:
    """A git repository with one committed file of code and one of docs."""
    (root / "tasks").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "tasks" / "model.py").write_text("DROPOUT = 0.5\n")
    (root / "docs" / "page.md").write_text("A page.\n")
    for command in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(["git", *command], cwd=root, check=True)
    return root


def test_what_a_run_reads_uncommitted_is_named_and_its_patch_recorded(tmp_path):
    root = _repository(tmp_path / "repo")
    assert uncommitted_run_inputs(root) == [] and "uncommitted" not in git_state(root)
    (root / "docs" / "page.md").write_text("A page, edited.\n")  # not read by any run
    assert uncommitted_run_inputs(root) == [] and git_state(root)["dirty"]
    (root / "tasks" / "model.py").write_text("DROPOUT = 0.2\n")
    (root / "configs").mkdir()
    (root / "configs" / "new.jsonnet").write_text("{}\n")
    assert uncommitted_run_inputs(root) == ["configs/new.jsonnet", "tasks/model.py"]
    uncommitted = git_state(root)["uncommitted"]
    assert uncommitted["files"] == ["configs/new.jsonnet", "tasks/model.py"]
    assert "-DROPOUT = 0.5\n+DROPOUT = 0.2" in uncommitted["patch"] and "page.md" not in uncommitted["patch"]
    assert uncommitted["patch_sha256"] == hashlib.sha256(uncommitted["patch"].encode()).hexdigest()
    assert uncommitted["untracked_sha256"] == {"configs/new.jsonnet": hashlib.sha256(b"{}\n").hexdigest()}

    with pytest.raises(SystemExit, match=r"2 file\(s\) that runs read differ .*configs/new.jsonnet, tasks/model.py"):
        check_committed(root, allowed=False)
    check_committed(root, allowed=True)  # trains, recording the patch
