"""
A metrics file is whole or absent, whenever its run stops.

AllenNLP 2.10.1 writes `metrics.json` and `metrics_epoch_N.json` in place. A run stopped in the
middle of that write (killed, or out of disk space) leaves a truncated file; `metrics.json` beside
`model.tar.gz` is what marks a run as finished, so the runner would skip it and the report fail to
parse it. We write each metrics file under a temporary name and rename it over the old one (atomic
on POSIX), through AllenNLP's own `dump_metrics`, whose text and logging are kept.
"""

import os
from typing import Any, Dict, Optional

import allennlp.evaluation.evaluator
import allennlp.training.util
from allennlp.common import util

_dump_in_place = util.dump_metrics


def dump_metrics(file_path: Optional[str], metrics: Dict[str, Any], log: bool = False) -> None:
    if not file_path:
        return _dump_in_place(file_path, metrics, log)
    temporary = f"{file_path}.partial"
    _dump_in_place(temporary, metrics, log)
    os.replace(temporary, file_path)


# The trainer and `allennlp train` call it through the module; these two imported it by name.
for module in (util, allennlp.training.util, allennlp.evaluation.evaluator):
    module.dump_metrics = dump_metrics
