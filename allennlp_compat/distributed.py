"""
Makes `evaluate_on_test` work in AllenNLP's distributed training (`distributed.cuda_devices`).

AllenNLP 2.10.1 evaluates the test set at the end of training in the primary process alone, while
the process group is still up: every metric that sums its counts over the workers (ours and
AllenNLP's) waits for workers that have already finished, so the run fails with "Connection closed
by peer" and writes no archive; and the test loader holds only the primary's share of the test
data, which its reader kept when the loader was built. We register a replacement for the default
`TrainModel` (same name, same config keys) whose final step leaves the process group and reads the
whole test set again: the test metrics are then those of a single-process `allennlp evaluate` of
the best weights.
"""

import logging
from typing import Any, Dict

import torch.distributed as dist
from allennlp.commands.train import TrainModel
from allennlp.common.util import is_distributed
from allennlp.data.data_loaders import MultiProcessDataLoader

logger = logging.getLogger(__name__)


@TrainModel.register("default", constructor="from_partial_objects", exist_ok=True)
class WholeTestSetTrainModel(TrainModel):
    """AllenNLP's `TrainModel`, but a distributed run's primary evaluates all of the test set, alone."""

    def finish(self, metrics: Dict[str, Any]) -> None:
        loader = self.evaluation_data_loader
        if is_distributed() and loader is not None and self.evaluate_on_test:
            dist.destroy_process_group()
            if isinstance(loader, MultiProcessDataLoader):
                logger.info("Distributed run: the primary alone evaluates the whole test set.")
                loader.reader._set_distributed_info(None)
                loader._instances = None  # the primary's share, read when the loader was built
            else:
                logger.warning(
                    "Distributed run with a %s: the test metrics cover only the primary's share of the test set.",
                    type(loader).__name__,
                )
        super().finish(metrics)
