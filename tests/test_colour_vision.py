"""Colour never fails a reader (issue #27, items 4 and 5): every palette the app draws with stays distinguishable
under protanopia, deuteranopia and tritanopia, simulated on its colours; on a projector chart marks are 4.5:1 and
text 7:1 against white; the ranked list's colours match the charts' and its chosen grade's digit reads at 7:1.

Distinguishable means a CIEDE2000 difference of at least MIN_DIFFERENCE between every two colours of a palette, to
normal vision and to each simulated dichromat (ir_metrics_lab.core.figures.colour_vision: Machado et al. 2009, severity
1). About 2 is a just-noticeable difference side by side; 10 is apart at a glance, as a chart's legend needs."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import plotly.graph_objects as go
import pytest

from ir_metrics_lab.classroom import live_class
from ir_metrics_lab.core.figures import (
    colour_vision,
    comparison_charts,
    curve_charts,
    palette,
    query_charts,
    rank_charts,
)
from ir_metrics_lab.shell import presenter
from metrics.catalog import registry

MIN_DIFFERENCE = 10.0
MARKS, TEXT = 4.5, 7.0  # presenter mode: chart marks and text against the white plot and page
VISIONS = [None, *colour_vision.DEFICIENCIES]
SORTABLE_CSS = Path(__file__).parents[1] / "ir_metrics_lab" / "parts" / "components" / "sortable.css"
C = palette.COLORS

# Every set of colours that stands for categories on one chart or card, by what the colours tell apart.
PALETTES = {
    "retrievers A and B (A vs B, Compare runs)": list(palette.SYSTEM_COLORS.values()),
    "grades (bars, cards and chips)": list(palette.GRADE_COLORS.values()),
    "metric curves (one per metric)": palette.SERIES_COLORS,
    "relevant vs not relevant": [C["blue"], C["grey"]],
    "your order vs the ideal order (DCG vs IDCG)": [C["blue"], C["green"]],
    "wins, ties and losses (per-query differences)": [
        palette.SYSTEM_COLORS["B"],
        C["grey"],
        palette.SYSTEM_COLORS["A"],
    ],
    "a poll's answers: right, a diagnosed mistake, other": [live_class.RIGHT, live_class.DIAGNOSED, live_class.OTHER],
    "a convention's effect: raises, lowers, total (ir_metrics_lab.core.lessons.tool_difference)": [
        C["green"],
        C["vermillion"],
        C["blue"],
    ],
    "precision-recall: each rank vs interpolated": [C["blue"], C["orange"]],
    "user models: weight vs earned, stop vs contribution vs reach": [C["sky"], C["blue"], C["orange"], C["green"]],
}


def test_the_simulation_keeps_greys_and_merges_red_and_green_for_a_deuteranope():
    grey = colour_vision.rgb("#808080")
    for deficiency in colour_vision.DEFICIENCIES:  # each matrix's rows add up to 1: a grey stays itself
        assert colour_vision.simulate(grey, deficiency) == pytest.approx(grey, abs=2e-3)
    normal = colour_vision.difference("#D62728", "#2CA02C")  # matplotlib's red and green
    assert colour_vision.difference("#D62728", "#2CA02C", "deuteranopia") < normal / 3
    # Blue and yellow are the pair a tritanope confuses, and the red-green pair stays apart for them.
    assert colour_vision.difference("#0000FF", "#FFFF00", "tritanopia") < colour_vision.difference(
        "#D62728", "#2CA02C", "tritanopia"
    )


@pytest.mark.parametrize("name", PALETTES)
def test_every_palette_is_told_apart_by_every_kind_of_colour_vision(name):
    colours = PALETTES[name]
    worst = min(
        (colour_vision.difference(a, b, vision), a, b, vision or "normal vision")
        for vision in VISIONS
        for a, b in combinations(colours, 2)
    )
    assert worst[0] >= MIN_DIFFERENCE, f"{name}: {worst[1]} and {worst[2]} look alike to {worst[3]}: {worst[0]:.1f}"


def test_the_ranked_list_uses_the_charts_grade_colours():
    css = SORTABLE_CSS.read_text(encoding="utf-8")
    cards = {int(g): colour.upper() for g, colour in re.findall(r"--g(\d): (#[0-9a-fA-F]{6});", css)}
    assert cards == {g: colour.upper() for g, colour in palette.GRADE_COLORS.items()}


def test_a_chosen_grade_chip_reads_at_7_to_1():
    css = SORTABLE_CSS.read_text(encoding="utf-8")
    default = re.search(r'\.rk-chip\[aria-pressed="true"\] \{[^}]*color: (#[0-9a-f]{6})', css).group(1)
    chips = re.findall(
        r'\.rk-chip\.chip-(\d)\[aria-pressed="true"\] \{ background: (#[0-9a-f]{6});(?: color: (#[0-9a-f]{6});)?', css
    )
    assert [int(g) for g, _, _ in chips] == list(palette.GRADE_COLORS)
    for grade, background, text in chips:
        assert colour_vision.contrast(text or default, background) >= TEXT, (grade, background, text or default)


def test_projector_colours_are_the_same_hue_at_4_5_to_1():
    for normal, projected in palette.PROJECTOR_COLORS.items():
        assert colour_vision.contrast(projected, "#FFFFFF") >= MARKS, (normal, projected)
        assert colour_vision.contrast(normal, "#FFFFFF") < MARKS  # only the colours that need it get a variant
    assert colour_vision.contrast(palette.COLORS["blue"], "#FFFFFF") >= MARKS  # kept as it is


def _figures() -> dict[str, go.Figure]:
    ranking, grades = ["d1", "d2", "d3", "d4", "d5"], {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}
    ndcg = registry.family("NDCG").function(ranking, grades, 5)
    dcg, idcg = (
        registry.family("DCG").function(ranking, grades, 5),
        registry.family("IDCG").function(ranking, grades, 5),
    )
    ap = registry.family("AP").function(ranking, grades, None)
    return {
        "contributions": rank_charts.contributions(ndcg),
        "binary contributions": rank_charts.contributions(ap),
        "ideal vs actual": rank_charts.ideal_vs_actual(dcg, idcg),
        "curves": curve_charts.curves({"P@k": [1, 1, 0.67], "R@k": [0.25, 0.5, 0.5], "NDCG@k": [1, 0.9, 0.8]}, 2),
        "A vs B curves": curve_charts.ab_curves({"P@k": [0.0, 0.5]}, {"P@k": [1.0, 0.5]}, 2),
        "per query": query_charts.per_query_bars({"q1": 0.5, "q2": 1.0}, 0.75, "AP"),
        "waterfall": comparison_charts.waterfall(["q1", "q2", "q3"], [0.2, 0.5, 0.5], [0.6, 0.5, 0.1], "AP", "a", "b"),
    }


def _mark_colours(fig: go.Figure) -> list[tuple[str, str]]:
    """(what, colour) of every mark a reader must see: bar outlines, lines, markers, reference lines."""
    found = []
    for trace in fig.data:
        if trace.type in ("bar", "histogram"):
            found.append((f"{trace.name} bar outline", trace.marker.line.color))
        elif trace.type == "scatter":
            found.append((f"{trace.name} line", trace.line.color))
            if isinstance(trace.marker.color, str):
                found.append((f"{trace.name} markers", trace.marker.color))
    found += [("reference line", shape.line.color) for shape in fig.layout.shapes or () if shape.line.color]
    return found


@pytest.mark.parametrize("name", list(_figures()))
def test_presenter_mode_draws_every_chart_mark_at_4_5_to_1_and_its_text_at_7_to_1(name):
    fig = presenter.projector_marks(_figures()[name])
    marks = _mark_colours(fig)
    assert marks, name
    for what, colour in marks:
        assert colour_vision.contrast(colour, "#FFFFFF") >= MARKS, (name, what, colour)
    for annotation in fig.layout.annotations or ():
        assert colour_vision.contrast(annotation.font.color, "#FFFFFF") >= TEXT, (name, annotation.text)
    assert colour_vision.contrast(fig.layout.font.color, "#FFFFFF") >= TEXT


def test_without_presenter_mode_some_marks_are_under_4_5_to_1():
    """The check above has something to check: the normal figures' orange and green lines are lighter."""
    weak = [
        (name, what)
        for name, fig in _figures().items()
        for what, colour in _mark_colours(fig)
        if colour and colour_vision.contrast(colour, "#FFFFFF") < MARKS
    ]
    assert weak
