"""
The CoNLL-2012 coreference metrics as the reference scorer (reference-coreference-scorers v8.01,
Pradhan et al. 2014) defines them: MUC, B³ and CEAF-e (φ4), and their average F1.

Key (gold) and response (predicted) are each a list of clusters of mentions; a mention is any
hashable value, here `(first token, last token)`. As in the scorer, every mention and cluster in
the key and in the response counts as given: singleton clusters included (OntoNotes has none in
its key; LitBank has many, and a model that predicts no singletons loses their recall in B³ and
CEAF-e), and mentions found on one side only (twinless) count in that side's totals without
artificial twins (the scorer's v7+ behaviour).

- MUC (Vilain et al. 1995), link-based: recall = Σ_k (|k| − |p(k)|) / Σ_k (|k| − 1), where p(k)
  is the partition of key cluster k by the response clusters, each mention of k the response does
  not have being a part of its own; precision the same with key and response swapped.
- B³ (Bagga and Baldwin 1998), mention-based: recall = Σ_k Σ_r |k ∩ r|² / |k| over Σ_k |k|;
  precision = Σ_r Σ_k |k ∩ r|² / |r| over Σ_r |r|.
- CEAF-e (Luo 2005): φ4(k, r) = 2 |k ∩ r| / (|k| + |r|); the one-to-one alignment of key and
  response clusters with the largest total φ4 (Kuhn-Munkres, scipy's `linear_sum_assignment`),
  divided by the number of key clusters (recall) and of response clusters (precision).

Numerators and denominators are summed over documents before dividing, as the scorer does for a
whole file; the CoNLL-2012 score is the mean of the three F1s.
"""

from typing import Dict, Hashable, List, Sequence, Tuple

import numpy
import torch
from allennlp.nn.util import dist_reduce_sum
from allennlp.training.metrics import Metric
from scipy.optimize import linear_sum_assignment

Cluster = Sequence[Hashable]
METRICS = ("muc", "b3", "ceafe")
# per metric: recall numerator, recall denominator, precision numerator, precision denominator
Totals = Tuple[float, float, float, float]


def muc(key: List[frozenset], response: List[frozenset]) -> Totals:
    """Correct links over key links (recall) and over response links (precision)."""
    correct = sum(_links_kept(cluster, response) for cluster in key)
    return correct, sum(len(k) - 1 for k in key), correct, sum(len(r) - 1 for r in response)


def _links_kept(cluster: frozenset, partition: List[frozenset]) -> int:
    """|cluster| − the number of parts `partition` cuts it into (its mentions outside `partition` alone)."""
    parts = sum(1 for other in partition if cluster & other)
    covered = sum(len(cluster & other) for other in partition)
    return len(cluster) - (parts + len(cluster) - covered)


def b_cubed(key: List[frozenset], response: List[frozenset]) -> Totals:
    overlaps = [(len(k), len(r), len(k & r)) for k in key for r in response]
    recall = sum(common**2 / key_size for key_size, _, common in overlaps if common)
    precision = sum(common**2 / response_size for _, response_size, common in overlaps if common)
    return recall, sum(len(k) for k in key), precision, sum(len(r) for r in response)


def ceafe(key: List[frozenset], response: List[frozenset]) -> Totals:
    similarity = numpy.zeros((len(key), len(response)))
    for row, k in enumerate(key):
        for column, r in enumerate(response):
            similarity[row, column] = 2 * len(k & r) / (len(k) + len(r))
    rows, columns = linear_sum_assignment(similarity, maximize=True)
    aligned = float(similarity[rows, columns].sum())
    return aligned, len(key), aligned, len(response)


def _as_sets(clusters: Sequence[Cluster], side: str) -> List[frozenset]:
    """
    Clusters as sets; a mention in two clusters (or twice in one) is an error, as the scorer's input
    must not have it.
    """
    sets, seen = [], set()
    for cluster in clusters:
        mentions = [tuple(m) if isinstance(m, list) else m for m in cluster]
        for mention in mentions:
            if mention in seen:
                raise ValueError(f"mention {mention} is in the {side} twice: each mention belongs to one cluster")
            seen.add(mention)
        if mentions:
            sets.append(frozenset(mentions))
    return sets


def document_totals(key: Sequence[Cluster], response: Sequence[Cluster]) -> Dict[str, Totals]:
    """The scorer's numerators and denominators for one document, per metric."""
    key_sets, response_sets = _as_sets(key, "key"), _as_sets(response, "response")
    return {
        "muc": muc(key_sets, response_sets),
        "b3": b_cubed(key_sets, response_sets),
        "ceafe": ceafe(key_sets, response_sets),
    }


@Metric.register("conll2012_coref_scores")
class Conll2012CorefScores(Metric):
    """
    MUC, B³ and CEAF-e precision, recall and F1, and their CoNLL-2012 average, over all documents
    seen since the last reset. Called with the predicted and gold clusters of each document in a
    batch (lists of clusters of `(first, last)` token spans).

    `get_metric` returns `muc_precision`, `muc_recall`, `muc_f1`, the same for `b3` and `ceafe`,
    and `coref_precision`, `coref_recall`, `coref_f1`: the means over the three metrics (the
    keys of allennlp-models' coreference model; `coref_f1` is the CoNLL-2012 score).

    Registered as a `Metric` with name "conll2012_coref_scores".
    """

    supports_distributed = True

    def __init__(self) -> None:
        # one row per metric: this worker's totals (see `Totals`)
        self._totals = torch.zeros(len(METRICS), 4, dtype=torch.float64)

    def __call__(  # type: ignore
        self, predicted_clusters: Sequence[Sequence[Cluster]], gold_clusters: Sequence[Sequence[Cluster]]
    ) -> None:
        for predicted, gold in zip(predicted_clusters, gold_clusters):
            totals = document_totals(gold, predicted)
            self._totals += torch.tensor([totals[name] for name in METRICS], dtype=torch.float64)

    def get_metric(self, reset: bool = False) -> Dict[str, float]:
        all_totals = dist_reduce_sum(self._totals).tolist()  # summed over workers in distributed training
        metrics: Dict[str, float] = {}
        for name, totals in zip(METRICS, all_totals):
            recall_numerator, recall_denominator, precision_numerator, precision_denominator = totals
            precision = precision_numerator / precision_denominator if precision_denominator else 0.0
            recall = recall_numerator / recall_denominator if recall_denominator else 0.0
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            metrics.update({f"{name}_precision": precision, f"{name}_recall": recall, f"{name}_f1": f1})
        for measure in ("precision", "recall", "f1"):
            metrics[f"coref_{measure}"] = sum(metrics[f"{name}_{measure}"] for name in METRICS) / len(METRICS)
        if reset:
            self.reset()
        return metrics

    def reset(self) -> None:
        self._totals.zero_()
