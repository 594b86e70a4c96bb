"""A checkpoint interrupted while it is written leaves the previous one to recover from."""

import pytest
import torch
from allennlp.training.checkpointer import Checkpointer
from allennlp.training.trainer import TrainerCheckpoint

from allennlp_compat import checkpointer as checkpointer_module
from allennlp_compat.checkpointer import WholeCheckpointer


class _Trainer:
    """What a checkpointer asks of a trainer: its state after `epochs` epochs."""

    def __init__(self, epochs: int) -> None:
        self.epochs = epochs

    def get_checkpoint_state(self) -> TrainerCheckpoint:
        weights = {"weight": torch.full((3,), float(self.epochs))}
        return TrainerCheckpoint(weights, {"epochs_completed": self.epochs, "batches_in_epoch_completed": 0})


def test_the_default_checkpointer_is_ours():
    assert Checkpointer.by_name("default") is WholeCheckpointer


def test_an_interrupted_save_leaves_the_last_whole_checkpoint_newest(tmp_path, monkeypatch):
    checkpointer = Checkpointer.by_name("default")(serialization_dir=str(tmp_path))
    checkpointer.save_checkpoint(_Trainer(1))
    real_write = checkpointer_module._write_file

    def interrupted_write(path, data):
        if "model_state" in str(path):  # Ctrl-C halfway through the model's weights
            with open(path, "wb") as file:
                file.write(data[: len(data) // 2])
            raise KeyboardInterrupt
        real_write(path, data)

    monkeypatch.setattr(checkpointer_module, "_write_file", interrupted_write)
    with pytest.raises(KeyboardInterrupt):
        checkpointer.save_checkpoint(_Trainer(2))
    monkeypatch.setattr(checkpointer_module, "_write_file", real_write)
    assert not list(tmp_path.glob("*.partial"))

    model_path, training_path = checkpointer.find_latest_checkpoint()
    assert model_path.endswith("model_state_e1_b0.th") and training_path.endswith("training_state_e1_b0.th")
    restored = checkpointer.load_checkpoint()
    assert restored.model_state["weight"].tolist() == [1.0, 1.0, 1.0]
    assert restored.trainer_state["epochs_completed"] == 1
    # the next save of that epoch completes it
    checkpointer.save_checkpoint(_Trainer(2))
    assert checkpointer.load_checkpoint().model_state["weight"].tolist() == [2.0, 2.0, 2.0]
