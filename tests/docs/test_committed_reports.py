"""
The committed reports are what their plans' committed records give, byte for byte: a record added
without the report rebuilt, or a report edited by hand, fails here, naming the file and the lines.
"""

import difflib
from pathlib import Path

import pytest

from tasks.reproduce.commands import build_records_report
from tests.helpers.repository import ROOT

# plan -> its committed report; each rebuilt with `allennlp report --plan PLAN --output FOLDER`
REPORTS = {"plans/cpu.jsonnet": "docs/reproduce_cpu", "plans/elmo_losses.jsonnet": "docs/reproduce_elmo_losses"}


def _files(folder: Path):
    return {str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


@pytest.mark.parametrize("plan, folder", sorted(REPORTS.items()))
def test_the_committed_report_is_what_the_committed_records_give(plan, folder, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    build_records_report(plan, tmp_path)
    committed, rebuilt = _files(ROOT / folder), _files(tmp_path)
    assert sorted(committed) == sorted(rebuilt), f"{folder}: other files than a rebuild gives"
    stale = [name for name in sorted(committed) if committed[name] != rebuilt[name]]
    if stale:
        first = stale[0]
        diff = difflib.unified_diff(
            committed[first].decode().splitlines(),
            rebuilt[first].decode().splitlines(),
            f"{folder}/{first} (committed)",
            "rebuilt from the records",
            lineterm="",
            n=0,
        )
        shown = "\n".join(line[:300] for line in list(diff)[:20])
        pytest.fail(
            f"{folder} is stale: {', '.join(stale)} differ from a rebuild from the records. Rebuild it with "
            f"`allennlp report --plan {plan} --output {folder}` and `python scripts/readme_status.py --write`.\n{shown}"
        )
