"""
A fault for `allennlp train`, loaded with `--include-package tests.reliability.faults`: the process kills itself
with SIGKILL (as a power cut or the OOM killer would: nothing flushed, no handler run) at the point
the environment variable `KILL_AT` names, the N-th time it is reached:

- `cache_fill:N`  while storing the N-th batch of activations in the ELMo cache, after part of an
  entry's bytes are written and before the index knows of them;
- `batch:N`       in the N-th training or validation batch;
- `checkpoint:N`  in the middle of the N-th file a checkpoint writes;
- `epoch_end:N`   just after the N-th epoch's checkpoint is whole, before the trainer goes on (where
                  it records that epoch's weights as the best);
- `archive:N`     after the N-th member of `model.tar.gz` is added (to its temporary `.partial` file).

Unset, it does nothing. Used by tests/reliability/test_fault_injection.py only.
"""

import os
import signal
import tarfile
from collections import Counter

from allennlp.training.gradient_descent_trainer import GradientDescentTrainer

from allennlp_compat import checkpointer
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


def _write_file(path, data):
    if _at("checkpoint"):
        with open(path, "wb") as output:
            output.write(data[: len(data) // 2])
        _die()
    return _write_file.original(path, data)


def _save_checkpoint(self, trainer):
    _save_checkpoint.original(self, trainer)
    if trainer._batches_in_epoch_completed == 0 and _at("epoch_end"):
        _die()


def _add(self, *args, **kwargs):
    _add.original(self, *args, **kwargs)
    if self.name and "model.tar.gz" in str(self.name) and _at("archive"):
        self.fileobj.flush()
        _die()


for owner, name, replacement in [
    (ActivationCache, "_store", _store),
    (GradientDescentTrainer, "batch_outputs", _batch_outputs),
    (checkpointer, "_write_file", _write_file),
    (checkpointer.WholeCheckpointer, "save_checkpoint", _save_checkpoint),
    (tarfile.TarFile, "add", _add),
]:
    replacement.original = getattr(owner, name)
    setattr(owner, name, replacement)
