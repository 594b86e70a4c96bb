"""
Two kinds of chart as standalone SVG text, enough for the report's figures without a plotting
library: lines with points and error bars (optionally on a log x axis), and grouped bars.
"""
import math
from html import escape
from typing import List, NamedTuple, Optional, Sequence, Tuple

PALETTE = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd"]
FONT = 'font-family="Helvetica, Arial, sans-serif"'
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 62, 16, 34, 48


class Point(NamedTuple):
    x: float
    y: float
    error: float = 0.0  # drawn as a bar of ± error when positive


class Series(NamedTuple):
    label: str
    points: List[Point]
    color: str
    dashed: bool = False


def line_chart(title: str, series: Sequence[Series], x_label: str, y_label: str, log_x: bool = False,
               integer_x: bool = False, width: int = 520, height: int = 300) -> str:
    """Points joined by lines, one colour per series, with a legend beside the plot."""
    legend_width = _legend_width([s.label for s in series])
    plot = _Frame(width, height, legend_width)
    points = [p for s in series for p in s.points]
    xs = [p.x for p in points]
    ys = [v for p in points for v in (p.y - p.error, p.y + p.error)]
    x_axis = _LogAxis(xs) if log_x else _LinearAxis(xs, integer=integer_x)
    y_axis = _LinearAxis(ys)
    parts = [plot.open(title), *plot.axes(x_axis, y_axis, x_label, y_label)]
    for s in series:
        ordered = sorted(s.points)
        coordinates = [(plot.x(x_axis.position(p.x)), plot.y(y_axis.position(p.y))) for p in ordered]
        dash = ' stroke-dasharray="5,3"' if s.dashed else ""
        if len(coordinates) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coordinates)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{s.color}" stroke-width="1.8"{dash}/>')
        for p, (x, y) in zip(ordered, coordinates):
            if p.error > 0:
                low, high = plot.y(y_axis.position(p.y - p.error)), plot.y(y_axis.position(p.y + p.error))
                parts.append(f'<line x1="{x:.1f}" y1="{low:.1f}" x2="{x:.1f}" y2="{high:.1f}" stroke="{s.color}" stroke-width="1.2"/>')
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{s.color}"><title>{escape(s.label)}: {p.y:.4g} at {p.x:.4g}</title></circle>')
    parts.append(plot.legend([(s.label, s.color) for s in series]))
    return "\n".join(parts + ["</svg>"])


def bar_chart(title: str, groups: Sequence[Tuple[str, Sequence[Tuple[str, float]]]], y_label: str,
              y_max: Optional[float] = None, width: int = 520, height: int = 260) -> str:
    """One cluster of bars per group (e.g. per biLM layer), one colour per bar label, with a legend."""
    labels: List[str] = []
    for _, bars in groups:
        labels += [label for label, _ in bars if label not in labels]
    colors = {label: PALETTE[index % len(PALETTE)] for index, label in enumerate(labels)}
    plot = _Frame(width, height, _legend_width(labels))
    values = [value for _, bars in groups for _, value in bars]
    y_axis = _LinearAxis([0.0] + values + ([y_max] if y_max is not None else []), include_zero=True)
    parts = [plot.open(title), *plot.axes(None, y_axis, "", y_label)]
    slot = plot.inner_width / max(1, len(groups))
    for index, (group, bars) in enumerate(groups):
        left = plot.left + index * slot
        bar_width = slot * 0.8 / max(1, len(bars))
        for position, (label, value) in enumerate(bars):
            x = left + slot * 0.1 + position * bar_width
            top, bottom = plot.y(y_axis.position(value)), plot.y(y_axis.position(0.0))
            parts.append(
                f'<rect x="{x:.1f}" y="{min(top, bottom):.1f}" width="{bar_width * 0.92:.1f}" height="{abs(bottom - top):.1f}" '
                f'fill="{colors[label]}"><title>{escape(group)}, {escape(label)}: {value:.3f}</title></rect>'
            )
        parts.append(_text(left + slot / 2, plot.bottom + 16, group, anchor="middle"))
    parts.append(plot.legend([(label, colors[label]) for label in labels]))
    return "\n".join(parts + ["</svg>"])


