"""
What the suite's SRL readers share: a sentence with its PropBank frames as BIO tags, and the
reader base that turns each frame into one instance of allennlp-models' `srl` layout.
"""

import logging
from dataclasses import dataclass
from typing import Iterable, Iterator, List

from allennlp.data import Instance, Token
from allennlp.data.fields import SequenceLabelField
from allennlp_models.structured_prediction.dataset_readers.srl import SrlReader

from data_readers.fields import OpenSequenceLabelField

logger = logging.getLogger(__name__)


@dataclass
class PropBankSentence:
    """One sentence: its words, each predicate's word index and that predicate's BIO tags."""

    words: List[str]
    predicates: List[int]
    tags: List[List[str]]
    path: str
    line_number: int  # of the sentence's first line, for messages


class SrlFramesReader(SrlReader):
    """
    One instance per predicate, exactly as allennlp-models' `srl` reader builds them
    (`SrlReader.text_to_instance`: `tokens`, `verb_indicator`, `tags`, `metadata` with `words`,
    `verb`, `verb_index` and `gold_tags`), from the sentences a subclass reads in `sentences`.

    The predicate indicator marks the predicate's word alone (He et al. 2017), also where its `V`
    spans several words or has `C-V` continuations, so it matches what the predictor gives for raw
    text. Sentences without predicates give no instance (AllenNLP's reader gives one with all tags
    `O`, which adds nothing to the span metric); the log says how many there were.

    Each instance also holds `sentence_predicates` (1 on every predicate's word of the sentence, 0
    elsewhere) and their indices in `metadata["sentence_predicates"]`: what the SRL model's
    predicate finder learns from, so that its archive labels raw text alone.
    """

    def _read(self, file_path: str) -> Iterable[Instance]:
        sentences = without_predicates = frames = 0
        for sentence in self.sentences(file_path):
            sentences += 1
            if not sentence.predicates:
                without_predicates += 1
                continue
            tokens = [Token(word) for word in sentence.words]
            for predicate, tags in zip(sentence.predicates, sentence.tags):
                frames += 1
                indicator = [0] * len(tokens)
                indicator[predicate] = 1
                instance = self.text_to_instance(tokens, indicator, tags)
                # A role the training data lacked (an open set) is scored as a miss, not fatal.
                instance.add_field("tags", OpenSequenceLabelField(tags, instance["tokens"]))
                marked = set(sentence.predicates)
                instance.add_field(
                    "sentence_predicates",
                    SequenceLabelField([int(index in marked) for index in range(len(tokens))], instance["tokens"]),
                )
                instance["metadata"].metadata["sentence_predicates"] = sorted(marked)
                yield instance
        logger.info(
            "%s: %d frames from %d sentences; %d sentences without a predicate gave no instance",
            file_path,
            frames,
            sentences,
            without_predicates,
        )

    def sentences(self, file_path: str) -> Iterator[PropBankSentence]:
        """Every sentence of `file_path`, predicates or not, validated."""
        raise NotImplementedError
