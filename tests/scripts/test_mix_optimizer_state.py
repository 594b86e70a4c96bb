import json
import os
import subprocess
import sys

import pytest

from tests.helpers.repository import ROOT


def mix_state(run, environment) -> subprocess.CompletedProcess:
    command = [sys.executable, "scripts/mix_optimizer_state.py", str(run)]
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True)


def test_after_one_adam_update_every_mix_parameter_moved_by_the_whole_learning_rate(tiny_archives, tiny_elmo):
    # The tiny SNLI run: its 9 pairs are one batch, one epoch: one update, whose Adam step is lr·sign(g).
    run = tiny_archives["snli"].parent
    environment = {"ELMO_OPTIONS_FILE": str(tiny_elmo[0]), "ELMO_WEIGHT_FILE": str(tiny_elmo[1])}
    result = mix_state(run, {**os.environ, **environment})
    assert result.returncode == 0, result.stderr[-3000:]
    found = json.loads(result.stdout)
    lr = found["learning_rate"]["start"]
    assert found["optimizer"] == "adam" and found["updates"] == 1 and found["farthest_travel"] == lr
    assert [len(mix["logits"]) for mix in found["mixes"]] == [3, 3]  # SNLI: a mix at each place
    for mix in found["mixes"]:
        assert sum(mix["weights"]) == pytest.approx(1.0)
        # From logits 0 and γ 0.1, each moved by lr in the direction its update says.
        for logit, update in zip(mix["logits"], mix["updates"]):
            assert abs(update) == pytest.approx(1.0, abs=1e-3)
            assert logit == pytest.approx(lr * update, rel=1e-3)
        assert mix["gamma"] - 0.1 == pytest.approx(lr * mix["gamma_update"], rel=1e-3)


def test_a_folder_without_a_checkpoint_is_refused(tmp_path):
    result = mix_state(tmp_path, None)
    assert result.returncode != 0
    assert f"{tmp_path}: no training_state_e*_b*.th" in result.stderr
