"""
Makes `allennlp train --recover` continue the run it resumes: from a whole checkpoint, with the
best epoch's weights, the same random numbers and the whole training's duration.

AllenNLP 2.10.1 falls short in four ways, each mended here:

1. **Half-written checkpoints.** It writes `model_state_e<N>_b<M>.th` and then
   `training_state_e<N>_b<M>.th` straight into their final names, and recovers from the newest model
   state it finds: a run stopped while it writes (Ctrl-C, a `kill`, a full disk) leaves a truncated or
   unpaired newest file, and `--recover` fails although the previous checkpoint is intact. Our
   `Checkpointer` (registered as the default, same config keys) writes the training state first and
   the model state last, each under a temporary name renamed when complete. A disk that fills on the
   way stops the run naming the folder and the cause, and leaves no temporary file behind.
2. **Test scores of the wrong weights.** The trainer saves an epoch's checkpoint before it records
   that epoch's weights as the best (`best.th`), so the first epoch's checkpoint says "no best model
   yet". A run resumed from it whose first epoch stays the best scored the test set with its last
   epoch's weights, while its archive held the first epoch's. Our checkpointer writes `best.th` first
   when the epoch is the best so far (the moving average's weights where the trainer keeps one), so a
   checkpoint names `best.th` exactly when that file holds its best epoch.
3. **Other random numbers after a resume.** The training state held no random-number state, so every
   epoch after a resume drew other dropout masks and data orders than the uninterrupted run. The
   states of Python's, numpy's and torch's generators (CUDA's too) go into the training state, and a
   resumed run takes them back once it has caught up with the checkpoint's epochs (whose data
   loading AllenNLP replays), before its first new epoch or its test.
4. **Half a duration.** `training_duration` counted only the time since the resume. The training
   state keeps the seconds trained so far, and `metrics.json` and each `metrics_epoch_<N>.json` give
   the whole training's.

And a run stopped after its last epoch's checkpoint (while it writes `model.tar.gz`, say) finishes
under `--recover` with only the `best_*` metrics: the trainer catches up through the checkpointed
epochs without computing their metrics, so `metrics.json` lacks the last epoch's `training_*` and
`validation_*` values. We fill what is missing from the last epoch's own `metrics_epoch_<N>.json`.
"""

import datetime
import errno
import io
import json
import os
import random
import re
import shutil
import time
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

import numpy
import torch
from allennlp.common import util as common_util
from allennlp.training.checkpointer import Checkpointer
from allennlp.training.gradient_descent_trainer import GradientDescentTrainer
from allennlp.training.trainer import Trainer, TrainerCheckpoint

BEST_WEIGHTS = "best.th"


@Checkpointer.register("default", exist_ok=True)
class WholeCheckpointer(Checkpointer):
    """AllenNLP's `Checkpointer`, whose checkpoints appear whole, after the best weights they name."""

    def save_checkpoint(self, trainer: Trainer) -> None:
        state = trainer.get_checkpoint_state() if self._serialization_dir is not None else None
        if state is not None:
            epochs = state.trainer_state["epochs_completed"]
            batches = state.trainer_state["batches_in_epoch_completed"]
            if batches == 0 and _epoch_is_best_so_far(trainer):
                best = os.path.join(self._serialization_dir, BEST_WEIGHTS)
                _save_whole(_best_weights(trainer, state.model_state), best, replace=True)
                state.trainer_state["best_model_filename"] = best
            if isinstance(trainer, GradientDescentTrainer):
                seconds = _seconds_trained(trainer)
                state.trainer_state["training_seconds"] = seconds
                state.trainer_state["random_states"] = _random_states()
                if batches == 0:
                    _whole_duration_in_epoch_metrics(self._serialization_dir, epochs - 1, seconds)
            _save_whole(state.trainer_state, self._training_state_path(epochs, batches))
            _save_whole(state.model_state, self._model_state_path(epochs, batches))
        # Finds both files written, so writes nothing more; keeps its bookkeeping and pruning.
        super().save_checkpoint(trainer)

    def load_checkpoint(self) -> Optional[TrainerCheckpoint]:
        checkpoint = super().load_checkpoint()
        self.restored_training_state = checkpoint.trainer_state if checkpoint is not None else None
        return checkpoint


