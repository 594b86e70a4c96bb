"""
Every config and plan variant that takes ELMo computes with the biLM its weight file holds: the
model built from it (initializers applied) and the model `load_archive` gives back both hold the
weight file's values in every frozen biLM parameter. Configs are found by globbing, and plan
variants by expanding every plan, so a new one cannot escape. A biLM changed after loading refuses
to run, so the activation cache, named by what the biLM computes, never holds other vectors.
"""

import json
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.models import Model
from allennlp.models.archival import archive_model, load_archive
from allennlp.training.util import make_vocab_from_params

from tasks.bilm.weight_file import random_weights, write_elmo_files
from tasks.elmo import FrozenBilm, frozen_bilm
from tasks.elmo.frozen_bilm import parameter_digests
from tasks.reproduce.plan import SEED_KEYS, load_plan
from tests.helpers.repository import ROOT

CONFIGS = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "configs").rglob("*.jsonnet"))


def _ours(config: str) -> bool:
    """configs/stock/ are allennlp-models' own, over AllenNLP's own biLM: tests/configs/test_stock_configs.py."""
    return not config.startswith("configs/stock/")


def _takes_elmo(config: str, overrides: Dict) -> bool:
    return "weight_file" in json.dumps(Params.from_file(str(ROOT / config), json.dumps(overrides)).as_dict(quiet=True))


def _plan_variants() -> List[Tuple[str, str]]:
    """(config, overrides) of every run of every plan, seeds left out, each distinct pair once."""
    environment = {
        "PAPER_DATA_DIR": "/paper/data",
        "PAPER_ELMO_DIR": "/paper/elmo",
        "SHARED_DATA_DIR": "/shared/data",
        "BILM_WORK": "/bilm/work",
    }
    variants = set()
    for plan in sorted((ROOT / "plans").glob("*.jsonnet")):
        for run in load_plan(str(plan), {**__import__("os").environ, **environment}).runs:
            overrides = {key: value for key, value in run.overrides.items() if key not in SEED_KEYS}
            variants.add((run.config, json.dumps(overrides, sort_keys=True)))
    return sorted(variants)


ELMO_VARIANTS = [
    (config, overrides)
    for config, overrides in sorted({(config, "{}") for config in CONFIGS} | set(_plan_variants()))
    if _ours(config) and _takes_elmo(config, json.loads(overrides))
]

# Sizes that only make building faster (the paper's 8 x 300 SRL encoder takes seconds to initialise);
# they touch neither ELMo nor any initializer, so what is checked is the config's own biLM.
FASTER_TO_BUILD = {"srl": {"model.encoder.num_layers": 2, "model.encoder.hidden_size": 8}}


def test_the_variants_cover_every_elmo_config_and_the_plans_overrides():
    elmo_configs = {config for config, _ in ELMO_VARIANTS}
    assert {f"configs/{task}_elmo.jsonnet" for task in ("ner", "sst", "snli", "squad", "srl", "coref")} <= elmo_configs
    assert len(elmo_configs) >= 25  # six tasks and the ablations of Tables 2 and 3
    assert any(overrides != "{}" for _, overrides in ELMO_VARIANTS)  # the plans' schedules and sizes


@pytest.fixture(scope="module")
def vocabularies(tmp_path_factory):
    """One vocabulary per config, from its bundled sample (the overrides do not change what is built)."""
    built = {}

    def vocabulary(config: str):
        if config not in built:
            params = Params.from_file(str(ROOT / config))
            built[config] = make_vocab_from_params(params, tmp_path_factory.mktemp("vocabulary"))
        return built[config]

    return vocabulary


def _frozen_bilms(model: torch.nn.Module) -> List[FrozenBilm]:
    return [module for module in model.modules() if isinstance(module, FrozenBilm)]


@pytest.mark.parametrize("config, overrides", ELMO_VARIANTS)
def test_the_frozen_bilm_holds_its_weight_file_when_built_and_after_load_archive(
    config, overrides, tiny_elmo, monkeypatch, tmp_path, vocabularies
):
    monkeypatch.setenv("ELMO_OPTIONS_FILE", str(tiny_elmo[0]))
    monkeypatch.setenv("ELMO_WEIGHT_FILE", str(tiny_elmo[1]))
    expected = parameter_digests(FrozenBilm(str(tiny_elmo[0]), str(tiny_elmo[1])))
    task = Path(config).stem.split("_")[0]
    params = Params.from_file(
        str(ROOT / config), json.dumps({**json.loads(overrides), **FASTER_TO_BUILD.get(task, {})})
    )
    model = Model.from_params(vocab=vocabularies(config), params=params.duplicate().pop("model"))
    assert _frozen_bilms(model), f"{config} takes ELMo, but its model has no frozen biLM"
    for bilm in _frozen_bilms(model):
        assert parameter_digests(bilm) == expected, f"{config}: the built model's biLM differs from its weight file"

    run = tmp_path / "run"
    run.mkdir()
    (run / "config.json").write_text(json.dumps(params.as_dict(quiet=True)), encoding="utf-8")
    vocabularies(config).save_to_files(str(run / "vocabulary"))
    torch.save(model.state_dict(), run / "best.th")
    archive_model(run, weights="best.th")
    loaded = load_archive(str(run / "model.tar.gz")).model
    for bilm in _frozen_bilms(loaded):
        assert parameter_digests(bilm) == expected, f"{config}: the loaded archive's biLM differs from its weight file"


def test_a_frozen_bilm_changed_after_loading_refuses_to_run(tiny_elmo):
    bilm = FrozenBilm(str(tiny_elmo[0]), str(tiny_elmo[1]))
    characters = torch.randint(1, 200, (2, 3, 50))
    bilm(characters)  # unchanged: runs
    bilm.load_state_dict(bilm.state_dict())  # written again with the same values: still runs
    bilm(characters)
    with torch.no_grad():
        torch.nn.init.xavier_uniform_(bilm.character_encoder.char_embedding.weight)
    with pytest.raises(ConfigurationError, match="character_encoder.char_embedding.weight no longer hold what"):
        bilm(characters)


def test_the_fingerprint_follows_the_values_computed_with_not_the_file(tiny_elmo, tmp_path):
    """A copy of the weight file under another name is the same biLM; other values are another."""
    copy = tmp_path / "renamed.hdf5"
    copy.write_bytes(Path(tiny_elmo[1]).read_bytes())
    original = FrozenBilm(str(tiny_elmo[0]), str(tiny_elmo[1]))
    assert FrozenBilm(str(tiny_elmo[0]), str(copy)).fingerprint == original.fingerprint
    assert FrozenBilm(str(tiny_elmo[0]), str(tiny_elmo[1]), lstm_state="warm_up").fingerprint != original.fingerprint
    options = json.loads(Path(tiny_elmo[0]).read_text())
    write_elmo_files(options, random_weights(options, seed=2), tmp_path / "options.json", tmp_path / "other.hdf5")
    assert FrozenBilm(str(tmp_path / "options.json"), str(tmp_path / "other.hdf5")).fingerprint != original.fingerprint


def test_a_new_definition_of_the_fingerprint_leaves_older_caches_unread(tiny_elmo, monkeypatch, tmp_path):
    before = FrozenBilm(str(tiny_elmo[0]), str(tiny_elmo[1]), cache_directory=str(tmp_path)).cache.path
    monkeypatch.setattr(frozen_bilm, "FINGERPRINT_VERSION", "a later definition")
    after = FrozenBilm(str(tiny_elmo[0]), str(tiny_elmo[1]), cache_directory=str(tmp_path)).cache.path
    assert before != after and before.parent == after.parent
