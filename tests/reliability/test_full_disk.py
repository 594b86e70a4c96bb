"""
A disk that fills while the suite writes: each write names its file or folder and the cause, and
leaves nothing half-written behind. On a real full file system: a 1 MiB tmpfs the test mounts (as
root, as CI runs; skipped, saying so, where mounting is not allowed).
"""

import errno
import json
import subprocess

import pytest
import torch

from allennlp_compat import atomic_outputs
from allennlp_compat.checkpointer import _save_whole
from tasks.elmo.cache import ActivationCache


@pytest.fixture
def small_disk(tmp_path):
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({mounted.stderr.decode().strip()}): needs root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], check=True)  # lazy: once what is open there is closed


def test_a_checkpoint_on_a_full_disk_names_the_folder_and_leaves_nothing(small_disk):
    path = small_disk / "training_state_e1_b0.th"
    with pytest.raises(OSError, match=f"no space left on the device of {small_disk} while writing the checkpoint file"):
        _save_whole({"weights": torch.zeros(1_000_000)}, str(path))  # 4 MB
    assert list(small_disk.iterdir()) == []


def test_metrics_on_a_full_disk_name_the_file_and_keep_the_old_one(small_disk):
    metrics = small_disk / "metrics.json"
    atomic_outputs.dump_metrics(str(metrics), {"best_epoch": 1})
    with pytest.raises(OSError, match=f"cannot write {metrics} \\(No space left on device\\)") as raised:
        atomic_outputs.dump_metrics(str(metrics), {"padding": "x" * 2_000_000})
    assert raised.value.errno == errno.ENOSPC
    assert json.loads(metrics.read_text()) == {"best_epoch": 1}
    assert sorted(path.name for path in small_disk.iterdir()) == ["metrics.json"]


def test_a_cache_on_a_full_disk_names_its_folder(small_disk):
    cache = ActivationCache(str(small_disk), "f" * 64, num_layers=3, dim=256, dtype="float32")
    lengths = [200] * 4  # 4 sentences of 200 tokens: 2.5 MB of float32 layers
    computed = {"activations": [torch.ones(4, 202, 256) for _ in range(3)]}
    with pytest.raises(OSError, match=f"ELMo activation cache {cache.path}: cannot store activations"):
        cache._store([bytes([k]) for k in range(4)], lengths, computed)
    assert len(cache) == 0  # nothing indexed
    cache._database().close()
