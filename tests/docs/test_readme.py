"""The README: its status table is the committed report's, its links lead somewhere, its layout is complete."""

import fnmatch
import re

from tasks.reproduce.status import README, REPORT, status_table, table_in
from tests.helpers.repository import ROOT


def _readme() -> str:
    return README.read_text(encoding="utf-8")


def test_the_status_table_is_the_one_the_report_gives():
    assert table_in(_readme()) == status_table(REPORT)


def test_every_link_leads_to_a_file_or_folder_of_the_repository():
    targets = re.findall(r"\]\((?!https?://)([^)#]+)", _readme())
    assert targets
    assert [target for target in targets if not (ROOT / target).exists()] == []


def test_the_layout_names_every_top_level_folder_and_every_package_of_tasks():
    layout = _readme().split("## Layout", 1)[1].split("\n## ", 1)[0]
    ignored = [line.strip().strip("/") for line in (ROOT / ".gitignore").read_text().splitlines() if line.strip()]
    folders = [
        path.name
        for path in ROOT.iterdir()
        if path.is_dir() and not path.name.startswith(".") and not any(fnmatch.fnmatch(path.name, p) for p in ignored)
    ]
    packages = [path.name for path in (ROOT / "tasks").iterdir() if (path / "__init__.py").is_file()]
    assert [name for name in folders + packages if f"{name}/" not in layout] == []