class _Frame:
    """The plot area inside the margins, and the SVG for its frame, axes and legend."""

    def __init__(self, width: int, height: int, legend_width: int) -> None:
        self.width, self.height = width + legend_width, height
        self.left, self.right = MARGIN_LEFT, width - MARGIN_RIGHT
        self.top, self.bottom = MARGIN_TOP, height - MARGIN_BOTTOM
        self.inner_width, self.inner_height = self.right - self.left, self.bottom - self.top

    def x(self, fraction: float) -> float:
        return self.left + fraction * self.inner_width

    def y(self, fraction: float) -> float:
        return self.bottom - fraction * self.inner_height

    def open(self, title: str) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" {FONT} font-size="11">\n'
            f'<rect width="100%" height="100%" fill="white"/>\n'
            + _text(self.width / 2, 18, title, anchor="middle", size=13)
        )

    def axes(self, x_axis, y_axis, x_label: str, y_label: str) -> List[str]:
        parts = [f'<rect x="{self.left}" y="{self.top}" width="{self.inner_width}" height="{self.inner_height}" fill="none" stroke="#444"/>']
        for value, label in y_axis.ticks():
            y = self.y(y_axis.position(value))
            parts.append(f'<line x1="{self.left}" y1="{y:.1f}" x2="{self.right}" y2="{y:.1f}" stroke="#e4e4e4"/>')
            parts.append(_text(self.left - 5, y + 4, label, anchor="end"))
        if x_axis is not None:
            for value, label in x_axis.ticks():
                x = self.x(x_axis.position(value))
                parts.append(f'<line x1="{x:.1f}" y1="{self.bottom}" x2="{x:.1f}" y2="{self.bottom + 4}" stroke="#444"/>')
                parts.append(_text(x, self.bottom + 16, label, anchor="middle"))
            parts.append(_text(self.left + self.inner_width / 2, self.height - 8, x_label, anchor="middle"))
        middle = self.top + self.inner_height / 2
        parts.append(f'<text x="14" y="{middle:.1f}" text-anchor="middle" transform="rotate(-90 14 {middle:.1f})">{escape(y_label)}</text>')
        return parts

    def legend(self, entries: Sequence[Tuple[str, str]]) -> str:
        lines = []
        for index, (label, color) in enumerate(entries):
            y = self.top + 8 + index * 16
            lines.append(f'<rect x="{self.right + 14}" y="{y - 8}" width="10" height="10" fill="{color}"/>')
            lines.append(_text(self.right + 28, y + 1, label))
        return "\n".join(lines)


class _LinearAxis:
    """
    Maps values to [0, 1] over a padded range with round ticks (steps of 1, 2 or 5 times a power of
    ten; whole numbers when `integer`). The range does not go below zero for values that do not.
    """

    def __init__(self, values: Sequence[float], include_zero: bool = False, integer: bool = False) -> None:
        low, high = (min(values), max(values)) if values else (0.0, 1.0)
        non_negative = low >= 0
        if include_zero:
            low = min(low, 0.0)
        if high - low < 1e-9:
            low, high = low - 0.5, high + 0.5
        padding = 0.0 if include_zero else (high - low) * 0.08
        self.step = _round_step((high - low) / 5)
        if integer:
            self.step = max(1.0, float(math.ceil(self.step)))
        self.low = math.floor((low - padding) / self.step) * self.step
        self.high = math.ceil((high + padding) / self.step) * self.step
        if non_negative:
            self.low = max(self.low, 0.0)

    def position(self, value: float) -> float:
        return (value - self.low) / (self.high - self.low)

    def ticks(self) -> List[Tuple[float, str]]:
        count = int(round((self.high - self.low) / self.step))
        decimals = max(0, -int(math.floor(math.log10(self.step)))) if self.step < 1 else 0
        return [(self.low + i * self.step, f"{self.low + i * self.step:.{decimals}f}") for i in range(count + 1)]


class _LogAxis:
    """A base-10 logarithmic axis whose ticks are the data's own x values."""

    def __init__(self, values: Sequence[float]) -> None:
        self.values = sorted(set(values)) or [1.0]
        self.low = math.log10(self.values[0]) - 0.15
        self.high = math.log10(self.values[-1]) + 0.15

    def position(self, value: float) -> float:
        return (math.log10(value) - self.low) / (self.high - self.low)

    def ticks(self) -> List[Tuple[float, str]]:
        return [(value, f"{value:g}") for value in self.values]


def _round_step(raw: float) -> float:
    magnitude = 10 ** math.floor(math.log10(raw))
    for multiple in (1, 2, 5, 10):
        if raw <= multiple * magnitude:
            return multiple * magnitude
    return 10 * magnitude


def _legend_width(labels: Sequence[str]) -> int:
    return 40 + 6 * max((len(label) for label in labels), default=0)


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 11) -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}">{escape(text)}</text>'