def _epoch_is_best_so_far(trainer: Trainer) -> bool:
    """
    Whether the epoch the trainer has just validated is its best, and its weights go to `best.th` (a
    trainer that does not validate, or whose workers each keep a shard of the weights, writes its own).
    """
    tracker = getattr(trainer, "_metric_tracker", None)
    validated = (
        getattr(trainer, "_should_validate_this_epoch", False)
        and getattr(trainer, "_validation_data_loader", None) is not None
    )
    wrapped = getattr(trainer, "_ddp_wrapped_model", None)
    sharded = wrapped is not None and wrapped.is_sharded
    return validated and tracker is not None and not sharded and tracker.is_best_so_far()


def _best_weights(trainer: Trainer, model_state: Dict[str, Any]) -> Dict[str, Any]:
    """The weights the trainer archives for this epoch: the moving average's, where it keeps one."""
    average = getattr(trainer, "_moving_average", None)
    if average is None:
        return model_state
    average.assign_average_value()
    try:
        return {name: value.detach().clone() for name, value in trainer.model.state_dict().items()}
    finally:
        average.restore()


def _save_whole(value: Any, path: str, replace: bool = False) -> None:
    """
    `torch.save(value, path)`, the file appearing only when complete. Serialised in memory first, so
    that a full disk is an `OSError` naming the folder, not torch's "unexpected pos" from its zip writer.
    """
    if os.path.isfile(path) and not replace:
        return
    buffer = io.BytesIO()
    torch.save(value, buffer)
    partial = path + ".partial"  # not a name the checkpointer looks for
    try:
        _write_file(partial, buffer.getbuffer())
    except BaseException as error:
        Path(partial).unlink(missing_ok=True)  # nothing half-written stays on a full disk
        if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
            folder = os.path.dirname(os.path.abspath(path))
            raise OSError(
                error.errno,
                f"no space left on the device of {folder} while writing the checkpoint file "
                f"{os.path.basename(path)} ({buffer.getbuffer().nbytes:,} bytes; "
                f"{shutil.disk_usage(folder).free:,} bytes free there). Free some space and resume with "
                "--recover: the checkpoint before this one is whole.",
            ) from error
        raise
    os.replace(partial, path)


def _write_file(path: str, data: memoryview) -> None:
    with open(path, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())


def _random_states() -> Dict[str, Any]:
    """Every generator a training draws from, in types `torch.load(weights_only=True)` reads back."""
    kind, keys, position, has_gauss, cached_gauss = numpy.random.get_state()
    return {
        "python": random.getstate(),
        "numpy": {
            "kind": kind,
            "keys": torch.from_numpy(keys.astype(numpy.int64)),
            "position": int(position),
            "has_gauss": int(has_gauss),
            "cached_gauss": float(cached_gauss),
        },
        "torch": torch.get_rng_state(),
        "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],
    }


def _restore_random_states(states: Dict[str, Any]) -> None:
    random.setstate(_as_python_state(states["python"]))
    numpy_state = states["numpy"]
    numpy.random.set_state(
        (
            numpy_state["kind"],
            numpy_state["keys"].numpy().astype(numpy.uint32),
            numpy_state["position"],
            numpy_state["has_gauss"],
            numpy_state["cached_gauss"],
        )
    )
    torch.set_rng_state(states["torch"])
    if states["cuda"] and torch.cuda.is_available() and len(states["cuda"]) == torch.cuda.device_count():
        torch.cuda.set_rng_state_all(states["cuda"])


