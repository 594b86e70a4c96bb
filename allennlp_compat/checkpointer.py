"""
Makes a training checkpoint whole or absent, so that `allennlp train --recover` works after a run
is stopped at any moment.

AllenNLP 2.10.1 writes a checkpoint as `model_state_e<N>_b<M>.th` and then
`training_state_e<N>_b<M>.th`, each straight into its final name, and recovers from the newest
model state it finds. A run stopped while it writes (Ctrl-C, a `kill`, a full disk) leaves a
truncated or unpaired newest file, and `--recover` then fails ("PytorchStreamReader failed locating
file data.pkl") although the previous checkpoint is intact. We register a replacement for the
default `Checkpointer` (same name, same config keys) that writes the training state first and the
model state last, each to a temporary name renamed when complete: the newest model state always
has its training state, and both are whole.

And a run stopped after its last epoch's checkpoint (while it writes `model.tar.gz`, say) finishes
under `--recover` with only the `best_*` metrics: the trainer catches up through the checkpointed
epochs without computing their metrics, so `metrics.json` lacks the last epoch's `training_*` and
`validation_*` values. We fill what is missing from the last epoch's own `metrics_epoch_<N>.json`.
"""

import json
import os
import re
from pathlib import Path
from typing import Any, Dict, Tuple

import torch
from allennlp.training.checkpointer import Checkpointer
from allennlp.training.gradient_descent_trainer import GradientDescentTrainer
from allennlp.training.trainer import Trainer


@Checkpointer.register("default", exist_ok=True)
class WholeCheckpointer(Checkpointer):
    """AllenNLP's `Checkpointer`, whose checkpoints appear only once completely written."""

    def save_checkpoint(self, trainer: Trainer) -> None:
        state = trainer.get_checkpoint_state() if self._serialization_dir is not None else None
        if state is not None:
            epochs = state.trainer_state["epochs_completed"]
            batches = state.trainer_state["batches_in_epoch_completed"]
            _save_whole(state.trainer_state, self._training_state_path(epochs, batches))
            _save_whole(state.model_state, self._model_state_path(epochs, batches))
        # Finds both files written, so writes nothing more; keeps its bookkeeping and pruning.
        super().save_checkpoint(trainer)


def _save_whole(value: Any, path: str) -> None:
    if os.path.isfile(path):
        return
    partial = path + ".partial"  # not a name the checkpointer looks for
    torch.save(value, partial)
    os.replace(partial, path)


_train_epochs = GradientDescentTrainer._try_train


def _try_train_with_complete_metrics(self: GradientDescentTrainer) -> Tuple[Dict[str, Any], int]:
    metrics, epoch = _train_epochs(self)
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


GradientDescentTrainer._try_train = _try_train_with_complete_metrics
