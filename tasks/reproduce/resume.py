"""
Before a run resumes: the config it was trained with (its `config.json`) against the config it gets now.

`allennlp train --recover` refuses any difference between the two, saying only "Training configuration
does not match the configuration we're recovering from". Most often the difference is where the
checkout lies: the bundled biLM's files and the activation cache are named by absolute paths, so a
runs folder carried to another clone, or a clone that was renamed, could not resume. So, key by key:

- a value that names the same bytes in a new place (the sha256 the run recorded for the old path) is
  *moved*; so is a value of a variable that describes the machine (the cache directory, the devices)
  and is not part of what a run is;
- anything else is *changed*: resuming would not continue the run the checkpoint belongs to.

Moved values are written into `config.json`, so that `--recover` goes on; a changed one stops the
resume before `allennlp train` starts, naming each key with both values.
"""

import json
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from tasks.environment import PROJECT_ROOT, VARIABLES
from tasks.reproduce.layout import write_json


class Difference(NamedTuple):
    key: str  # a flattened config key, as AllenNLP compares them: "trainer.optimizer.lr"
    trained: Any  # the value in the run's config.json
    now: Any  # the value the run's config and overrides give now

    def __str__(self) -> str:
        return f"{self.key}: {self.trained!r} when trained, {self.now!r} now"


def config_differences(
    config_file: Path, overrides: Dict[str, Any], environment: Dict[str, str], trained_config: Path
) -> Optional[List[Difference]]:
    """
    Every key whose value differs between `trained_config` and `config_file` with `overrides`, as
    evaluated under `environment`; None when either cannot be read (`allennlp train` then says why).
    """
    from allennlp.common import Params

    try:
        now = Params.from_file(str(config_file), json.dumps(overrides), ext_vars=environment).as_flat_dict()
        trained = Params.from_file(str(trained_config)).as_flat_dict()
    except Exception:
        return None
    keys = sorted(now.keys() | trained.keys())
    return [Difference(key, trained.get(key), now.get(key)) for key in keys if trained.get(key) != now.get(key)]


def sort_differences(
    differences: List[Difference],
    previous_info: Dict[str, Any],
    environment: Dict[str, str],
    sha256_of: Callable[[str], Optional[str]],
    machine_kinds: Tuple[str, ...],
) -> Tuple[List[Difference], List[Difference]]:
    """
    (moved, changed): `previous_info` is the run's run_info.json, `environment` what the run reads now,
    `sha256_of` a file's sha256 (None when there is no such file).
    """
    recorded = {entry.get("path"): entry.get("sha256") for entry in previous_info.get("inputs", {}).values()}
    machine_values = {
        (variable.get("value"), environment.get(name))
        for name, variable in previous_info.get("environment", {}).items()
        if name in VARIABLES and VARIABLES[name].kind in machine_kinds
    }
    moved, changed = [], []
    for difference in differences:
        trained, now = difference.trained, difference.now
        same_file = (
            isinstance(trained, str)
            and isinstance(now, str)
            and (sha256_of(_absolute(now)) or "missing")
            == (_recorded(recorded, trained) or sha256_of(_absolute(trained)) or "unknown")
        )
        (moved if same_file or (trained, now) in machine_values else changed).append(difference)
    return moved, changed


def adopt(trained_config: Path, moved: List[Difference]) -> None:
    """Writes the moved values into `trained_config` (whole, or not at all)."""
    config = json.loads(trained_config.read_text(encoding="utf-8"))
    for difference in moved:
        *parents, last = difference.key.split(".")
        block = config
        for name in parents:
            block = block[name]
        block[last] = difference.now
    write_json(trained_config, config, indent=4)  # AllenNLP's own indent for config.json


def _recorded(recorded: Dict[str, Optional[str]], path: str) -> Optional[str]:
    """The sha256 a run recorded for a file it named `path` (recorded under its resolved path)."""
    return recorded.get(_absolute(path)) or recorded.get(str(Path(_absolute(path)).resolve()))


def _absolute(path: str) -> str:
    """A config's path as the run's `allennlp train` sees it: relative ones from the repository root."""
    return str(PROJECT_ROOT / path) if path else path
