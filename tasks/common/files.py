"""What the suite needs to know of a file's bytes."""

import hashlib
from pathlib import Path
from typing import Union

BLOCK_SIZE = 1 << 20  # read 1 MiB at a time: a weight file of hundreds of megabytes never sits in memory whole


def file_sha256(path: Union[str, Path]) -> str:
    """The hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(BLOCK_SIZE), b""):
            digest.update(block)
    return digest.hexdigest()
