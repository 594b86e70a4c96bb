"""What scripts/install.sh sets up besides the packages: a start-up that prints only the command's own output."""

import re

import pytest

from tests.helpers.repository import allennlp

LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - (INFO|WARNING) - ")


@pytest.mark.slow
def test_the_allennlp_command_starts_without_other_packages_noise(tmp_path):
    """
    No deprecation warnings from allennlp's imports, no NLTK download attempt by allennlp-models, no
    note that the suite's replacements overwrite AllenNLP's: only log lines and the command's output.
    """
    result = allennlp("reproduce", "plans/smoke.jsonnet", "--dry-run", "--runs-dir", str(tmp_path), environment=None)
    assert "[nltk_data]" not in result.stderr
    assert "Warning" not in result.stderr and "exist_ok" not in result.stderr
    assert [line for line in result.stderr.splitlines() if not LOG_LINE.match(line)] == []
    assert "ner-elmo-seed1: start" in result.stdout
