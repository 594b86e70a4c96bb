"""
The word-level annotation of CoNLL-U files for probing: each word's form, universal part of speech
(UPOS) and language-specific tag (XPOS: the Penn Treebank tag in English EWT), and, in Universal
PropBank files (CoNLL-U plus a PRED column and argument columns; see
`data_readers.universal_propbank`), the PropBank roleset of each predicate (`come.03`).

Plain CoNLL-U files (10 columns) give words and tags only. Multiword-token lines (`1-2`) and empty
nodes (`8.1`) are not words of the sentence and are skipped; in sentences marked
`# propbank = no-up` (left unannotated) the tags are kept and no roleset is read. The log counts
all three.
"""

import logging
from pathlib import Path
from typing import List, NamedTuple, Optional

from data_readers.errors import DataFormatError, numbered_lines
from data_readers.universal_propbank import CONLLU_COLUMNS, EMPTY, FORM, ID, PRED, UNANNOTATED, UPOS

logger = logging.getLogger(__name__)

XPOS = 4


class AnnotatedSentence(NamedTuple):
    words: List[str]
    upos: List[str]
    xpos: List[str]
    rolesets: List[
        Optional[str]
    ]  # the PropBank roleset of each predicate; None for other words and unannotated sentences


def read_conllu_words(path: str) -> List[AnnotatedSentence]:
    """Every sentence of a CoNLL-U (or Universal PropBank) file; bad lines stop with a `DataFormatError`."""
    path = Path(path)
    sentences: List[AnnotatedSentence] = []
    skipped = {"multiword-token lines": 0, "empty nodes": 0, "sentences without PropBank annotation": 0}
    comments: List[str] = []
    rows: List[List[str]] = []
    for line_number, line in numbered_lines(path):
        line = line.rstrip("\r\n")
        if not line.strip():
            if rows:
                sentences.append(_sentence(rows, UNANNOTATED in comments, skipped))
            comments, rows = [], []
        elif line.startswith("#"):
            comments.append(line.strip())
        else:
            columns = line.split("\t")
            if len(columns) < CONLLU_COLUMNS:
                raise DataFormatError(
                    path,
                    line_number,
                    f"expected the {CONLLU_COLUMNS} tab-separated columns of CoNLL-U, found {len(columns)}",
                )
            if "-" in columns[ID]:
                skipped["multiword-token lines"] += 1
            elif "." in columns[ID]:
                skipped["empty nodes"] += 1
            elif not columns[ID].isdigit() or int(columns[ID]) != len(rows) + 1:
                raise DataFormatError(
                    path, line_number, f"expected word ID {len(rows) + 1} (IDs count 1, 2, ...), found {columns[ID]!r}"
                )
            elif not columns[FORM] or not columns[UPOS] or not columns[XPOS]:
                raise DataFormatError(path, line_number, "FORM, UPOS and XPOS must not be empty")
            else:
                rows.append(columns)
    if rows:
        sentences.append(_sentence(rows, UNANNOTATED in comments, skipped))
    logger.info(
        "%s: %d sentences, %d words, %d predicates with a roleset; skipped %s",
        path,
        len(sentences),
        sum(len(s.words) for s in sentences),
        sum(roleset is not None for s in sentences for roleset in s.rolesets),
        ", ".join(f"{count} {what}" for what, count in skipped.items()),
    )
    return sentences


def _sentence(rows: List[List[str]], unannotated: bool, skipped: dict) -> AnnotatedSentence:
    if unannotated:
        skipped["sentences without PropBank annotation"] += 1
    rolesets = [
        columns[PRED] if not unannotated and len(columns) > PRED and columns[PRED] not in (EMPTY, "") else None
        for columns in rows
    ]
    return AnnotatedSentence(
        words=[columns[FORM] for columns in rows],
        upos=[columns[UPOS] for columns in rows],
        xpos=[columns[XPOS] for columns in rows],
        rolesets=rolesets,
    )
