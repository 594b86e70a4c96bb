"""
Opens model archives (`model.tar.gz`) without letting them write outside their folder.

AllenNLP 2.10.1 extracts an archive with a bare `TarFile.extractall` (no filter on Python 3.11), so
`allennlp predict`, `allennlp evaluate` and `Predictor.from_path` on an archive whose members are
named `../x` or `/etc/x`, or are links, create or change files anywhere the user can write. We
replace `allennlp.models.archival.extracted_archive` (which `load_archive` and the
`pretrained` initializer call) with one that reads the member list first and refuses the whole
archive, naming it and the member, unless every member is a plain file or folder inside the
extraction folder; it then extracts with Python's `data` filter as well. A file that is not a
gzipped tar archive (truncated, or something else) is refused with its name too.
"""

import logging
import shutil
import tarfile
import tempfile
from contextlib import contextmanager
from pathlib import PurePosixPath
from typing import Iterator, List

from allennlp.common.checks import ConfigurationError
from allennlp.models import archival

logger = logging.getLogger(__name__)


class UnsafeArchiveError(ConfigurationError):
    """A model archive that could not be opened safely, and why."""


def safe_members(archive_path: str, archive: tarfile.TarFile) -> List[tarfile.TarInfo]:
    """Every member of `archive`, if all are plain files or folders with relative paths that stay inside."""
    members = archive.getmembers()
    for member in members:
        problem = None
        if not (member.isfile() or member.isdir()):
            kind = "a symbolic link" if member.issym() else "a hard link" if member.islnk() else "a device or pipe"
            problem = f"is {kind}; a model archive holds only files and folders"
        else:
            path = PurePosixPath(member.name)
            if path.is_absolute():
                problem = "has an absolute path"
            elif ".." in path.parts:
                problem = "climbs out of the archive's folder ('..')"
        if problem:
            raise UnsafeArchiveError(
                f"{archive_path}: refusing to open this model archive: member {member.name!r} {problem}. "
                "Nothing was extracted. Ask whoever made the archive for one written by `allennlp train`."
            )
    return members


@contextmanager
def extracted_archive(resolved_archive_file: str, cleanup: bool = True) -> Iterator[str]:
    """AllenNLP's `extracted_archive`, extracting only archives whose members all stay inside the folder."""
    tempdir = tempfile.mkdtemp()
    try:
        logger.info(f"extracting archive file {resolved_archive_file} to temp dir {tempdir}")
        try:
            with tarfile.open(resolved_archive_file, "r:gz") as archive:
                members = safe_members(resolved_archive_file, archive)
                archive.extractall(tempdir, members=members, filter="data")
        except (tarfile.TarError, EOFError, OSError) as error:
            raise ConfigurationError(
                f"{resolved_archive_file}: not a readable model archive (a gzipped tar file as "
                f"`allennlp train` writes): {error}"
            ) from None
        yield tempdir
    except BaseException:
        shutil.rmtree(tempdir, ignore_errors=True)
        raise
    else:
        if cleanup:
            logger.info(f"removing temporary unarchived model dir at {tempdir}")
            shutil.rmtree(tempdir, ignore_errors=True)


archival.extracted_archive = extracted_archive
