"""Figures carry the Breakdown's numbers, explicit colours, and escaped user text."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from metrics import average_precision, dcg, idcg, ndcg
from ui import charts

RANKING = ["d1", "d2", "d3", "d4", "d5"]
GRADES = {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}
EVIL = "<img src=x onerror=alert(1)>"


def _bars(fig: go.Figure) -> list[go.Bar]:
    return [t for t in fig.data if t.type == "bar"]


def test_contribution_bars_equal_the_breakdown():
    b = ndcg(RANKING, GRADES, 5)
    fig = charts.contributions(b)
    by_rank = {x: y for bar in _bars(fig) for x, y in zip(bar.x, bar.y, strict=True)}
    assert by_rank == {s.rank: s.contribution for s in b.steps}
    (line,) = [t for t in fig.data if t.type == "scatter"]
    assert list(line.y) == [s.running for s in b.steps]
    assert line.y[-1] == pytest.approx(b.value)


def test_bars_are_coloured_explicitly_by_grade_or_relevance():
    graded = charts.contributions(ndcg(RANKING, GRADES, 5))
    colours = {bar.name: bar.marker.color for bar in _bars(graded)}
    assert colours == {f"grade {g}": charts.GRADE_COLORS[g] for g in (0, 1, 2, 3)}
    binary = charts.contributions(average_precision(["n", "r"], {"r": 1}, 2))
    assert {bar.name: bar.marker.color for bar in _bars(binary)} == {
        "relevant": charts.COLORS["blue"],
        "not relevant": charts.COLORS["grey"],
    }
    assert all(c.startswith("#") and len(c) == 7 for c in charts.COLORS.values())


def test_user_text_is_escaped_in_hover():
    b = ndcg([EVIL, "d2"], {EVIL: 2}, 2)
    fig = charts.contributions(b, titles={EVIL: "<b>bold</b> & co", "d2": ""})
    text = fig.to_json()
    assert EVIL not in text and "<b>bold</b>" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in str([bar.customdata for bar in _bars(fig)])
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; co" in str([bar.customdata for bar in _bars(fig)])


def test_ideal_vs_actual_has_both_orders():
    d, i = dcg(RANKING, GRADES, 5), idcg(RANKING, GRADES, 5)
    fig = charts.ideal_vs_actual(d, i)
    bars = _bars(fig)
    assert [list(bar.y) for bar in bars] == [[s.contribution for s in d.steps], [s.contribution for s in i.steps]]
    lines = [t for t in fig.data if t.type == "scatter"]
    assert lines[0].y[-1] == pytest.approx(d.value) and lines[1].y[-1] == pytest.approx(i.value)
    assert bars[0].marker.color != bars[1].marker.color


def test_curves_mark_k_and_keep_values():
    fig = charts.curves({"P@k": [1.0, 0.5, 2 / 3], "R@k": [0.5, 0.5, 1.0]}, k=2, title="t")
    assert [list(t.y) for t in fig.data] == [[1.0, 0.5, 2 / 3], [0.5, 0.5, 1.0]]
    assert list(fig.data[0].x) == [1, 2, 3]
    assert [shape.x0 for shape in fig.layout.shapes] == [2]
    assert len({t.line.color for t in fig.data}) == 2


def test_ab_curves_colour_by_system_and_dash_by_metric():
    fig = charts.ab_curves({"P@k": [1, 0], "NDCG@k": [1, 1]}, {"P@k": [0, 0.5], "NDCG@k": [0, 1]}, k=1)
    colours = {t.name: t.line.color for t in fig.data}
    assert colours["A · P@k"] == colours["A · NDCG@k"] == "#E69F00"
    assert colours["B · P@k"] == colours["B · NDCG@k"] == "#0072B2"
    dashes = {t.name: t.line.dash for t in fig.data}
    assert dashes["A · P@k"] == dashes["B · P@k"] != dashes["A · NDCG@k"]


def test_per_query_bars_and_mean_line():
    fig = charts.per_query_bars({"Q1": 1.0, "Q2": 1.0, EVIL: 0.0}, 2 / 3, "P@2")
    (bar,) = _bars(fig)
    assert list(bar.y) == [1.0, 1.0, 0.0]
    assert EVIL not in list(bar.x)
    assert fig.layout.shapes[0].y0 == pytest.approx(2 / 3)
    assert fig.layout.height <= 320
