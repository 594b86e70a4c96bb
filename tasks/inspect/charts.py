"""
The inspection commands' figures as standalone SVG: heatmaps of similarity matrices, one panel per
view, drawn here; bar charts per layer come from `tasks.common.plots`.
"""

from html import escape
from typing import Dict, Sequence

import numpy

from tasks.inspect.vectors import view_title

CELL, PANEL_GAP, TOP, LEFT = 34, 30, 48, 40
FONT = 'font-family="Helvetica, Arial, sans-serif"'


def heatmap(
    title: str, matrices: Dict[str, numpy.ndarray], row_labels: Sequence[str], notes: Sequence[str] = ()
) -> str:
    """
    One square panel per view, a cell per pair of rows shaded from white (the lowest value in the
    figure) to dark blue (1), so that differences show even when every cosine is high; the value is
    written in each cell, the scale under the panels, and `notes` (e.g. the sentences) below it.
    """
    lowest = min(float(matrix.min()) for matrix in matrices.values())
    low = lowest if lowest < 1 - 1e-6 else 0.0
    count = len(row_labels)
    side = count * CELL
    width = LEFT + len(matrices) * (side + PANEL_GAP) + 10
    height = TOP + side + 30 + 16 * (len(notes) + 1) + 10
    width = max(width, 40 + 6 * max((len(note) for note in notes), default=0))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'{FONT} font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{width / 2:.1f}" y="18" text-anchor="middle" font-size="13">{escape(title)}</text>',
    ]
    for panel, (name, matrix) in enumerate(matrices.items()):
        left = LEFT + panel * (side + PANEL_GAP)
        parts.append(
            f'<text x="{left + side / 2:.1f}" y="{TOP - 8}" text-anchor="middle">{escape(view_title(name))}</text>'
        )
        for row in range(count):
            if panel == 0:
                parts.append(
                    f'<text x="{left - 6}" y="{TOP + row * CELL + CELL / 2 + 4:.1f}" '
                    f'text-anchor="end">{escape(row_labels[row])}</text>'
                )
            parts.append(
                f'<text x="{left + row * CELL + CELL / 2:.1f}" y="{TOP + side + 14}" '
                f'text-anchor="middle">{escape(row_labels[row])}</text>'
            )
            for column in range(count):
                value = float(matrix[row, column])
                shade = min(1.0, max(0.0, (value - low) / (1.0 - low)))
                fill = f"rgb({_channel(255, 33, shade)},{_channel(255, 84, shade)},{_channel(255, 160, shade)})"
                ink = "white" if shade > 0.55 else "black"
                x, y = left + column * CELL, TOP + row * CELL
                parts.append(
                    f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="white">'
                    f"<title>{escape(row_labels[row])} / {escape(row_labels[column])}: {value:.4f}</title></rect>"
                )
                parts.append(
                    f'<text x="{x + CELL / 2:.1f}" y="{y + CELL / 2 + 4:.1f}" text-anchor="middle" font-size="9" '
                    f'fill="{ink}">{value:.2f}</text>'
                )
    scale = f"Shading: white = {low:.2f} (the lowest value here), dark blue = 1.00."
    for line, note in enumerate([scale, *notes]):
        parts.append(f'<text x="10" y="{TOP + side + 36 + 16 * line}">{escape(note)}</text>')
    return "\n".join(parts + ["</svg>"])


def _channel(low_value: int, high_value: int, shade: float) -> int:
    return round(low_value + (high_value - low_value) * shade)
