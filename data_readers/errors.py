"""The error every reader raises for malformed input: where it is, and what was expected."""
from typing import Union
from os import PathLike


class DataFormatError(ValueError):
    """Malformed input at `path`, line `line_number` (1-based): `message` says what was expected."""

    def __init__(self, path: Union[str, PathLike], line_number: int, message: str) -> None:
        self.path = str(path)
        self.line_number = line_number
        super().__init__(f"{self.path}, line {line_number}: {message}")