def _as_python_state(state: Any) -> Tuple:
    """`random.setstate` wants tuples where a round trip through torch.save may give lists."""
    version, internal, gauss = state
    return version, tuple(internal), gauss


def _seconds_trained(trainer: GradientDescentTrainer) -> float:
    """Seconds of training so far: those of the attempts before this one, and this one's."""
    started = getattr(trainer, "_attempt_started", None)
    return getattr(trainer, "_seconds_before_attempt", 0.0) + (time.time() - started if started else 0.0)


def _whole_duration_in_epoch_metrics(serialization_dir: str, epoch: int, seconds: float) -> None:
    """Gives `metrics_epoch_<epoch>.json`, just written by the trainer, the whole training's duration."""
    path = os.path.join(serialization_dir, f"metrics_epoch_{epoch}.json")
    if not os.path.isfile(path):
        return
    metrics = json.loads(Path(path).read_text(encoding="utf-8"))
    metrics["training_duration"] = str(datetime.timedelta(seconds=seconds))
    common_util.dump_metrics(path, metrics)


_restore_checkpoint = GradientDescentTrainer._maybe_restore_checkpoint
_train_one_epoch = GradientDescentTrainer._train_epoch
_train_epochs = GradientDescentTrainer._try_train


def _restore_checkpoint_and_its_random_states(self: GradientDescentTrainer) -> None:
    _restore_checkpoint(self)
    restored = getattr(self._checkpointer, "restored_training_state", None) or {}
    self._random_states_to_restore = restored.get("random_states")
    self._seconds_before_attempt = float(restored.get("training_seconds", 0.0))
    best = self._best_model_filename
    if best is not None and not os.path.isfile(best):
        if self._metric_tracker.best_epoch == self._start_after_epochs_completed - 1:
            # Stopped as the trainer replaced best.th by a link to this very checkpoint's weights.
            _save_whole(_best_weights(self, self.model.state_dict()), best)
        else:
            raise FileNotFoundError(
                f"{best}: the weights of the best epoch ({self._metric_tracker.best_epoch}), which the "
                f"checkpoint in {self._serialization_dir} names, are missing: resumed, the run would "
                "archive and test other weights. Train it again from the start."
            )


def _train_epoch_from_where_it_stopped(self: GradientDescentTrainer, epoch: int) -> Dict[str, float]:
    caught_up = self._epochs_completed >= getattr(self, "_start_after_epochs_completed", 0)
    if caught_up and getattr(self, "_attempt_started", None) is None:
        self._attempt_started = time.time()
    metrics = _train_one_epoch(self, epoch)
    states = getattr(self, "_random_states_to_restore", None)
    if states is not None and self._epochs_completed == self._start_after_epochs_completed - 1:
        # The checkpoint's last epoch is caught up with (its data read again, so that the loaders stand
        # where they stood): from here on, the random numbers are those the run drew when it was saved.
        if self._start_after_batches_in_epoch_completed == 0:
            _restore_random_states(states)
        self._random_states_to_restore = None
    return metrics


def _try_train_with_complete_metrics(self: GradientDescentTrainer) -> Tuple[Dict[str, Any], int]:
    metrics, epoch = _train_epochs(self)
    if "training_duration" in metrics:
        metrics["training_duration"] = str(datetime.timedelta(seconds=_seconds_trained(self)))
    if self._serialization_dir is not None:
        written = {
            int(match.group(1)): path
            for path in Path(self._serialization_dir).glob("metrics_epoch_*.json")
            if (match := re.fullmatch(r"metrics_epoch_(\d+)\.json", path.name))
        }
        if written:
            for key, value in json.loads(written[max(written)].read_text(encoding="utf-8")).items():
                metrics.setdefault(key, value)
    return metrics, epoch


GradientDescentTrainer._maybe_restore_checkpoint = _restore_checkpoint_and_its_random_states
GradientDescentTrainer._train_epoch = _train_epoch_from_where_it_stopped
GradientDescentTrainer._try_train = _try_train_with_complete_metrics
