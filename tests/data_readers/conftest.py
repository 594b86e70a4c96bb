"""Fixtures of the reader tests."""

import pytest

from tests.helpers.srl_data import write_fixtures


@pytest.fixture
def srl_files(tmp_path):
    """`(CoNLL-U file, CoNLL-2012 file)` holding the same invented frames (tests/helpers/srl_data.py)."""
    return write_fixtures(tmp_path)
