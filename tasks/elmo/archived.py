"""
A model archive's ELMo on the machine that opens it, not the one that trained it.

`allennlp train` writes the config as evaluated on the training machine into the archive: its ELMo's
`cache_directory` is that machine's activation cache, its `options_file` and `weight_file` that
machine's paths. `allennlp predict`, `allennlp evaluate` and `Predictor.from_path` built the model
from them as they were: on another machine they created the trainer's cache folder (or failed with a
bare `NotADirectoryError` where it could not be made, even with `ELMO_CACHE_DIR=none`), and a biLM
file not at the trainer's path stopped them without saying how to point it elsewhere.

When an archive's model is built (`allennlp.models.archival._load_model`), each ELMo of its config:

- takes this machine's cache setting, `ELMO_CACHE_DIR` (or its default), under the same rule as the
  configs (`cache_directory_for`), unless `-o`/`--overrides` gave it a cache of its own;
- keeps the biLM files it names where they exist; a missing one is replaced by `ELMO_OPTIONS_FILE` /
  `ELMO_WEIGHT_FILE` where those name files here (the frozen weights' sha256, kept in the model's
  weights, then checks that they are the same biLM), else stops naming the file, the key, and both ways
  to point it at a local copy.
"""

import logging
import os
from pathlib import Path
from typing import Any, Dict

from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.models import archival

from tasks.elmo.fill import find_elmos
from tasks.elmo.frozen_bilm import cache_directory_for
from tasks.environment import default_value

logger = logging.getLogger(__name__)

BILM_FILES = {"options_file": "ELMO_OPTIONS_FILE", "weight_file": "ELMO_WEIGHT_FILE"}
_build_archived_model = archival._load_model


def _setting(name: str) -> str:
    return os.environ.get(name) or default_value(name)


def on_this_machine(config: Params, serialization_dir: str) -> None:
    """Gives each ELMo of an archive's `config` (overrides applied) this machine's cache and biLM files, in place."""
    archived_path = Path(serialization_dir) / archival.CONFIG_NAME
    archived = Params.from_file(str(archived_path)).as_dict(quiet=True) if archived_path.is_file() else {}
    for path, elmo in find_elmos(config.as_dict(quiet=True).get("model", {})):
        block = _block(config, path)
        trained = _lookup(archived, path) or {}
        stock = elmo.get("type") == "elmo_token_embedder"  # AllenNLP's own: it has no cache to set
        if not stock and elmo.get("cache_directory") == trained.get("cache_directory"):  # not given by --overrides
            cached = not elmo.get("requires_grad")
            block["cache_directory"] = (
                cache_directory_for(_setting("ELMO_CACHE_DIR"), elmo.get("lstm_state", "zero")) if cached else None
            )
        for key, variable in BILM_FILES.items():
            named = elmo.get(key)
            if not named or Path(named).is_file():
                continue
            here = _setting(variable)
            if here and Path(here).is_file():
                logger.info(
                    "%s: the archive's %s.%s, %s, is not here: using %s=%s", path, path, key, named, variable, here
                )
                block[key] = here
                continue
            raise ConfigurationError(
                f"the model's biLM file {named} ({path}.{key} in the archive's config) is not on this machine. "
                f"Point it at a local copy of the same file: set {variable} (and {_other(variable)}) to the local "
                f'files, or pass --overrides \'{{"{path}.{key}": "/local/path"}}\' to allennlp predict or evaluate.'
            )


def _other(variable: str) -> str:
    return next(name for name in BILM_FILES.values() if name != variable)


def _block(config: Params, path: str) -> Params:
    """The Params object at a dotted `path` (whose first part is 'model'), to be changed in place."""
    block: Any = config
    for part in path.split("."):
        block = block[int(part)] if isinstance(block, list) else block[part]
    return block


def _lookup(values: Dict[str, Any], path: str) -> Any:
    found: Any = values
    for part in path.split("."):
        if isinstance(found, list) and part.isdigit() and int(part) < len(found):
            found = found[int(part)]
        elif isinstance(found, dict) and part in found:
            found = found[part]
        else:
            return None
    return found


def _load_model_here(config: Params, weights_path: str, serialization_dir: str, cuda_device: int):
    on_this_machine(config, serialization_dir)
    return _build_archived_model(config, weights_path, serialization_dir, cuda_device)


archival._load_model = _load_model_here
