"""
Reader for the Stanford Natural Language Inference corpus (Bowman et al. 2015) in its original
jsonl layout: one JSON object per line with `sentence1` (the premise), `sentence2` (the
hypothesis) and, in the released train/dev/test files, `gold_label`; the other keys of the release
(`annotator_labels`, `pairID`, parses, ...) are not used.

It is allennlp-models' `snli` reader, reading line by line so that a line that is not such an
object, or that holds an unknown label, stops with the file, the line and what was expected. Pairs
whose `gold_label` is `-` (the annotators reached no majority) are left out, as in the paper and
every SNLI result, and counted in the log. A file without `gold_label` keys reads as unlabelled
pairs, for prediction; a file that mixes labelled and unlabelled pairs is an error.
"""

import json
import logging
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from allennlp.common.checks import ConfigurationError
from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance, Token
from allennlp.data.fields import Field, LabelField, MetadataField, TextField
from allennlp.data.token_indexers import TokenIndexer
from allennlp.data.tokenizers import Tokenizer
from allennlp_models.pair_classification.dataset_readers.snli import SnliReader, maybe_collapse_label

from data_readers.errors import DataFormatError, numbered_lines
from data_readers.tokenizers import BlankSpacyTokenizer

logger = logging.getLogger(__name__)

SNLI_LABELS = ("entailment", "neutral", "contradiction")
NO_CONSENSUS = "-"


@DatasetReader.register("snli_jsonl")
class SnliJsonlReader(SnliReader):
    """
    Reads SNLI jsonl into instances with `premise` and `hypothesis` `TextField`s, `metadata` (their
    tokens) and, for labelled pairs, a `label` `LabelField`.

    Registered as a `DatasetReader` with name "snli_jsonl".

    # Parameters

    tokenizer : `Tokenizer`, optional (default = `BlankSpacyTokenizer()`, offline)
        Splits the premise and the hypothesis (the release's sentences are raw text).
    token_indexers : `Dict[str, TokenIndexer]`, optional (default = `{"tokens": SingleIdTokenIndexer()}`)
    collapse_labels : `bool`, optional (default = `False`)
        `neutral` and `contradiction` become `non-entailment`.
    """

    def __init__(
        self,
        tokenizer: Optional[Tokenizer] = None,
        token_indexers: Dict[str, TokenIndexer] = None,
        collapse_labels: bool = False,
        **kwargs,
    ) -> None:
        if kwargs.pop("combine_input_fields", None):
            raise ConfigurationError(
                "snli_jsonl keeps the premise and hypothesis apart: combine_input_fields is not supported"
            )
        super().__init__(
            tokenizer=tokenizer or BlankSpacyTokenizer(),
            token_indexers=token_indexers,
            combine_input_fields=False,
            collapse_labels=collapse_labels,
            **kwargs,
        )

    def _read(self, file_path: str) -> Iterable[Instance]:
        path = Path(cached_path(file_path))
        yield from self.shard_iterable(self._instances(path))

    def _instances(self, path: Path) -> Iterator[Instance]:
        counts = {"read": 0, "no consensus": 0}
        labelled: Optional[bool] = None
        for line_number, record in _numbered_records(path):
            premise, hypothesis, label = _pair(path, line_number, record)
            if labelled is None:
                labelled = label is not None
            elif labelled != (label is not None):
                expected = (
                    "a gold_label, as the lines before it have" if labelled else "no gold_label, as the lines before it"
                )
                raise DataFormatError(path, line_number, f"expected {expected}: a file is either labelled or not")
            if label == NO_CONSENSUS:
                counts["no consensus"] += 1
                continue
            counts["read"] += 1
            yield self.text_to_instance(premise, hypothesis, label)
        logger.info(
            "%s: %d %s pairs read; %d left out: gold_label '-' (no annotator consensus)",
            path,
            counts["read"],
            "labelled" if labelled else "unlabelled",
            counts["no consensus"],
        )

    def text_to_instance(  # type: ignore
        self,
        premise: Union[str, List[Token]],
        hypothesis: Union[str, List[Token]],
        label: Optional[str] = None,
    ) -> Instance:
        """An instance for a pair of raw texts (tokenised here) or of token lists."""
        premise_tokens = self._tokenizer.tokenize(premise) if isinstance(premise, str) else list(premise)
        hypothesis_tokens = self._tokenizer.tokenize(hypothesis) if isinstance(hypothesis, str) else list(hypothesis)
        fields: Dict[str, Field] = {
            "premise": TextField(premise_tokens),
            "hypothesis": TextField(hypothesis_tokens),
            "metadata": MetadataField(
                {
                    "premise_tokens": [token.text for token in premise_tokens],
                    "hypothesis_tokens": [token.text for token in hypothesis_tokens],
                }
            ),
        }
        if label is not None:
            fields["label"] = LabelField(maybe_collapse_label(label, self.collapse_labels))
        return Instance(fields)


def _numbered_records(path: Path) -> Iterator[Tuple[int, Any]]:
    """The JSON value of each non-blank line, with its 1-based number."""
    for line_number, line in numbered_lines(path):
        if not line.strip():
            continue
        try:
            yield line_number, json.loads(line.strip())
        except json.JSONDecodeError as error:
            raise DataFormatError(
                path, line_number, f"expected one JSON object per line: {error.msg} (column {error.colno})"
            ) from None


def _pair(path: Path, line_number: int, record: Any) -> Tuple[str, str, Optional[str]]:
    """`(premise, hypothesis, gold label or None)` of a record, or the error saying what is wrong."""
    if not isinstance(record, dict):
        raise DataFormatError(path, line_number, f"expected a JSON object, found {type(record).__name__}")
    texts = []
    for key in ("sentence1", "sentence2"):
        text = record.get(key)
        if not isinstance(text, str) or not text.strip():
            found = "nothing" if key not in record else repr(text)
            raise DataFormatError(path, line_number, f'expected "{key}" to be a non-empty string, found {found}')
        texts.append(text)
    label = record.get("gold_label")
    if label is not None and label not in SNLI_LABELS + (NO_CONSENSUS,):
        raise DataFormatError(
            path, line_number, f"unknown gold_label {label!r}: expected one of {', '.join(SNLI_LABELS)} or '-'"
        )
    return texts[0], texts[1], label
