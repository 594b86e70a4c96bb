"""
A fault for `allennlp train`, loaded with `--include-package tests.reliability.faults`: the process kills itself
with SIGKILL (as a power cut or the OOM killer would: nothing flushed, no handler run) at the point
the environment variable `KILL_AT` names, the N-th time it is reached:

- `cache_fill:N`  while storing the N-th batch of activations in the ELMo cache, after part of an
  entry's bytes are written and before the index knows of them;
- `batch:N`       in the N-th training or validation batch;
- `checkpoint:N`  in the middle of the N-th file a checkpoint writes;
- `archive:N`     after the N-th member of `model.tar.gz` is added (to its temporary `.partial` file).

Unset, it does nothing. Used by tests/reliability/test_fault_injection.py only.
"""

import io
import os
import signal
import tarfile
from collections import Counter

import torch
from allennlp.training.gradient_descent_trainer import GradientDescentTrainer

from tasks.elmo.cache import ActivationCache

POINT, _, WHEN = os.environ.get("KILL_AT", "").partition(":")
reached = Counter()


def _at(point: str) -> bool:
    """Whether this is the moment to die: `point` reached for the N-th time."""
    if point != POINT:
        return False
    reached[point] += 1
    return reached[point] == int(WHEN)


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _store(self, keys, lengths, computed):
    if _at("cache_fill"):
        with open(self._data_path, "ab") as data:
            data.write(b"\x3c" * 7)  # part of an entry, odd-sized: the write never finished
        _die()
    return _store.original(self, keys, lengths, computed)


def _batch_outputs(self, batch, for_training):
    if _at("batch"):
        _die()
    return _batch_outputs.original(self, batch, for_training)


def _save(value, target, *args, **kwargs):
    if isinstance(target, (str, os.PathLike)) and _at("checkpoint"):
        buffer = io.BytesIO()
        _save.original(value, buffer, *args, **kwargs)
        with open(target, "wb") as output:
            output.write(buffer.getvalue()[: len(buffer.getvalue()) // 2])
        _die()
    return _save.original(value, target, *args, **kwargs)


def _add(self, *args, **kwargs):
    _add.original(self, *args, **kwargs)
    if self.name and "model.tar.gz" in str(self.name) and _at("archive"):
        self.fileobj.flush()
        _die()


for owner, name, replacement in [
    (ActivationCache, "_store", _store),
    (GradientDescentTrainer, "batch_outputs", _batch_outputs),
    (torch, "save", _save),
    (tarfile.TarFile, "add", _add),
]:
    replacement.original = getattr(owner, name)
    setattr(owner, name, replacement)
