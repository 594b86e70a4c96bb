"""
Reader for Universal PropBank (Jindal et al. 2022): CoNLL-U files with PropBank frames, openly
licensed (CDLA-Sharing-1.0), the stand-in for OntoNotes, whose licence keeps it out of reach.

Each word line has the ten CoNLL-U columns (ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC),
then PRED (the frame, e.g. `come.03`, on a predicate's word; `_` elsewhere), then one argument
column per predicate, in the predicates' order. An argument is marked on its head word only
(`ARG0`, `ARGM-TMP`, `R-ARG1`, `C-ARG1`; `V` on the predicate); `data_readers.dependency_spans`
turns each head into a span (the rule, its counts on the English EWT data: docs/srl.md).

Sentences with `# propbank = no-up` (left unannotated) are skipped, as are empty nodes (IDs such
as `8.1`, which carry no frames) and multiword-token lines (`1-2`): the log counts all three.
"""

import logging
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader
from allennlp.data.token_indexers import TokenIndexer

from data_readers.dependency_spans import ConversionCounts, argument_spans, dependency_depths, spans_to_bio
from data_readers.errors import DataFormatError, numbered_lines
from data_readers.srl_frames import PropBankSentence, SrlFramesReader

logger = logging.getLogger(__name__)

CONLLU_COLUMNS = 10
ID, FORM, UPOS, HEAD, PRED = 0, 1, 3, 6, 10
FIXED_COLUMNS = CONLLU_COLUMNS + 1  # and PRED
UNANNOTATED = "# propbank = no-up"
EMPTY = "_"


@DatasetReader.register("srl_universal_propbank")
class UniversalPropBankSrlReader(SrlFramesReader):
    """
    Reads Universal PropBank CoNLL-U files: one instance per predicate (`SrlFramesReader`), each
    head-marked argument grown into its span (`data_readers.dependency_spans.argument_spans`).
    The log reports what the conversion did (arguments whose words were not contiguous, words
    dropped, punctuation trimmed) for each file read.

    Registered as a `DatasetReader` with name "srl_universal_propbank".

    # Parameters

    token_indexers : `Dict[str, TokenIndexer]`, optional (default = `{"tokens": SingleIdTokenIndexer()}`)
    """

    def __init__(self, token_indexers: Optional[Dict[str, TokenIndexer]] = None, **kwargs) -> None:
        super().__init__(token_indexers=token_indexers, **kwargs)
        self.last_counts = ConversionCounts()

    def sentences(self, file_path: str) -> Iterator[PropBankSentence]:
        path = Path(cached_path(file_path))
        counts = ConversionCounts()
        skipped = {"unannotated sentences": 0, "empty nodes": 0, "multiword-token lines": 0}
        for comments, rows in _sentence_blocks(path):
            if UNANNOTATED in comments:
                skipped["unannotated sentences"] += 1
                continue
            words = []
            for line_number, columns in rows:
                if "." in columns[ID]:
                    skipped["empty nodes"] += 1
                elif "-" in columns[ID]:
                    skipped["multiword-token lines"] += 1
                else:
                    words.append((line_number, columns))
            if words:
                yield _read_sentence(path, words, counts)
        self.last_counts = counts
        logger.info(
            "%s: skipped %s. Heads to spans: %d arguments, %d not contiguous (%d words left out), %d lost "
            "edge punctuation, %d had the predicate in their subtree; %d particles marked C-V",
            path,
            ", ".join(f"{count} {what}" for what, count in skipped.items()),
            counts.arguments,
            counts.non_contiguous,
            counts.words_dropped,
            counts.edge_punctuation_trimmed,
            counts.predicate_in_subtree,
            counts.continued_predicates,
        )


def _sentence_blocks(path: Path) -> Iterator[Tuple[List[str], List[Tuple[int, List[str]]]]]:
    """`(comment lines, [(line number, tab-separated columns)])` for each sentence."""
    comments: List[str] = []
    rows: List[Tuple[int, List[str]]] = []
    for line_number, line in numbered_lines(path):
        line = line.rstrip("\r\n")
        if not line.strip():
            if rows:
                yield comments, rows
            comments, rows = [], []
        elif line.startswith("#"):
            comments.append(line.strip())
        else:
            columns = line.split("\t")
            if len(columns) < FIXED_COLUMNS:
                raise DataFormatError(
                    path,
                    line_number,
                    f"expected at least {FIXED_COLUMNS} tab-separated columns (the 10 of CoNLL-U, PRED, then one "
                    f"argument column per predicate), found {len(columns)}",
                )
            rows.append((line_number, columns))
    if rows:
        yield comments, rows


def _read_sentence(path: Path, rows: List[Tuple[int, List[str]]], counts: ConversionCounts) -> PropBankSentence:
    first_line = rows[0][0]
    predicates = [word for word, (_, columns) in enumerate(rows) if columns[PRED] != EMPTY]
    expected = FIXED_COLUMNS + len(predicates)
    heads = []
    for word, (line_number, columns) in enumerate(rows):
        extra_empty_column = not predicates and len(columns) == FIXED_COLUMNS + 1 and columns[-1] in ("", EMPTY)
        if len(columns) != expected and not extra_empty_column:
            raise DataFormatError(
                path,
                line_number,
                f"expected {expected} tab-separated columns (the 10 of CoNLL-U, PRED, and one argument column for "
                f"each of the sentence's {len(predicates)} predicates, those whose PRED is not '_'), found "
                f"{len(columns)}",
            )
        if columns[ID] != str(word + 1):
            raise DataFormatError(
                path, line_number, f"expected word ID {word + 1} (IDs count 1, 2, ...), found {columns[ID]!r}"
            )
        if not (columns[HEAD].isdigit() and int(columns[HEAD]) <= len(rows)):
            raise DataFormatError(
                path, line_number, f"HEAD {columns[HEAD]!r}: expected a word ID of this sentence, or 0 for the root"
            )
        if word in predicates and not columns[PRED].strip():
            raise DataFormatError(path, line_number, "PRED is empty: expected a frame such as come.03, or '_'")
        heads.append(int(columns[HEAD]) - 1)
    try:
        dependency_depths(heads)
    except ValueError as error:
        raise DataFormatError(path, first_line, f"expected a dependency tree: {error}") from None
    upos = [columns[UPOS] for _, columns in rows]
    tags = []
    for number, predicate in enumerate(predicates):
        arguments = []
        for word, (line_number, columns) in enumerate(rows):
            label = columns[FIXED_COLUMNS + number].strip()
            if not label:
                raise DataFormatError(
                    path,
                    line_number,
                    f"argument column {number + 1} (column {FIXED_COLUMNS + number + 1}) is empty: expected a label "
                    "or '_'",
                )
            if label != EMPTY:
                arguments.append((word, label))
        spans = argument_spans(heads, upos, predicate, arguments, counts)
        tags.append(spans_to_bio(len(rows), spans))
    return PropBankSentence(
        words=[columns[FORM] for _, columns in rows],
        predicates=predicates,
        tags=tags,
        path=str(path),
        line_number=first_line,
    )
