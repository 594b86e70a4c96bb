import json
import subprocess
import sys

import pytest

from tests.helpers.repository import ROOT

# A small ESIM, trained on nothing: the probe looks at it as `allennlp train` would build it.
OVERRIDES = {"data_loader.batch_sampler.batch_size": 4, "model.encoder.hidden_size": 8}


def probe(tmp_path, environment, overrides) -> dict:
    output = tmp_path / "probe.json"
    command = [sys.executable, "scripts/elmo_training_probe.py", "configs/snli_elmo.jsonnet"]
    result = subprocess.run(
        command + ["-o", json.dumps(overrides), "--instances", "6", "--batches", "1", "--output", str(output)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(output.read_text())


@pytest.mark.parametrize("gamma", [1.0, 0.0])
def test_the_probe_measures_elmo_at_each_place_and_each_attention(sst_snli_environment, tmp_path, gamma):
    found = probe(tmp_path, sst_snli_environment, {**OVERRIDES, "model.elmo.initial_gamma": gamma})
    assert found["type"] == "elmo_esim" and found["instances"] == 6 and found["elmo"]
    for place in ("input", "output"):
        share = found[place]["elmo_share_of_variance"]
        # γ = 0 zeroes ELMo's vectors: no share of any variance, and attention as without ELMo
        assert share == 0.0 if gamma == 0.0 else 0.0 < share < 1.0
    assert set(found["attention"]) == {"premise over hypothesis", "hypothesis over premise"}
    for weights in found["attention"].values():
        assert 0.0 < weights["gamma_zero"] <= 1.0
        if gamma == 0.0:
            assert weights["with_elmo"] == pytest.approx(weights["gamma_zero"])
    assert [len(mix["weights"]) for mix in found["mixes"]] == [3, 3]  # one mix per place, three layers each
    assert all(mix["gamma"] == pytest.approx(gamma) for mix in found["mixes"])
    assert all(mix["gamma_gradient"] is not None for mix in found["mixes"])


def test_a_baseline_has_attention_and_no_elmo(sst_snli_environment, tmp_path):
    output = tmp_path / "probe.json"
    command = [sys.executable, "scripts/elmo_training_probe.py", "configs/snli_baseline.jsonnet"]
    subprocess.run(
        command + ["-o", json.dumps(OVERRIDES), "--instances", "4", "--output", str(output)],
        cwd=ROOT,
        env=sst_snli_environment,
        check=True,
        capture_output=True,
    )
    found = json.loads(output.read_text())
    assert not found["elmo"] and "input" not in found and "mixes" not in found
    assert set(found["attention"]) == {"premise over hypothesis", "hypothesis over premise"}
