import pickle

import numpy
import pytest
import torch
from allennlp.common import Params
from allennlp.training.learning_rate_schedulers import LearningRateScheduler

import allennlp_compat


def test_reduce_on_plateau_builds_with_verbose_and_reduces(caplog):
    parameter = torch.nn.Parameter(torch.zeros(1))
    optimizer = torch.optim.Adam([parameter], lr=0.4)
    scheduler = LearningRateScheduler.from_params(
        params=Params({"type": "reduce_on_plateau", "mode": "max", "factor": 0.5, "patience": 0, "verbose": True}),
        optimizer=optimizer,
    )
    assert isinstance(scheduler, allennlp_compat.ReduceOnPlateauLearningRateScheduler)
    with caplog.at_level("INFO", logger="allennlp_compat"):
        scheduler.step(0.9)
        scheduler.step(0.8)  # no improvement: halve
    assert optimizer.param_groups[0]["lr"] == pytest.approx(0.2)
    assert "from 0.4 to 0.2" in caplog.text


def test_training_state_with_numpy_scalars_loads_under_weights_only(tmp_path):
    # AllenNLP's metric tracker and schedulers keep metric values, which may be numpy scalars.
    state = {"metric_tracker": {"best": numpy.float64(0.91), "epoch": numpy.int64(3)}, "lr": numpy.float32(0.1)}
    torch.save(state, tmp_path / "training_state.th")
    loaded = torch.load(tmp_path / "training_state.th")
    assert loaded == state


def test_the_weights_only_check_stays_on_for_other_types(tmp_path):
    torch.save({"array": numpy.zeros(3)}, tmp_path / "array.th")
    with pytest.raises(pickle.UnpicklingError):
        torch.load(tmp_path / "array.th")
