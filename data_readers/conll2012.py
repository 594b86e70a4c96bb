"""
Reader for coreference in the CoNLL-2012 format (Pradhan et al., 2012): OntoNotes' `*_conll`
files, and LitBank's coreference files, which use the same layout.

A document opens with `#begin document (NAME); part NNN` and closes with `#end document`;
sentences are separated by blank lines. Each token line has at least 12 columns (tab- or
space-separated): document id, part, word number, word, POS, parse bit, predicate lemma,
predicate frameset, word sense, speaker, named entities, one column per predicate of the
sentence, and last the coreference column: `-` (or empty) for none, else `|`-separated parts
`(12` (a mention of cluster 12 opens here), `12)` (one closes) and `(12)` (a one-token mention).
Every line of a sentence has the same number of columns.

Anything else stops reading with the file, the line and what was expected: a token line with
another number of columns, a coreference part of another form, a cluster closed that is not
open, a mention still open at the end of its sentence (mentions lie within one sentence, which
is also all the model can propose), a token line outside a document.
"""

import logging
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Tuple

from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader, Instance
from allennlp.data.token_indexers import SingleIdTokenIndexer, TokenIndexer
from allennlp_models.coref.dataset_readers.conll import ConllCorefReader
from allennlp_models.coref.util import make_coref_instance

from data_readers.errors import DataFormatError, numbered_lines

logger = logging.getLogger(__name__)

Span = Tuple[int, int]  # first and last token of a mention, document offsets, inclusive

MIN_COLUMNS = 12
WORD_COLUMN, SPEAKER_COLUMN = 3, 9
_BEGIN = re.compile(r"#begin document \((.*)\);\s*part\s+(\d+)\s*")
_END = "#end document"
_COREF_PART = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")


@dataclass
class CorefDocument:
    """One document (one part of a CoNLL-2012 file), with its clusters in document token offsets."""

    document_id: str
    part: int
    sentences: List[List[str]] = field(default_factory=list)
    speakers: List[List[str]] = field(default_factory=list)
    clusters: Dict[int, List[Span]] = field(default_factory=dict)

    @property
    def genre(self) -> Optional[str]:
        """OntoNotes' genre, the first component of the document id (`bc/cctv/00/cctv_0000`: `bc`)."""
        return self.document_id.split("/", 1)[0] if "/" in self.document_id else None

    @property
    def num_tokens(self) -> int:
        return sum(len(sentence) for sentence in self.sentences)

    def window(self, first_sentence: int, num_sentences: int) -> "CorefDocument":
        """The sentences `[first_sentence, first_sentence + num_sentences)`, with the mentions inside them."""
        start = sum(len(sentence) for sentence in self.sentences[:first_sentence])
        sentences = self.sentences[first_sentence : first_sentence + num_sentences]
        end = start + sum(len(sentence) for sentence in sentences)
        clusters = {}
        for cluster_id, mentions in self.clusters.items():
            kept = [(first - start, last - start) for first, last in mentions if start <= first and last < end]
            if kept:
                clusters[cluster_id] = kept
        speakers = self.speakers[first_sentence : first_sentence + num_sentences]
        return CorefDocument(self.document_id, self.part, sentences, speakers, clusters)


