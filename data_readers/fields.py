"""
A tag sequence whose tags need not all be known to the model that reads it.

A model's label vocabulary comes from its training data. Development, test or new data may hold a
valid tag that the training data lacked (a four-token location where training had only shorter
ones, so BIOUL's `I-LOC` never occurred; a PropBank role such as `R-ARGM-MNR` seen only in test
data), and AllenNLP's `SequenceLabelField` stops there with a bare `KeyError`. Such a tag is a gold
tag the model cannot predict: it must count against the model, not stop the evaluation. This field
indexes it as `fallback` (for the loss) while `labels` keep the tags as read, which the models score
their spans from (`metadata["gold_tags"]`).
"""

import logging
from typing import List, Optional, Set

from allennlp.data import Vocabulary
from allennlp.data.fields import SequenceField, SequenceLabelField

logger = logging.getLogger(__name__)


class OpenSequenceLabelField(SequenceLabelField):
    """A `SequenceLabelField` of string tags that indexes a tag the vocabulary lacks as `fallback`."""

    _reported: Set[str] = set()  # each unknown tag is logged once per process

    def __init__(
        self, labels: List[str], sequence_field: SequenceField, label_namespace: str = "labels", fallback: str = "O"
    ) -> None:
        super().__init__(labels, sequence_field, label_namespace)
        self.fallback = fallback

    def index(self, vocab: Vocabulary) -> None:
        known = vocab.get_token_to_index_vocabulary(self._label_namespace)
        fallback: Optional[int] = known.get(self.fallback)
        indexed = []
        for label in self.labels:
            index = known.get(label)  # type: ignore[arg-type]
            if index is None:
                if fallback is None:
                    raise ValueError(
                        f"tag {label!r} is not among the model's labels, nor is the fallback tag {self.fallback!r}"
                    )
                if label not in OpenSequenceLabelField._reported:
                    OpenSequenceLabelField._reported.add(label)
                    logger.warning(
                        "Tag %r is not among the model's %d labels (its training data had none): scored as a gold "
                        "tag the model cannot predict, and trained on as %r",
                        label,
                        len(known),
                        self.fallback,
                    )
                index = fallback
            indexed.append(index)
        self._indexed_labels = indexed
