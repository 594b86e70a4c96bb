"""
Reader for the CoNLL-2003 named-entity files (Tjong Kim Sang and De Meulder, 2003).

Each token line has four space-separated columns, `word POS chunk NER`, the NER tags in IOB1
(`I-TYPE` inside an entity, `B-TYPE` only where an entity directly follows one of the same type).
Sentences are separated by blank lines; `-DOCSTART-` lines open a document and are not sentences.
The tags are converted to the model's coding scheme (BIOUL by default, as in the paper's
BiLSTM-CRF); any line that does not fit stops reading with the file, the line number and what
was expected.
"""

import logging
import re
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance, Token
from allennlp.data.dataset_readers.dataset_utils.span_utils import to_bioul
from allennlp.data.fields import MetadataField, TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer, TokenIndexer

from data_readers.errors import DataFormatError, numbered_lines
from data_readers.fields import OpenSequenceLabelField

logger = logging.getLogger(__name__)

CONLL2003_ENTITY_TYPES = ("PER", "LOC", "ORG", "MISC")
CODING_SCHEMES = ("BIOUL", "BIO", "IOB1")
DOCUMENT_START = "-DOCSTART-"


def iob1_to_bio(tags: Sequence[str]) -> List[str]:
    """IOB1 to BIO (IOB2): every entity starts with `B-`."""
    converted = []
    previous = "O"
    for tag in tags:
        if tag.startswith("I-") and previous[2:] != tag[2:]:
            tag = "B-" + tag[2:]
        converted.append(tag)
        previous = tag
    return converted


def convert_iob1(tags: Sequence[str], coding_scheme: str) -> List[str]:
    """IOB1 tags in the given coding scheme (`BIOUL`, `BIO` or `IOB1` unchanged)."""
    if coding_scheme == "BIOUL":
        return to_bioul(list(tags), encoding="IOB1")
    if coding_scheme == "BIO":
        return iob1_to_bio(tags)
    return list(tags)


@DatasetReader.register("conll2003_ner")
class Conll2003NerReader(DatasetReader):
    """
    Reads CoNLL-2003 NER files into instances with a `tokens` `TextField`, a `tags`
    `OpenSequenceLabelField` in `coding_scheme` (a valid tag the model never saw is scored, not
    fatal), and `metadata` holding the words and, with tags, the tags as `gold_tags`.

    Registered as a `DatasetReader` with name "conll2003_ner".

    # Parameters

    token_indexers : `Dict[str, TokenIndexer]`, optional (default = `{"tokens": SingleIdTokenIndexer()}`)
    coding_scheme : `str`, optional (default = `"BIOUL"`)
        `"BIOUL"`, `"BIO"` or `"IOB1"` (the files' own scheme).
    entity_types : `List[str]`, optional (default = CoNLL-2003's PER, LOC, ORG, MISC)
        The entity types a tag may name; any other is an error. `None` accepts any type.
    label_namespace : `str`, optional (default = `"labels"`)
    """

    def __init__(
        self,
        token_indexers: Dict[str, TokenIndexer] = None,
        coding_scheme: str = "BIOUL",
        entity_types: Optional[List[str]] = CONLL2003_ENTITY_TYPES,
        label_namespace: str = "labels",
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        if coding_scheme not in CODING_SCHEMES:
            raise ValueError(f"coding_scheme must be one of {CODING_SCHEMES}, not {coding_scheme!r}")
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer()}
        self.coding_scheme = coding_scheme
        self._label_namespace = label_namespace
        type_pattern = "|".join(map(re.escape, entity_types)) if entity_types else r"\S+"
        self._tag_pattern = re.compile(rf"O|[IB]-(?:{type_pattern})")
        self._entity_types = entity_types

    def _read(self, file_path: str) -> Iterable[Instance]:
        path = Path(cached_path(file_path))
        logger.info("Reading CoNLL-2003 instances from %s", path)
        for words, tags in self.read_sentences(path):
            yield self.text_to_instance([Token(word) for word in words], tags)

    def read_sentences(self, path: Path) -> Iterator[Tuple[List[str], List[str]]]:
        """Yields `(words, IOB1 tags)` per sentence, validating every line."""
        words: List[str] = []
        tags: List[str] = []
        for line_number, line in numbered_lines(path):
            columns = line.split()
            if not columns:
                if words:
                    yield words, tags
                words, tags = [], []
                continue
            if columns[0] == DOCUMENT_START:
                if words:
                    yield words, tags
                words, tags = [], []
                continue
            if len(columns) != 4:
                raise DataFormatError(
                    path,
                    line_number,
                    f"expected 4 space-separated columns (word POS chunk NER), found {len(columns)}: {line!r}",
                )
            tag = columns[3]
            if not self._tag_pattern.fullmatch(tag):
                types = ", ".join(self._entity_types) if self._entity_types else "any type"
                raise DataFormatError(
                    path,
                    line_number,
                    f"unknown NER tag {tag!r}: expected O, I-TYPE or B-TYPE with TYPE in {types}",
                )
            words.append(columns[0])
            tags.append(tag)
        if words:
            yield words, tags

    def text_to_instance(  # type: ignore
        self, tokens: List[Token], iob1_tags: Optional[List[str]] = None
    ) -> Instance:
        """An instance for `tokens`; `iob1_tags`, when given, are converted to the coding scheme."""
        fields = {
            "tokens": TextField(tokens),
            "metadata": MetadataField({"words": [token.text for token in tokens]}),
        }
        if iob1_tags is not None:
            tags = convert_iob1(iob1_tags, self.coding_scheme)
            fields["tags"] = OpenSequenceLabelField(tags, fields["tokens"], self._label_namespace)
            fields["metadata"].metadata["gold_tags"] = tags  # type: ignore[attr-defined]
        return Instance(fields)

    def apply_token_indexers(self, instance: Instance) -> None:
        instance.fields["tokens"]._token_indexers = self._token_indexers  # type: ignore
