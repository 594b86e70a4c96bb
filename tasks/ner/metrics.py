"""Entity-level precision, recall and F1 as seqeval computes them in its conlleval-compatible mode."""

from collections import Counter
from typing import Dict, List, Sequence, Tuple

from allennlp.training.metrics import Metric
from seqeval.metrics.sequence_labeling import get_entities

from tasks.common.counts import LabelCountsMetric, label_scores

# seqeval's chunker knows IOB1, BIO and IOBES prefixes; BIOUL is IOBES with other letters.
_BIOUL_TO_IOBES = {"U": "S", "L": "E"}


def entity_spans(tags: Sequence[str]) -> List[Tuple[str, int, int]]:
    """`(type, first token, last token)` of each entity in `tags` (IOB1, BIO or BIOUL), by seqeval."""
    seqeval_tags = [_BIOUL_TO_IOBES.get(tag[0], tag[0]) + tag[1:] for tag in tags]
    return get_entities(seqeval_tags)


@Metric.register("seqeval_f1")
class SeqevalF1(LabelCountsMetric):
    """
    Counts gold, predicted and correct entities per type, each entity found by seqeval's
    conlleval-compatible chunker (`entity_spans`); an entity is correct when its type and both
    boundaries match. The result equals seqeval's `classification_report` in its default mode.

    Reports `precision-overall`, `recall-overall`, `f1-measure-overall` (micro-averaged over
    entities) and the same three per entity type, e.g. `f1-measure-PER`, the keys AllenNLP's
    `span_f1` uses, so `validation_metric: "+f1-measure-overall"` works as usual.
    """

    COUNTS = ("gold", "predicted", "correct")

    def __call__(self, predicted_tags: List[List[str]], gold_tags: List[List[str]]) -> None:  # type: ignore
        for predicted_sequence, gold_sequence in zip(predicted_tags, gold_tags):
            predicted = set(entity_spans(predicted_sequence))
            gold = set(entity_spans(gold_sequence))
            self._counts["predicted"].update(entity_type for entity_type, _, _ in predicted)
            self._counts["gold"].update(entity_type for entity_type, _, _ in gold)
            self._counts["correct"].update(entity_type for entity_type, _, _ in predicted & gold)

    def scores(self, counts: Dict[str, Counter]) -> Dict[str, float]:
        return label_scores(counts["correct"], counts["predicted"], counts["gold"])
