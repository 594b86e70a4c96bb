"""
The status table of the README: for each task, the paper's baseline and ELMo beside ours and the
verdict (ELMo − baseline with its 95% interval, tasks/reproduce/comparison.py), read
from Table 1 of the committed report of the cpu plan (docs/reproduce_cpu/README.md, written by
`allennlp report`), so that the README states no number of its own and cannot drift from the
report. `scripts/readme_status.py` writes the table into the README between `BEGIN` and `END`;
a test checks that the README holds what `status_table` gives.
"""

from pathlib import Path
from typing import Dict, List

from tasks.environment import PROJECT_ROOT
from tasks.reproduce.document import read_markdown_table
from tasks.reproduce.paper import TASKS

REPORT = PROJECT_ROOT / "docs" / "reproduce_cpu" / "README.md"
README = PROJECT_ROOT / "README.md"
TABLE_1_HEADING = "## Table 1"
VERDICT = "Ours: ELMo − baseline [95% interval]: verdict"
BEGIN = "<!-- status table: written by scripts/readme_status.py from docs/reproduce_cpu/README.md -->"
END = "<!-- end of status table -->"


def status_table(report: Path = REPORT, root: Path = PROJECT_ROOT) -> str:
    """The README's status table (Markdown), one row per row of the report's Table 1."""
    headers, rows = read_markdown_table(report.read_text(encoding="utf-8"), TABLE_1_HEADING)
    column = {header: index for index, header in enumerate(headers)}
    lines = [
        "| Task | Configs | Metric | Paper: baseline → ELMo | Ours, cpu plan: baseline → ELMo "
        "| Ours: ELMo − baseline [95% interval]: verdict |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        title = row[column["Task"]]
        task = _task_of(title)
        lines.append(
            f"| [{title}](docs/{task}.md) | {_configs(task, root)} | {row[column['Metric']]} "
            f"| {row[column['Paper: baseline']]} → {row[column['Paper: ELMo']]} "
            f"| {row[column['Ours: baseline']]} → {row[column['Ours: ELMo']]} "
            f"| {row[column[VERDICT]]} |"
        )
    return "\n".join(lines) + "\n"


def with_status_table(readme: str, table: str) -> str:
    """`readme` with `table` between its markers (which it must have, once each)."""
    if readme.count(BEGIN) != 1 or readme.count(END) != 1:
        raise ValueError(f"the README must hold the markers {BEGIN!r} and {END!r} once each")
    before, rest = readme.split(BEGIN)
    _, after = rest.split(END)
    return f"{before}{BEGIN}\n{table}{END}{after}"


def table_in(readme: str) -> str:
    """What the README holds between its markers."""
    return readme.split(BEGIN, 1)[1].split(END, 1)[0].lstrip("\n")


def _task_of(title: str) -> str:
    """The task of a report row: its title is the task's, perhaps followed by a label in parentheses."""
    titles: Dict[str, str] = {spec.title: task for task, spec in TASKS.items()}
    return titles[title.split(" (")[0]]


def _configs(task: str, root: Path) -> str:
    """The task's configs: the main ones and, where there are any, its ablations."""
    main: List[str] = sorted(path.name for path in (root / "configs").glob(f"{task}_*.jsonnet"))
    names = [f"`{name}`" for name in main]
    if any((root / "configs" / "ablations").glob(f"{task}_*.jsonnet")):
        names.append(f"`ablations/{task}_*`")
    return ", ".join(names)
