"""
Reader for semantic role labelling in the CoNLL-2012 OntoNotes format (the ELMo paper's SRL data,
Pradhan et al. 2013), through allennlp-models' OntoNotes parser, with every line checked first.

Each word line has whitespace-separated columns: document, part, word number, word, POS, parse
bit, predicate lemma, frameset, word sense, speaker, named entities, then one argument column per
predicate, then coreference. An argument column brackets the predicate's arguments, one span at a
time (`(ARG0*`, `*`, `*)`, `(V*)`), its predicate marked `(V*)`. Sentences end at blank lines;
`#begin document` / `#end document` lines separate documents.

AllenNLP's own reader accepts anything: a short line, an argument column that does not belong to
a predicate, or a nested bracket quietly shift or garble the frames (it pairs frames with
predicates by position). This one stops at the first such line with the file, the line and what
was expected, and otherwise reads exactly what AllenNLP reads.
"""

import logging
import re
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

from allennlp.common.checks import ConfigurationError
from allennlp.common.file_utils import cached_path
from allennlp.data import DatasetReader
from allennlp.data.token_indexers import TokenIndexer
from allennlp_models.common.ontonotes import Ontonotes

from data_readers.errors import DataFormatError, numbered_lines
from data_readers.srl_frames import PropBankSentence, SrlFramesReader

logger = logging.getLogger(__name__)

FIXED_COLUMNS = 11  # document ... named entities
LEMMA, FRAMESET, PARSE = 6, 7, 5
MINIMUM_COLUMNS = FIXED_COLUMNS + 1  # no predicate: no argument column, then coreference
COLUMN_NAMES = (
    "document, part, word number, word, POS, parse bit, predicate lemma, frameset, word sense, "
    "speaker, named entities, one argument column per predicate, coreference"
)
_ARGUMENT_CELL = re.compile(r"(?:\((?P<label>[^()*\s]+))?\*(?P<close>\))?")


@DatasetReader.register("srl_conll2012")
class Conll2012SrlReader(SrlFramesReader):
    """
    Reads CoNLL-2012 SRL data: one instance per predicate (`SrlFramesReader`), from one file or,
    as AllenNLP's `srl` reader, from every `*gold_conll` file under a directory.

    Registered as a `DatasetReader` with name "srl_conll2012".

    # Parameters

    token_indexers : `Dict[str, TokenIndexer]`, optional (default = `{"tokens": SingleIdTokenIndexer()}`)
    domain_identifier : `str`, optional
        Read only files under a directory of this name (`nw`, `bc`, ...), as AllenNLP's reader.
    """

    def __init__(
        self,
        token_indexers: Optional[Dict[str, TokenIndexer]] = None,
        domain_identifier: Optional[str] = None,
        **kwargs,
    ) -> None:
        super().__init__(token_indexers=token_indexers, domain_identifier=domain_identifier, **kwargs)

    def sentences(self, file_path: str) -> Iterator[PropBankSentence]:
        path = Path(cached_path(file_path))
        for data_file in self._data_files(path):
            for first_line, rows in _sentence_blocks(data_file):
                yield _read_sentence(data_file, first_line, rows)

    def _data_files(self, path: Path) -> List[Path]:
        if path.is_file():
            return [path]
        files = sorted(
            Path(name)
            for name in Ontonotes.dataset_path_iterator(str(path))
            if self._domain_identifier is None or f"/{self._domain_identifier}/" in name
        )
        if not files:
            domain = f" in domain {self._domain_identifier!r}" if self._domain_identifier else ""
            raise ConfigurationError(
                f"{path}: no *gold_conll files{domain} (CoNLL-2012 SRL data: a file or a directory)"
            )
        return files


def _sentence_blocks(path: Path) -> Iterator[Tuple[int, List[Tuple[int, List[str]]]]]:
    """`(first line number, [(line number, columns)])` for each sentence of the file."""
    rows: List[Tuple[int, List[str]]] = []
    for line_number, line in numbered_lines(path):
        if line.strip() and not line.startswith("#"):
            rows.append((line_number, line.split()))
        elif rows:
            yield rows[0][0], rows
            rows = []
    if rows:
        yield rows[0][0], rows