def read_conll2012(path: Path) -> Iterator[CorefDocument]:
    """Yields the documents of one CoNLL-2012 file, validating every line."""
    document: Optional[CorefDocument] = None
    begin_line = 0
    words: List[str] = []
    speakers: List[str] = []
    sentence_columns: Optional[Tuple[int, int]] = None  # (number of columns, line of the sentence's first token)
    # cluster id -> stack of (token offset in the document, line) of its open mentions
    open_mentions: Dict[int, List[Tuple[int, int]]] = {}

    def end_sentence(line_number: int) -> None:
        nonlocal words, speakers, sentence_columns
        for cluster_id, stack in open_mentions.items():
            if stack:
                raise DataFormatError(
                    path,
                    stack[-1][1],
                    f"a mention of cluster {cluster_id} opens here and is not closed by the end of its "
                    f"sentence (line {line_number}): expected '{cluster_id})' on a later token of the sentence",
                )
        if words:
            document.sentences.append(words)  # type: ignore
            document.speakers.append(speakers)  # type: ignore
        words, speakers, sentence_columns = [], [], None

    line_number = 0
    for line_number, line in numbered_lines(path):
        stripped = line.strip()
        if stripped.startswith("#begin document"):
            if document is not None:
                raise DataFormatError(
                    path,
                    line_number,
                    f"document {document.document_id!r} (line {begin_line}) "
                    "is not closed: expected '#end document' before the next '#begin document'",
                )
            match = _BEGIN.fullmatch(stripped)
            if not match:
                raise DataFormatError(
                    path, line_number, f"expected '#begin document (NAME); part N', found {stripped!r}"
                )
            document, begin_line = CorefDocument(match.group(1), int(match.group(2))), line_number
            continue
        if stripped.startswith(_END):
            if document is None:
                raise DataFormatError(path, line_number, "'#end document' without a '#begin document' before it")
            end_sentence(line_number)
            yield document
            document = None
            continue
        if not stripped:
            if document is not None:
                end_sentence(line_number)
            continue
        if stripped.startswith("#"):
            continue  # other comment lines
        if document is None:
            raise DataFormatError(
                path, line_number, "a token line outside a document: expected '#begin document' first"
            )
        columns = _columns(line)
        if len(columns) < MIN_COLUMNS:
            raise DataFormatError(
                path,
                line_number,
                f"expected at least {MIN_COLUMNS} columns (document id, part, word number, word, POS, parse, "
                f"lemma, frameset, sense, speaker, entities, [predicate arguments], coreference), found {len(columns)}",
            )
        if sentence_columns is None:
            sentence_columns = (len(columns), line_number)
        elif len(columns) != sentence_columns[0]:
            raise DataFormatError(
                path,
                line_number,
                f"expected {sentence_columns[0]} columns, as on the sentence's first line ({sentence_columns[1]}), "
                f"found {len(columns)}",
            )
        token = document.num_tokens + len(words)
        _read_coreference(columns[-1], token, line_number, path, open_mentions, document.clusters)
        words.append(columns[WORD_COLUMN])
        speakers.append(columns[SPEAKER_COLUMN])
    if document is not None:
        raise DataFormatError(
            path,
            line_number,
            f"the file ends inside document {document.document_id!r} (line {begin_line}): expected '#end document'",
        )


def _columns(line: str) -> List[str]:
    """Tab-separated columns when the line has tabs (LitBank, whose empty last column means none), else whitespace."""
    line = line.rstrip("\r\n")
    if "\t" in line:
        columns = line.split("\t")
        if columns[-1].strip() == "":
            columns[-1] = "-"
        return [column.strip() for column in columns]
    return line.split()


def _read_coreference(
    value: str,
    token: int,
    line_number: int,
    path: Path,
    open_mentions: Dict[int, List[Tuple[int, int]]],
    clusters: Dict[int, List[Span]],
) -> None:
    if value == "-":
        return
    for part in value.split("|"):
        match = _COREF_PART.fullmatch(part)
        if not match:
            raise DataFormatError(
                path,
                line_number,
                f"coreference column {value!r}: expected '-' or '|'-separated parts like '(12', '12)' or '(12)'",
            )
        single, opening, closing = match.groups()
        if single is not None:
            clusters.setdefault(int(single), []).append((token, token))
        elif opening is not None:
            open_mentions.setdefault(int(opening), []).append((token, line_number))
        else:
            cluster_id = int(closing)
            if not open_mentions.get(cluster_id):
                raise DataFormatError(
                    path, line_number, f"'{part}' closes a mention of cluster {cluster_id}, but none is open"
                )
            start, _ = open_mentions[cluster_id].pop()
            clusters.setdefault(cluster_id, []).append((start, token))


