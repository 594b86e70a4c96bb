"""
`allennlp predict` answers every input line, in order, whatever the line holds.

AllenNLP 2.10.1 skips blank input lines (so output line k no longer answers input line k) and
decodes the whole input as UTF-8 text, so one line of other bytes stops the run with a bare
`UnicodeDecodeError` and the lines after it are never predicted. We replace
`_PredictManager._get_json_data`: it reads the input as bytes and decodes each line alone (a byte
order mark on the first line is dropped). A blank line or one that is not UTF-8 becomes an
`UnreadableLine`, which the suite's predictors (those with `answers_unreadable_lines`) answer with
`{"error": ..., "input": ...}` in its place; for any other predictor a blank line is skipped as
before, and a line that is not UTF-8 stops the run naming the file and the line.
"""

import sys
from contextlib import nullcontext
from typing import Iterator

from allennlp.commands.predict import _PredictManager
from allennlp.common.checks import ConfigurationError
from allennlp.common.file_utils import cached_path, open_compressed
from allennlp.common.util import JsonDict


class UnreadableLine(str):
    """An input line that is blank or not UTF-8: its text (undecodable bytes replaced) and why it was not read."""

    def __new__(cls, text: str, line_number: int, reason: str) -> "UnreadableLine":
        line = super().__new__(cls, text)
        line.line_number = line_number
        line.reason = f"input line {line_number}: {reason}"
        return line


def input_lines(manager: _PredictManager) -> Iterator[JsonDict]:
    """What `_get_json_data` yields, one item per input line."""
    predictor = manager._predictor
    answers_unreadable = getattr(predictor, "answers_unreadable_lines", False)
    name = "standard input" if manager._input_file == "-" else manager._input_file
    if manager._input_file == "-":
        source = nullcontext(sys.stdin.buffer)
    else:
        source = open_compressed(cached_path(manager._input_file), "rb", encoding=None)
    with source as lines:
        for line_number, raw_line in enumerate(lines, start=1):
            try:
                text = raw_line.decode("utf-8")
            except UnicodeDecodeError as error:
                reason = f"not UTF-8 text (byte {raw_line[error.start]:#04x} at byte {error.start + 1})"
                if not answers_unreadable:
                    raise ConfigurationError(f"{name}, line {line_number}: {reason}") from None
                yield UnreadableLine(raw_line.decode("utf-8", errors="replace").rstrip("\r\n"), line_number, reason)
                continue
            if line_number == 1:
                text = text.removeprefix("\ufeff")
            if text.isspace() or not text:
                if answers_unreadable:
                    yield UnreadableLine(text.rstrip("\r\n"), line_number, "blank line, expected a JSON object")
                continue
            yield predictor.load_line(text)


_PredictManager._get_json_data = input_lines
