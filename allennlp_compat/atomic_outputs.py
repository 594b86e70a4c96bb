"""
A run's metrics files and its model archive are whole or absent, whenever the run stops.

AllenNLP 2.10.1 writes `metrics.json`, `metrics_epoch_N.json` and `model.tar.gz` in place. A run
stopped in the middle of one of those writes (killed, or out of disk space) leaves a truncated
file, and `metrics.json` beside `model.tar.gz` is what marks a run as finished: the runner would
skip it, the report fail to parse it, `allennlp evaluate` fail to open it. We write each file under
a temporary name (`<name>.partial`) and rename it over the old one (atomic on POSIX), through
AllenNLP's own functions, whose contents and logging are kept.
"""

import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

import allennlp.commands.train
import allennlp.evaluation.evaluator
import allennlp.models
import allennlp.training.util
from allennlp.common import util
from allennlp.models import archival

_dump_in_place = util.dump_metrics
_archive_in_place = archival.archive_model


def _write_then_rename(target: str, write) -> None:
    temporary = f"{target}.partial"
    try:
        write(temporary)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)  # an error, or Ctrl-C: the old file stays, whole
        if isinstance(error, OSError) and error.errno is not None:  # a full disk, say: which file, where
            raise OSError(error.errno, f"cannot write {target} ({error.strerror})") from error
        raise
    os.replace(temporary, target)


def dump_metrics(file_path: Optional[str], metrics: Dict[str, Any], log: bool = False) -> None:
    if not file_path:
        return _dump_in_place(file_path, metrics, log)
    _write_then_rename(file_path, lambda temporary: _dump_in_place(temporary, metrics, log))


def archive_model(
    serialization_dir: Union[str, os.PathLike],
    weights: str = archival._DEFAULT_WEIGHTS,
    archive_path: Union[str, os.PathLike, None] = None,
    include_in_archive: Optional[List[str]] = None,
) -> str:
    if archive_path is None:
        archive_file = os.path.join(serialization_dir, "model.tar.gz")
    elif os.path.isdir(archive_path):
        archive_file = os.path.join(archive_path, "model.tar.gz")
    else:
        archive_file = str(archive_path)
    _write_then_rename(
        archive_file,
        lambda temporary: _archive_in_place(serialization_dir, weights, temporary, include_in_archive),
    )
    return archive_file


# The trainer and `allennlp train` call them through these modules; the others imported them by name.
for module in (util, allennlp.training.util, allennlp.evaluation.evaluator):
    module.dump_metrics = dump_metrics
for module in (archival, allennlp.models, allennlp.commands.train):
    module.archive_model = archive_model
