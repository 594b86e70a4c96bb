"""
Makes AllenNLP 2.10.1 (archived; written for torch < 1.13) run on torch 2.x.

Imported first by `tasks` and `data_readers` (so also by the `allennlp` command, which loads
`tasks.plugin`), so the fixes are in place before any config is built, whether the suite runs
through the `allennlp` command or as a library. Nothing here edits an installed package; each fix
says which break it mends:

1. `torch.optim.lr_scheduler.ReduceLROnPlateau` lost its `verbose` argument (torch 2.7), and
   AllenNLP's `reduce_on_plateau` scheduler always passes it, so building a trainer that uses it
   crashes. We register a replacement under the same name.
2. `torch.load` defaults to `weights_only=True` since torch 2.6. AllenNLP's training state holds
   numpy scalars (metric values), which that unpickler rejects, so `allennlp train --recover`
   fails. We allow-list exactly the numpy types such a state contains; the check stays on.

Not torch breaks, but AllenNLP's own, each mended in its module:

3. In distributed training, `evaluate_on_test` fails at the end of every run (`distributed.py`).
4. A run stopped while it writes a checkpoint cannot be recovered (`checkpointer.py`).
5. Opening a model archive extracts whatever paths and links it holds, outside its folder too
   (`archives.py`).
6. `allennlp predict` skips blank input lines, so its output no longer lines up with its input, and
   one line that is not UTF-8 stops the whole run without a line number (`predict_input.py`).
7. An empty data file is read without a word and fails far later (`empty_data.py`).
8. A run stopped while it writes `metrics.json` or `model.tar.gz` leaves a truncated file, and
   the two side by side read as a finished run (`atomic_outputs.py`).
"""

import logging
from typing import List, Union

import numpy
import torch
from allennlp.training.learning_rate_schedulers.learning_rate_scheduler import (
    LearningRateScheduler,
    _PyTorchLearningRateSchedulerWithMetricsWrapper,
)
from allennlp.training.optimizers import Optimizer

logger = logging.getLogger(__name__)


class _DeliberateReplacements(logging.Filter):
    """Drops AllenNLP's "... has already been registered ..., but exist_ok=True, so overwriting" notes: each
    replacement here is on purpose, and three such lines at every start read like a problem."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "but exist_ok=True, so overwriting" not in record.getMessage()


logging.getLogger("allennlp.common.registrable").addFilter(_DeliberateReplacements())


@LearningRateScheduler.register("reduce_on_plateau", exist_ok=True)
class ReduceOnPlateauLearningRateScheduler(_PyTorchLearningRateSchedulerWithMetricsWrapper):
    """
    AllenNLP's `reduce_on_plateau` scheduler (same name, same config keys), built without the
    `verbose` argument that torch removed. `verbose: true` is honoured by logging each reduction.
    """

    def __init__(
        self,
        optimizer: Optimizer,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        verbose: bool = False,
        threshold_mode: str = "rel",
        threshold: float = 1e-4,
        cooldown: int = 0,
        min_lr: Union[float, List[float]] = 0,
        eps: float = 1e-8,
    ) -> None:
        lr_scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(
            optimizer=optimizer,
            mode=mode,
            factor=factor,
            patience=patience,
            threshold_mode=threshold_mode,
            threshold=threshold,
            cooldown=cooldown,
            min_lr=min_lr,
            eps=eps,
        )
        super().__init__(lr_scheduler)
        self._verbose = verbose

    def step(self, metric: float = None) -> None:
        before = [group["lr"] for group in self.lr_scheduler.optimizer.param_groups]
        super().step(metric)
        if self._verbose:
            after = [group["lr"] for group in self.lr_scheduler.optimizer.param_groups]
            for index, (old, new) in enumerate(zip(before, after)):
                if new != old:
                    logger.info("Reducing the learning rate of group %d from %g to %g", index, old, new)


def _numpy_scalar_types() -> list:
    """The picklable pieces of a numpy scalar: the reconstructor, `dtype` and its concrete classes."""
    float_and_int_dtypes = [numpy.dtype(name) for name in ("float16", "float32", "float64", "int32", "int64", "bool")]
    return [numpy.core.multiarray.scalar, numpy.dtype] + [type(d) for d in float_and_int_dtypes]


torch.serialization.add_safe_globals(_numpy_scalar_types())

from allennlp_compat import (  # noqa: E402,F401
    archives,
    atomic_outputs,
    checkpointer,
    distributed,
    empty_data,
    predict_input,
)
