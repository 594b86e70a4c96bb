"""
The suite's charts, drawn with matplotlib and returned as SVG text (inline in an HTML page, or a
file beside a Markdown one): the reproduction report's Figure 1 (the metric against the training
fraction, one panel per task), Figure 2 (the learned layer weights) and training curves, and the
inspection commands' grouped bars.
"""

import io
import math
from typing import Dict, List, NamedTuple, Sequence, Tuple

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

matplotlib.rcParams.update(
    {
        "svg.fonttype": "none",
        "svg.hashsalt": "elmo-suite",  # element ids from the content, not random: the same runs give the same file
        "font.size": 9,
        "axes.spines.top": False,
        "axes.spines.right": False,
    }
)
COLORS = {"baseline": "#4c72b0", "elmo": "#dd8452"}
OTHER_COLORS = ["#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c"]


class Point(NamedTuple):
    x: float
    mean: float
    std: float  # 0 with one seed
    n: int


def gap(x: float) -> Point:
    """A point with no value yet: the curve's line breaks there (matplotlib does not draw through NaN)."""
    return Point(x, math.nan, 0.0, 0)


def is_gap(point: Point) -> bool:
    return math.isnan(point.mean)


class Curve(NamedTuple):
    label: str
    points: List[Point]
    color: str
    dashed: bool = False


class Panel(NamedTuple):
    title: str
    curves: List[Curve]
    y_label: str


def color_of(config: str, index: int) -> str:
    return COLORS.get(config, OTHER_COLORS[index % len(OTHER_COLORS)])


def fraction_panels(panels: Sequence[Panel]) -> str:
    """Figure 1: one panel per task, mean ± one standard deviation against the training fraction (log scale).

    At most three panels a row, the rows as even as they can be (four panels: two by two), so that the
    figure keeps a page's width and its text a readable size however many tasks it has."""
    rows = math.ceil(len(panels) / 3)
    columns = math.ceil(len(panels) / rows)
    figure, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.4 * rows), squeeze=False)
    for axis in axes.flat[len(panels) :]:
        axis.remove()
    for axis, panel in zip(axes.flat, panels):
        # each point's "n=" label goes above it where its curve is the highest at that fraction, below it
        # elsewhere, so that no label sits on another curve's line
        highest: Dict[float, float] = {}
        for point in (point for curve in panel.curves for point in curve.points if not is_gap(point)):
            highest[point.x] = max(highest.get(point.x, -math.inf), point.mean)
        for curve in panel.curves:
            xs = [point.x for point in curve.points]
            means = [point.mean for point in curve.points]
            low = [point.mean - point.std for point in curve.points]
            high = [point.mean + point.std for point in curve.points]
            axis.plot(
                xs, means, marker="o", color=curve.color, label=curve.label, linestyle="--" if curve.dashed else "-"
            )
            axis.fill_between(xs, low, high, color=curve.color, alpha=0.2, linewidth=0)
            for point in (point for point in curve.points if not is_gap(point)):
                above = point.mean == highest[point.x]
                axis.annotate(
                    f"n={point.n}",
                    (point.x, point.mean),
                    textcoords="offset points",
                    xytext=(0, 5 if above else -6),
                    ha="center",
                    va="bottom" if above else "top",
                    fontsize=7,
                    color=curve.color,
                )
        # room above the highest point and below the lowest for their "n=" labels, which autoscaling
        # (by the data alone) would leave astride the frame
        axis.margins(y=0.12)
        # a tick at each fraction run, in per cent as the paper's Figure 1 has them, and no others
        fractions = sorted({point.x for curve in panel.curves for point in curve.points})
        axis.set_xscale("log")
        axis.set_xticks(fractions, [f"{fraction * 100:g}%" for fraction in fractions])
        axis.xaxis.set_minor_locator(ticker.NullLocator())
        axis.set_xlabel("part of the training set (log scale)")
        axis.set_ylabel(panel.y_label)
        axis.set_title(panel.title)
        axis.legend(frameon=False)
    return _svg(figure)


def epoch_curves(panel: Panel) -> str:
    """A task's development metric after each epoch, one line per run."""
    figure, axis = plt.subplots(figsize=(7.5, 3.4))
    for curve in panel.curves:
        axis.plot(
            [point.x for point in curve.points],
            [point.mean for point in curve.points],
            color=curve.color,
            linestyle="--" if curve.dashed else "-",
            linewidth=1.2,
            label=curve.label,
        )
    axis.set_xlabel("epoch")
    axis.set_ylabel(panel.y_label)
    axis.set_title(panel.title)
    axis.xaxis.get_major_locator().set_params(integer=True)
    axis.legend(frameon=False, fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    return _svg(figure)


def layer_weights(title: str, places: Dict[str, Tuple[List[float], List[float]]], layer_names: Sequence[str]) -> str:
    """
    Figure 2: the softmax-normalised weight of each biLM layer (mean ± std over seeds), one bar per
    place ELMo enters.
    """
    figure, axis = plt.subplots(figsize=(5.5, 3.2))
    width = 0.8 / max(1, len(places))
    for index, (place, (means, stds)) in enumerate(sorted(places.items())):
        positions = [layer + (index - (len(places) - 1) / 2) * width for layer in range(len(means))]
        axis.bar(
            positions, means, width, yerr=stds, capsize=3, label=place, color=OTHER_COLORS[index % len(OTHER_COLORS)]
        )
    axis.set_xticks(range(len(layer_names)), layer_names)
    axis.set_ylim(0, 1)
    axis.set_ylabel("weight")
    axis.set_title(title)
    axis.legend(frameon=False, title="ELMo at the")
    return _svg(figure)


def grouped_bars(title: str, groups: Sequence[Tuple[str, Sequence[Tuple[str, float]]]], y_label: str) -> str:
    """One cluster of bars per group (e.g. per biLM view), one colour per bar label."""
    labels: List[str] = []
    for _, bars in groups:
        labels += [label for label, _ in bars if label not in labels]
    figure, axis = plt.subplots(figsize=(max(5.5, 1.1 * len(groups) + 2), 3.2))
    width = 0.8 / max(1, len(labels))
    for index, label in enumerate(labels):
        positions = [
            group + (index - (len(labels) - 1) / 2) * width
            for group, (_, bars) in enumerate(groups)
            if label in dict(bars)
        ]
        values = [dict(bars)[label] for _, bars in groups if label in dict(bars)]
        axis.bar(positions, values, width, label=label, color=OTHER_COLORS[index % len(OTHER_COLORS)])
    axis.set_xticks(range(len(groups)), [name for name, _ in groups], rotation=15, ha="right")
    axis.set_ylabel(y_label)
    axis.set_title(title)
    axis.legend(frameon=False, fontsize=7)
    return _svg(figure)


def _svg(figure) -> str:
    figure.tight_layout()
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})  # no date: the same runs give the same file
    plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg") :]  # inline in HTML: no XML declaration or doctype