def _read_sentence(path: Path, first_line: int, rows: List[Tuple[int, List[str]]]) -> PropBankSentence:
    width = len(rows[0][1])
    for line_number, columns in rows:
        if len(columns) < MINIMUM_COLUMNS:
            raise DataFormatError(
                path,
                line_number,
                f"expected at least {MINIMUM_COLUMNS} whitespace-separated columns ({COLUMN_NAMES}), found "
                f"{len(columns)}",
            )
        if len(columns) != width:
            raise DataFormatError(
                path,
                line_number,
                f"expected {width} columns, as on line {first_line} where this sentence starts "
                f"({FIXED_COLUMNS} fixed, {width - MINIMUM_COLUMNS} argument columns, coreference), found "
                f"{len(columns)}",
            )
        if columns[PARSE].count("*") != 1:
            raise DataFormatError(path, line_number, f"parse bit {columns[PARSE]!r}: expected exactly one '*'")
    predicates = _predicates(path, rows)
    try:
        sentence = Ontonotes()._conll_rows_to_sentence([" ".join(columns) for _, columns in rows])
    except (ValueError, IndexError) as error:
        raise DataFormatError(
            path, first_line, f"AllenNLP's OntoNotes parser failed on this sentence: {error}"
        ) from None
    return PropBankSentence(
        words=sentence.words,
        predicates=predicates,
        tags=[tags for _, tags in sentence.srl_frames],
        path=str(path),
        line_number=first_line,
    )


def _predicates(path: Path, rows: List[Tuple[int, List[str]]]) -> List[int]:
    """The predicate's word index for each argument column, checking the columns' brackets."""
    argument_columns = range(FIXED_COLUMNS, len(rows[0][1]) - 1)
    predicates: List[int] = []
    predicate_of_line: Dict[int, int] = {}
    for column in argument_columns:
        number = column - FIXED_COLUMNS + 1
        spans = _column_spans(path, rows, column, number)
        verbs = [(first, last) for first, last, label in spans if label == "V"]
        if not verbs:
            if len(argument_columns) == 1 and not spans:
                continue  # a sentence without predicates may carry one empty argument column
            raise DataFormatError(
                path,
                rows[0][0],
                f"argument column {number} (column {column + 1}) marks no predicate: expected (V*) on its "
                f"predicate's line, one argument column per predicate",
            )
        if len(verbs) > 1:
            raise DataFormatError(
                path,
                rows[verbs[1][0]][0],
                f"argument column {number} (column {column + 1}) marks a second predicate (the first, V, on line "
                f"{rows[verbs[0][0]][0]}): expected one (V*) per argument column",
            )
        first, last = verbs[0]
        with_lemma = [word for word in range(first, last + 1) if rows[word][1][LEMMA] != "-"]
        predicate = with_lemma[0] if with_lemma else first
        if predicate in predicate_of_line:
            raise DataFormatError(
                path,
                rows[predicate][0],
                f"argument columns {predicate_of_line[predicate]} and {number} mark the same predicate: "
                "expected one argument column per predicate",
            )
        predicate_of_line[predicate] = number
        predicates.append(predicate)
    return predicates


def _column_spans(
    path: Path, rows: List[Tuple[int, List[str]]], column: int, number: int
) -> List[Tuple[int, int, str]]:
    """`(first word, last word, label)` of each bracketed span in one argument column."""
    spans: List[Tuple[int, int, str]] = []
    open_label: Optional[str] = None
    open_word = 0
    where = f"argument column {number} (column {column + 1})"
    for word, (line_number, columns) in enumerate(rows):
        cell = columns[column]
        match = _ARGUMENT_CELL.fullmatch(cell)
        if match is None:
            raise DataFormatError(path, line_number, f"{where}: expected *, (LABEL*, *) or (LABEL*), found {cell!r}")
        if match["label"]:
            if open_label is not None:
                raise DataFormatError(
                    path,
                    line_number,
                    f"{where} opens {match['label']} while {open_label}, opened on line {rows[open_word][0]}, "
                    "is still open: expected one span at a time (arguments of a predicate do not nest)",
                )
            open_label, open_word = match["label"], word
        if match["close"]:
            if open_label is None:
                raise DataFormatError(path, line_number, f"{where} closes a span that no line opened")
            spans.append((open_word, word, open_label))
            open_label = None
    if open_label is not None:
        raise DataFormatError(
            path,
            rows[-1][0],
            f"{where}: {open_label}, opened on line {rows[open_word][0]}, is never closed by the sentence's end",
        )
    return spans
