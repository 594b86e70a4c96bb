"""The biLM a command's arguments name, and the activation cache rule, which the configs state again."""

import argparse
import json

import _jsonnet
import pytest
from allennlp.common.checks import ConfigurationError

from tasks.elmo.arguments import add_bilm_arguments, bilm_files, open_bilm
from tasks.elmo.frozen_bilm import LSTM_STATES, cache_directory_for
from tasks.environment import BUNDLED_BILM
from tests.helpers.repository import ROOT


def _arguments(*command_line: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_bilm_arguments(parser)
    return parser.parse_args(list(command_line))


def test_the_files_given_name_the_bilm_else_the_environment_else_the_bundled_one(tiny_elmo, monkeypatch):
    given = _arguments("--options-file", str(tiny_elmo[0]), "--weight-file", str(tiny_elmo[1]))
    assert bilm_files(given) == (str(tiny_elmo[0]), str(tiny_elmo[1]))
    monkeypatch.setenv("ELMO_OPTIONS_FILE", str(tiny_elmo[0]))
    monkeypatch.setenv("ELMO_WEIGHT_FILE", str(tiny_elmo[1]))
    assert bilm_files(_arguments()) == (str(tiny_elmo[0]), str(tiny_elmo[1]))
    monkeypatch.delenv("ELMO_OPTIONS_FILE")
    monkeypatch.delenv("ELMO_WEIGHT_FILE")
    assert bilm_files(_arguments()) == (str(BUNDLED_BILM / "options.json"), str(BUNDLED_BILM / "weights.hdf5"))


def test_files_and_variables_come_in_pairs(tiny_elmo, monkeypatch):
    with pytest.raises(ConfigurationError, match="give both --options-file and --weight-file, or neither"):
        bilm_files(_arguments("--weight-file", str(tiny_elmo[1])))
    monkeypatch.delenv("ELMO_OPTIONS_FILE", raising=False)
    monkeypatch.setenv("ELMO_WEIGHT_FILE", str(tiny_elmo[1]))
    with pytest.raises(ConfigurationError, match="ELMO_WEIGHT_FILE is set but ELMO_OPTIONS_FILE is not"):
        bilm_files(_arguments())


def test_the_bilm_keeps_its_activations_in_elmo_cache_dir_unless_none(tiny_elmo, tmp_path, monkeypatch):
    files = ("--options-file", str(tiny_elmo[0]), "--weight-file", str(tiny_elmo[1]))
    monkeypatch.setenv("ELMO_CACHE_DIR", str(tmp_path))
    assert open_bilm(_arguments(*files)).cache.path.parent == tmp_path
    monkeypatch.setenv("ELMO_CACHE_DIR", "none")
    assert open_bilm(_arguments(*files)).cache is None


@pytest.mark.parametrize("setting", ["none", "NONE", "/a/cache"])
@pytest.mark.parametrize("lstm_state", LSTM_STATES)
def test_the_configs_follow_the_cache_rule(setting, lstm_state):
    """configs/lib/elmo.libsonnet cannot call Python: its own statement of the rule must agree."""
    snippet = (
        f"local elmo = import 'elmo.libsonnet';elmo.token_embedder(elmo.settings({{ lstm_state: '{lstm_state}' }}))"
    )
    variables = {"ELMO_CACHE_DIR": setting, "ELMO_OPTIONS_FILE": "o.json", "ELMO_WEIGHT_FILE": "w.hdf5"}
    embedder = json.loads(
        _jsonnet.evaluate_snippet("rule", snippet, jpathdir=[str(ROOT / "configs" / "lib")], ext_vars=variables)
    )
    assert embedder["cache_directory"] == cache_directory_for(setting, lstm_state)