@DatasetReader.register("conll2012_coref")
class Conll2012CorefReader(ConllCorefReader):
    """
    allennlp-models' `coref` reader (same instances: `text`, `spans` of up to `max_span_width`
    tokens within a sentence, `span_labels`, and `metadata` with `original_text` and `clusters`)
    over a validating parser of the files, with what Lee et al. (2017)'s model uses besides:
    `metadata` also holds `sentence_lengths` (the model encodes each sentence on its own),
    `speakers` (one per token), `genre` and `document_id`.

    Registered as a `DatasetReader` with name "conll2012_coref".

    # Parameters

    max_span_width : `int`
        The widest candidate mention, in tokens.
    token_indexers : `Dict[str, TokenIndexer]`, optional (default = `{"tokens": SingleIdTokenIndexer()}`)
    max_sentences : `int`, optional
        Keep only each document's first `max_sentences` sentences (and the mentions in them).
    max_training_sentences : `int`, optional
        Crop each longer document to a random window of this many consecutive sentences, drawn
        afresh each time the file is read (Lee et al.'s 50 for training; give it to the training
        reader only, and read lazily, `max_instances_in_memory`, to draw new windows each epoch).
    remove_singleton_clusters : `bool`, optional (default = `False`)
        Drop clusters of one mention from the gold clusters (LitBank annotates singletons;
        OntoNotes does not). Kept, they count in the metrics as the reference scorer counts them.
    seed : `int`, optional (default = `13`)
        Seeds the training windows.
    """

    def __init__(
        self,
        max_span_width: int,
        token_indexers: Dict[str, TokenIndexer] = None,
        max_sentences: Optional[int] = None,
        max_training_sentences: Optional[int] = None,
        remove_singleton_clusters: bool = False,
        seed: int = 13,
        **kwargs,
    ) -> None:
        super().__init__(
            max_span_width,
            token_indexers or {"tokens": SingleIdTokenIndexer()},
            max_sentences=max_sentences,
            remove_singleton_clusters=remove_singleton_clusters,
            **kwargs,
        )
        for name, value in (("max_sentences", max_sentences), ("max_training_sentences", max_training_sentences)):
            if value is not None and value < 1:
                raise ValueError(f"{name} must be a positive number of sentences, not {value}")
        self._max_training_sentences = max_training_sentences
        self._random = random.Random(seed)

    def _read(self, file_path: str) -> Iterable[Instance]:
        path = Path(cached_path(file_path))
        counts = dict.fromkeys(("documents", "cropped", "sentences", "tokens", "mentions", "singletons", "repeated"), 0)
        for document in read_conll2012(path):
            if self._max_sentences is not None:
                document = document.window(0, self._max_sentences)
            if self._max_training_sentences is not None and len(document.sentences) > self._max_training_sentences:
                first = self._random.randint(0, len(document.sentences) - self._max_training_sentences)
                document = document.window(first, self._max_training_sentences)
                counts["cropped"] += 1
            counts["documents"] += 1
            counts["sentences"] += len(document.sentences)
            counts["tokens"] += document.num_tokens
            mentions = [mention for cluster in document.clusters.values() for mention in cluster]
            counts["mentions"] += len(mentions)
            counts["repeated"] += len(mentions) - len(set(mentions))
            counts["singletons"] += sum(len(mentions) == 1 for mentions in document.clusters.values())
            yield self.text_to_instance(
                document.sentences,
                list(document.clusters.values()),
                document.speakers,
                document.genre,
                f"{document.document_id}_{document.part}",
            )
        if not counts["documents"]:
            raise DataFormatError(path, 1, "no '#begin document' line: expected documents in the CoNLL-2012 format")
        logger.info(
            "%s: %d documents (%d cropped to %s sentences), %d sentences, %d tokens, %d mentions (%d annotated "
            "twice: their clusters merged), %d singleton clusters%s",
            path,
            counts["documents"],
            counts["cropped"],
            self._max_training_sentences,
            counts["sentences"],
            counts["tokens"],
            counts["mentions"],
            counts["repeated"],
            counts["singletons"],
            " (removed)" if self._remove_singleton_clusters else "",
        )

    def text_to_instance(  # type: ignore
        self,
        sentences: List[List[str]],
        gold_clusters: Optional[List[List[Span]]] = None,
        speakers: Optional[List[List[str]]] = None,
        genre: Optional[str] = None,
        document_id: Optional[str] = None,
    ) -> Instance:
        """`sentences` of words; `gold_clusters` in document token offsets (inclusive); `speakers` per word."""
        instance = make_coref_instance(
            sentences,
            self._token_indexers,
            self._max_span_width,
            gold_clusters,
            max_sentences=None,  # windows are cut in `_read`, speakers with them
            remove_singleton_clusters=self._remove_singleton_clusters,
        )
        metadata = instance["metadata"].metadata  # type: ignore
        metadata["sentence_lengths"] = [len(sentence) for sentence in sentences]
        if speakers is None:
            speakers = [[""] * len(sentence) for sentence in sentences]
        metadata["speakers"] = [speaker for sentence in speakers for speaker in sentence]
        metadata["genre"] = genre
        metadata["document_id"] = document_id
        return instance
