"""
A report as a list of blocks (headings, paragraphs, lists, tables, figures), written both as
Markdown (figures as SVG files beside it) and as one self-contained HTML file (figures inline);
and a table of such Markdown read back (`read_markdown_table`).
"""

import re
from html import escape
from pathlib import Path
from typing import List, NamedTuple, Sequence, Tuple, Union


class Heading(NamedTuple):
    level: int
    text: str


class Paragraph(NamedTuple):
    text: str


class Items(NamedTuple):
    items: List[str]


class Table(NamedTuple):
    headers: List[str]
    rows: List[List[str]]


class Figure(NamedTuple):
    name: str  # file name without .svg
    svg: str
    caption: str


Block = Union[Heading, Paragraph, Items, Table, Figure]

STYLE = """
body { font-family: Helvetica, Arial, sans-serif; max-width: 1200px; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
figure { margin: 1.5em 0; }
.figures { display: flex; flex-wrap: wrap; gap: 0 2em; }
.figures figure { flex: 0 1 560px; margin: 1em 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 13px; color: #444; max-width: 800px; }
code { background: #f4f4f4; padding: 0 3px; }
td code { overflow-wrap: anywhere; }
"""


def write_markdown(blocks: Sequence[Block], path: Path) -> None:
    """
    Writes `path` and each figure as `figures/<name>.svg` beside it; an SVG left there by an earlier
    build whose figure this one no longer has is removed, so the folder holds this report's figures only.
    """
    figures = path.parent / "figures"
    written = {f"{block.name}.svg" for block in blocks if isinstance(block, Figure)}
    if figures.is_dir():
        for stale in figures.glob("*.svg"):
            if stale.name not in written:
                stale.unlink()
    lines: List[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            lines += ["#" * block.level + " " + block.text, ""]
        elif isinstance(block, Paragraph):
            lines += [block.text, ""]
        elif isinstance(block, Items):
            lines += [f"- {item}" for item in block.items] + [""]
        elif isinstance(block, Table):
            lines.append("| " + " | ".join(_cell(header) for header in block.headers) + " |")
            lines.append("|" + "---|" * len(block.headers))
            lines += ["| " + " | ".join(_cell(value) for value in row) + " |" for row in block.rows]
            lines.append("")
        elif isinstance(block, Figure):
            figures.mkdir(parents=True, exist_ok=True)
            (figures / f"{block.name}.svg").write_text(block.svg + "\n", encoding="utf-8")
            lines += [f"![{block.caption.split('. ')[0]}](figures/{block.name}.svg)", "", f"*{block.caption}*", ""]
    path.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")


def write_html(blocks: Sequence[Block], title: str, path: Path) -> None:
    """Writes one HTML file that needs nothing else: style and figures inline."""
    body: List[str] = []
    for index, block in enumerate(blocks):
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{_inline(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            body.append(f"<p>{_inline(block.text)}</p>")
        elif isinstance(block, Items):
            body.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in block.items) + "</ul>")
        elif isinstance(block, Table):
            head = "".join(f"<th>{_inline(header)}</th>" for header in block.headers)
            rows = "".join(
                "<tr>" + "".join(f"<td>{_inline(value)}</td>" for value in row) + "</tr>" for row in block.rows
            )
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif isinstance(block, Figure):
            # a run of figures (Figure 2's, the training curves) flows side by side rather than one a screen
            previous_is_figure = index > 0 and isinstance(blocks[index - 1], Figure)
            next_is_figure = index + 1 < len(blocks) and isinstance(blocks[index + 1], Figure)
            in_a_run = previous_is_figure or next_is_figure
            opening = '<div class="figures">' if in_a_run and not previous_is_figure else ""
            closing = "</div>" if in_a_run and not next_is_figure else ""
            body.append(
                f"{opening}<figure>{block.svg}<figcaption>{_inline(block.caption)}</figcaption></figure>{closing}"
            )
    page = (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{escape(title)}</title>\n'
        f"<style>{STYLE}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )
    path.write_text(page, encoding="utf-8")


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def read_markdown_table(markdown: str, heading: str) -> Tuple[List[str], List[List[str]]]:
    """
    `(headers, rows)` of the first table after the first heading that starts with `heading`, as
    `write_markdown` wrote it.
    """
    lines = markdown.splitlines()
    start = next((number for number, line in enumerate(lines) if line.startswith(heading)), None)
    if start is None:
        raise ValueError(f"no heading {heading!r}")
    table = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            table.append(line)
        elif table:
            break
    if len(table) < 2:
        raise ValueError(f"no table under the heading {heading!r}")
    headers, _, *rows = [_cells(line) for line in table]
    return headers, rows


def _cells(line: str) -> List[str]:
    """The cells of a Markdown table row, `\\|` read back as `|`."""
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line.strip()[1:-1])]


def _inline(text: str) -> str:
    """HTML for our Markdown subset: `code` spans and **bold**; everything else escaped."""
    parts = escape(str(text)).split("`")
    html = "".join(f"<code>{part}</code>" if index % 2 else part for index, part in enumerate(parts))
    pieces = html.split("**")
    return "".join(f"<strong>{piece}</strong>" if index % 2 else piece for index, piece in enumerate(pieces))
