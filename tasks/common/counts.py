"""Named counters that a metric sums over every worker of a distributed training, and the scores they give."""

from collections import Counter
from typing import Dict, List, Tuple

import torch.distributed as dist
from allennlp.common.util import is_distributed
from allennlp.training.metrics import Metric


def gathered_counts(counts: Dict[str, Counter]) -> Dict[str, Counter]:
    """`counts` summed over all workers in distributed training; `counts` itself otherwise."""
    if not is_distributed():
        return counts
    every_worker: List[Dict[str, Counter]] = [{} for _ in range(dist.get_world_size())]
    dist.all_gather_object(every_worker, counts)
    return {name: sum((worker[name] for worker in every_worker), Counter()) for name in counts}


def label_scores(correct: Counter, predicted: Counter, gold: Counter) -> Dict[str, float]:
    """
    Precision, recall and F1 for each label of `predicted` or `gold` and micro-averaged `overall`,
    from the number of correct, predicted and gold items per label, under the keys of AllenNLP's
    span metrics (`precision-PER`, ..., `f1-measure-overall`), so `validation_metric:
    "+f1-measure-overall"` works as usual.
    """
    scores: Dict[str, float] = {}
    for label in sorted(set(predicted) | set(gold)):
        scores.update(_scores(label, correct[label], predicted[label], gold[label]))
    scores.update(_scores("overall", sum(correct.values()), sum(predicted.values()), sum(gold.values())))
    return scores


def _scores(label: str, correct: int, predicted: int, gold: int) -> Dict[str, float]:
    precision = correct / predicted if predicted else 0.0
    recall = correct / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {f"precision-{label}": precision, f"recall-{label}": recall, f"f1-measure-{label}": f1}


class LabelCountsMetric(Metric):
    """
    A metric that counts items per label under `COUNTS` (a `Counter` each) and reports
    `label_scores`: a subclass updates `self._counts` in `__call__` and says, in `scores`, which
    counts are the correct, predicted and gold ones. The counts are summed over every worker first.
    """

    COUNTS: Tuple[str, ...] = ()

    def __init__(self) -> None:
        self._counts: Dict[str, Counter] = {name: Counter() for name in self.COUNTS}

    def scores(self, counts: Dict[str, Counter]) -> Dict[str, float]:
        raise NotImplementedError

    def get_metric(self, reset: bool = False) -> Dict[str, float]:
        metrics = self.scores(gathered_counts(self._counts))
        if reset:
            self.reset()
        return metrics

    def reset(self) -> None:
        for counter in self._counts.values():
            counter.clear()
