import pytest
import torch

from tasks.reproduce.results import learned_mixes


def _trained(directory, mixes, model_config=None):
    """A run directory with `mixes` scalar mixes of a model's own ELMo in best.th, and its config."""
    directory.mkdir()
    state = {"_elmo._encoder.weight": torch.zeros(2)}  # not a mix: left out
    for mix in range(mixes):
        state.update({f"_elmo.scalar_mix_{mix}.scalar_parameters.{layer}": torch.tensor([0.0]) for layer in range(3)})
        state[f"_elmo.scalar_mix_{mix}.gamma"] = torch.tensor([0.1 * (mix + 1)])
    torch.save(state, directory / "best.th")
    return directory, {} if model_config is None else {"model": model_config}


@pytest.mark.parametrize(
    "model_config, place",
    [
        ({"use_input_elmo": False, "use_integrator_output_elmo": True}, "output"),  # SST-5's, by an override
        ({"elmo_at_input": False, "elmo_at_output": True}, "output"),  # SQuAD's and SRL's keys
        ({"use_input_elmo": True, "use_output_elmo": False}, "input"),
        (None, "input"),  # no config: the suite's usual single place
    ],
)
def test_a_single_mix_serves_the_place_the_runs_config_leaves_on(tmp_path, model_config, place):
    [mix] = learned_mixes(*_trained(tmp_path / "run", 1, model_config))
    assert mix.place == place
    assert mix.weights == pytest.approx([1 / 3] * 3, abs=1e-6) and mix.gamma == pytest.approx(0.1)


def test_two_mixes_are_the_input_then_the_output(tmp_path):
    mixes = learned_mixes(*_trained(tmp_path / "run", 2, {"use_input_elmo": True, "use_output_elmo": True}))
    assert [(mix.place, round(mix.gamma, 6)) for mix in mixes] == [("input", 0.1), ("output", 0.2)]
