"""
A part of the training data, for runs sized to a machine and for the paper's sample-efficiency
experiment (Peters et al. 2018, §5.4, Figure 1: the metric against the percentage of training data),
and a part of dev and test, for runs sized to a machine only.
"""

import logging
import random
from typing import Iterable, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance

logger = logging.getLogger(__name__)


@DatasetReader.register("training_subset")
class TrainingSubsetReader(DatasetReader):
    """
    Reads with `reader` and keeps a seeded random `fraction` of the instances, at most `limit` of
    them, in their original order. The kept instances are the first ones of one seeded permutation,
    so with the same seed a smaller part is always contained in a larger one. The log says how
    many were kept. Configs use it for training only (`configs/lib/data.libsonnet`). In distributed
    training the processes share the same chosen instances.

    Registered as a `DatasetReader` with name "training_subset".

    # Parameters

    reader : `DatasetReader`
        Reads the data and builds the instances (and applies the token indexers).
    fraction : `float`, optional (default = `1.0`)
        In (0, 1].
    limit : `int`, optional
        The most instances to keep.
    seed : `int`, optional (default = `13`)
    """

    purpose = "training"  # what the log line says the kept instances are for

    def __init__(
        self, reader: DatasetReader, fraction: float = 1.0, limit: Optional[int] = None, seed: int = 13, **kwargs
    ) -> None:
        super().__init__(**kwargs)
        if not 0 < fraction <= 1:
            raise ConfigurationError(f"training_subset: fraction must be in (0, 1], not {fraction}")
        if limit is not None and limit < 1:
            raise ConfigurationError(f"training_subset: limit must be a positive number of instances, not {limit}")
        self.reader, self.fraction, self.limit, self.seed = reader, fraction, limit, seed

    def _read(self, file_path) -> Iterable[Instance]:
        # In distributed training each process must choose from all of the data, as a single process
        # does, and take its share of what was chosen (our own `read` shards it): the wrapped reader,
        # built in the process, would otherwise keep only its share before the choice.
        self.reader._set_distributed_info(None)
        instances = list(self.reader.read(file_path))
        kept = max(1, round(self.fraction * len(instances))) if instances else 0
        if self.limit is not None:
            kept = min(kept, self.limit)
        chosen = sorted(random.Random(self.seed).sample(range(len(instances)), len(instances))[:kept])
        logger.info(
            "%s: %s on %d of %d instances (fraction %g, limit %s, seed %d)",
            file_path,
            self.purpose,
            kept,
            len(instances),
            self.fraction,
            self.limit,
            self.seed,
        )
        for index in chosen:
            yield instances[index]

    def text_to_instance(self, *inputs, **kwargs) -> Instance:  # type: ignore
        return self.reader.text_to_instance(*inputs, **kwargs)

    def apply_token_indexers(self, instance: Instance) -> None:
        self.reader.apply_token_indexers(instance)


@DatasetReader.register("evaluation_subset")
class EvaluationSubsetReader(TrainingSubsetReader):
    """
    The same seeded choice for dev and test (`configs/lib/data.libsonnet`, EVAL_LIMIT): with the
    default seed every run of a plan evaluates on the same instances, so their scores compare. The
    log line ("evaluating on N of M instances") is what the reproduction report reads to say so.

    Registered as a `DatasetReader` with name "evaluation_subset".
    """

    purpose = "evaluating"
