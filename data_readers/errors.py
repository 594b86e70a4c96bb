"""The error every reader raises for malformed input (where it is, and what was expected), and the
line reader that raises it for text that is not UTF-8."""

from os import PathLike
from typing import Iterator, Tuple, Union


class DataFormatError(ValueError):
    """Malformed input at `path`, line `line_number` (1-based): `message` says what was expected."""

    def __init__(self, path: Union[str, PathLike], line_number: int, message: str) -> None:
        self.path = str(path)
        self.line_number = line_number
        super().__init__(f"{self.path}, line {line_number}: {message}")


def numbered_lines(path: Union[str, PathLike]) -> Iterator[Tuple[int, str]]:
    """
    `(line number, line)` for each line of a UTF-8 file, 1-based; bytes that are not UTF-8 stop with
    the line. A byte order mark at the start (as Windows tools write) is not part of the first line.
    """
    with open(path, "rb") as data_file:
        for line_number, raw_line in enumerate(data_file, start=1):
            try:
                line = raw_line.decode("utf-8")
            except UnicodeDecodeError as error:
                raise DataFormatError(
                    path, line_number, f"expected UTF-8 text, found byte {raw_line[error.start]:#04x}"
                ) from None
            yield line_number, (line.removeprefix("\ufeff") if line_number == 1 else line)
