"""Figures carry the Breakdown's numbers, explicit colours, and escaped user text."""

from __future__ import annotations

import math

import plotly.graph_objects as go
import pytest

from ir_metrics_lab.core.figures import comparison_charts, curve_charts, heatmaps, palette, query_charts, rank_charts
from ir_metrics_lab.parts import chart_text
from metrics import average_precision, dcg, idcg, ndcg

RANKING = ["d1", "d2", "d3", "d4", "d5"]
GRADES = {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}
EVIL = "<img src=x onerror=alert(1)>"


def _bars(fig: go.Figure) -> list[go.Bar]:
    return [t for t in fig.data if t.type == "bar"]


def test_contribution_bars_equal_the_breakdown():
    b = ndcg(RANKING, GRADES, 5)
    fig = rank_charts.contributions(b)
    by_rank = {x: y for bar in _bars(fig) for x, y in zip(bar.x, bar.y, strict=True)}
    assert by_rank == {s.rank: s.contribution for s in b.steps}
    (line,) = [t for t in fig.data if t.type == "scatter"]
    assert list(line.y) == [s.running for s in b.steps]
    assert line.y[-1] == pytest.approx(b.value)


def test_bars_are_coloured_explicitly_by_grade_or_relevance():
    graded = rank_charts.contributions(ndcg(RANKING, GRADES, 5))
    colours = {bar.name: bar.marker.color for bar in _bars(graded)}
    assert colours == {f"grade {g}": palette.GRADE_COLORS[g] for g in (0, 1, 2, 3)}
    binary = rank_charts.contributions(average_precision(["n", "r"], {"r": 1}, 2))
    assert {bar.name: bar.marker.color for bar in _bars(binary)} == {
        "relevant": palette.COLORS["blue"],
        "not relevant": palette.COLORS["grey"],
    }
    assert all(c.startswith("#") and len(c) == 7 for c in palette.COLORS.values())


def test_user_text_is_escaped_in_hover():
    b = ndcg([EVIL, "d2"], {EVIL: 2}, 2)
    fig = rank_charts.contributions(b, titles={EVIL: "<b>bold</b> & co", "d2": ""})
    text = fig.to_json()
    assert EVIL not in text and "<b>bold</b>" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in str([bar.customdata for bar in _bars(fig)])
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; co" in str([bar.customdata for bar in _bars(fig)])


def test_quotes_in_user_text_reach_plotly_as_typed():
    # plotly decodes &lt; &gt; &amp; in a label but knows no &quot;: it would show the entity itself
    doc = 'say "hi" it\'s <me>'
    fig = rank_charts.contributions(ndcg([doc], {doc: 1}, 1), titles={doc: 'the "best" one'})
    (customdata,) = [row for bar in _bars(fig) for row in bar.customdata]
    assert customdata[0] == 'say "hi" it\'s &lt;me&gt;' and customdata[2] == 'the "best" one'


def test_ideal_vs_actual_has_both_orders():
    d, i = dcg(RANKING, GRADES, 5), idcg(RANKING, GRADES, 5)
    fig = rank_charts.ideal_vs_actual(d, i)
    bars = _bars(fig)
    assert [list(bar.y) for bar in bars] == [[s.contribution for s in d.steps], [s.contribution for s in i.steps]]
    lines = [t for t in fig.data if t.type == "scatter"]
    assert lines[0].y[-1] == pytest.approx(d.value) and lines[1].y[-1] == pytest.approx(i.value)
    assert bars[0].marker.color != bars[1].marker.color


def test_curves_mark_k_and_keep_values():
    fig = curve_charts.curves({"P@k": [1.0, 0.5, 2 / 3], "R@k": [0.5, 0.5, 1.0]}, k=2, title="t")
    assert [list(t.y) for t in fig.data] == [[1.0, 0.5, 2 / 3], [0.5, 0.5, 1.0]]
    assert list(fig.data[0].x) == [1, 2, 3]
    assert [shape.x0 for shape in fig.layout.shapes] == [2]
    assert len({t.line.color for t in fig.data}) == 2


def test_ab_curves_colour_by_system_and_dash_by_metric():
    fig = curve_charts.ab_curves({"P@k": [1, 0], "NDCG@k": [1, 1]}, {"P@k": [0, 0.5], "NDCG@k": [0, 1]}, k=1)
    colours = {t.name: t.line.color for t in fig.data}
    assert colours["A · P@k"] == colours["A · NDCG@k"] == "#E69F00"
    assert colours["B · P@k"] == colours["B · NDCG@k"] == "#0072B2"
    dashes = {t.name: t.line.dash for t in fig.data}
    assert dashes["A · P@k"] == dashes["B · P@k"] != dashes["A · NDCG@k"]


def test_per_query_bars_and_mean_line():
    fig = query_charts.per_query_bars({"Q1": 1.0, "Q2": 1.0, EVIL: 0.0}, 2 / 3, "P@2")
    (bar,) = _bars(fig)
    assert list(bar.y) == [1.0, 1.0, 0.0]
    assert EVIL not in list(bar.x)
    assert fig.layout.shapes[0].y0 == pytest.approx(2 / 3)
    assert fig.layout.height <= 320


# --- comparing two runs and the swap heatmap (moved from the pages) ---


def test_waterfall_sorts_b_minus_a_and_colours_wins_by_system():
    queries = ["q1", "q2", "q3", "q4"]
    a = [0.5, 0.2, 0.7, 0.4]
    b = [0.75, 0.2, 0.1, 0.5]  # B − A: +0.25, 0, −0.6, +0.1
    fig = comparison_charts.waterfall(queries, a, b, "AP", "bm25", "dense")
    bars = {bar.name: bar for bar in _bars(fig)}
    assert set(bars) == {"dense better (2)", "tie (1)", "bm25 better (1)"}
    by_x = {x: y for bar in bars.values() for x, y in zip(bar.x, bar.y, strict=True)}
    assert [by_x[x] for x in sorted(by_x)] == pytest.approx([0.1 - 0.7, 0.0, 0.5 - 0.4, 0.75 - 0.5])  # sorted
    assert bars["dense better (2)"].marker.color == palette.SYSTEM_COLORS["B"] == palette.COLORS["blue"]
    assert bars["bm25 better (1)"].marker.color == palette.SYSTEM_COLORS["A"] == palette.COLORS["orange"]
    assert [row[0] for row in bars["bm25 better (1)"].customdata] == ["q3"]
    (mean_line,) = fig.layout.shapes
    assert mean_line.y0 == pytest.approx((0.25 + 0 - 0.6 + 0.1) / 4)
    assert "mean -0.0625" in fig.layout.annotations[0].text


def test_waterfall_escapes_query_ids_and_run_names():
    fig = comparison_charts.waterfall([EVIL, "q2"], [0.0, 0.5], [1.0, 0.5], "AP", "<b>a</b>", EVIL)
    text = fig.to_json()
    assert EVIL not in text and "<b>a</b>" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text


def test_null_histogram_marks_the_observed_difference_both_ways():
    from metrics.compare.significance import randomization_test

    r = randomization_test([0.0, 0.0, 0.0], [0.5, 0.25, 0.0])  # d = 0.5, 0.25, 0: 2^3 patterns, exact
    fig = comparison_charts.null_histogram(r, "AP")
    (hist,) = fig.data
    assert hist.type == "histogram" and len(hist.x) == 2**3
    assert sorted(shape.x0 for shape in fig.layout.shapes) == pytest.approx([-0.25, 0.25])  # mean (0.5+0.25)/3
    assert "observed +0.2500" in fig.layout.annotations[0].text
    assert "every swap pattern" in fig.layout.title.text


def test_swap_heatmap_is_symmetric_around_zero_and_escapes_ids():
    deltas = [[0.0, 0.25, -0.5], [0.25, 0.0, 0.0], [-0.5, 0.0, 0.0]]
    fig = heatmaps.swap_heatmap(deltas, ["d1", EVIL, "d3"], "AP")
    heat, cells = fig.data
    assert heat.zmin == -0.5 and heat.zmax == 0.5 and heat.zmid == 0
    assert math.isnan(heat.z[0][0]) and heat.z[0][1] == 0.25  # blank diagonal
    assert heat.texttemplate == "%{z:+.4f}"  # four decimals, as everywhere
    assert len(cells.x) == 3 * 2
    assert (cells.y[0], cells.x[0]) == (
        1,
        2,
    ) and cells.hovertemplate == "Swap %{customdata}<br>Click to swap<extra></extra>"
    assert cells.customdata[0] == "rank 1 (d1) ↔ rank 2 (&lt;img src=x onerror=alert(1)&gt;)<br>ΔAP = +0.2500"
    assert EVIL not in fig.to_json()
    assert heatmaps.swap_heatmap([[0.0, 0.0], [0.0, 0.0]], ["a", "b"], "RR").data[0].zmax == 1.0  # no 0-width scale


def test_swap_heatmaps_click_layer_draws_nothing():
    """Its cells are clicked and hovered through a layer of points that plotly.js does not draw one by one: with
    100 documents, 9,900 invisible markers took over a second to draw, 9,900 empty text points 0.3 s (a Chromium CPU
    profile, bench/app/edit_speed.py)."""
    n = 100
    fig = heatmaps.swap_heatmap([[0.0] * n for _ in range(n)], [f"d{i}" for i in range(1, n + 1)], "NDCG@10")
    (cells,) = fig.data[1:]
    assert cells.type == "scatter" and cells.mode == "markers" and not cells.text
    assert cells.marker.maxdisplayed == 1 and cells.marker.color == "rgba(0,0,0,0)"  # one marker drawn, transparent
    # the axes span the cells (ranks 1 to n), not an autorange padded for the markers
    assert list(fig.layout.xaxis.range) == [0.5, n + 0.5] and list(fig.layout.yaxis.range) == [n + 0.5, 0.5]
    assert len(cells.x) == n * (n - 1)
    assert fig.layout.hovermode == "closest" and fig.layout.clickmode == "event+select"


def test_swap_heatmap_as_text_is_the_heatmap_alone():
    fig = heatmaps.swap_heatmap([[0.0, 0.25], [0.25, 0.0]], ["d1", "d2"], "AP")  # the click layer is not a series
    assert chart_text.sentence(fig) == ("Heatmap: ΔAP for each rank i (rows) and swap with rank j (columns), 2 by 2.")
    assert chart_text.table(fig) == (["swap with rank j", "1", "2"], [["1", "", "0.2500"], ["2", "0.2500", ""]])


def test_coinciding_curves_differ_in_dash_and_marker_and_are_named():
    # Grades 1, 0, 1 with R = 2 and k up to 3: P@k and R_cap@k are equal at every cutoff (hand: 1, 1/2, 2/3).
    series = {"P@k": [1, 1 / 2, 2 / 3], "R@k": [1 / 2, 1 / 2, 1], "R_cap@k": [1, 1 / 2, 2 / 3]}
    fig = curve_charts.curves(series, 3)
    styles = {(t.line.dash, t.marker.symbol) for t in fig.data}
    assert len(styles) == 3  # no two lines look alike
    assert curve_charts.coincide_note(series).startswith("P@k and R_cap@k coincide here")
    assert curve_charts.coincide_note({"P@k": [1.0], "R@k": [0.5]}) is None


def test_normalised_contributions_keep_a_fixed_unit_axis_and_dcg_does_not():
    ranking, qrels = ["a", "b", "c"], {"a": 0, "b": 0, "c": 1}
    ndcg_fig = rank_charts.contributions(ndcg(ranking, qrels, 3))
    assert list(ndcg_fig.layout.yaxis.range) == [0, 1.05] and ndcg_fig.layout.yaxis.autorange is False
    dcg_fig = rank_charts.contributions(dcg(ranking, {"a": 3, "b": 3, "c": 3}, 3))
    assert dcg_fig.layout.yaxis.range is None  # DCG grows past 1: its axis follows the data


def test_rbp_weights_and_err_cascade_carry_the_library_numbers_and_escape_ids():
    from metrics.families.err import err_cascade
    from metrics.families.rbp import rank_biased_precision, rbp_weights

    ranking, grades = [EVIL, "d2", "d3"], {EVIL: 3, "d3": 1}
    b = rank_biased_precision(ranking, grades, p=0.5)
    weights, _ = rbp_weights(3, 0.5)
    weight_bars, earned_bars = _bars(rank_charts.rbp_weights(b, weights))
    assert list(weight_bars.y) == [0.5, 0.25, 0.125]
    assert list(earned_bars.y) == [0.5 * 1, 0.0, 0.125 * (1 / 3)]  # weight x grade / top grade
    steps = err_cascade(ranking, grades)
    fig = rank_charts.err_cascade(steps)
    stops, contributions = _bars(fig)
    (reach,) = [t for t in fig.data if t.type == "scatter"]
    assert list(stops.y) == [7 / 16, 0.0, 1 / 16] and list(reach.y) == [1.0, 9 / 16, 9 / 16]
    assert list(contributions.y) == [s.contribution for s in steps]
    for fig in (rank_charts.rbp_weights(b, weights), rank_charts.err_cascade(steps)):
        assert EVIL not in fig.to_json()


def test_charts_get_plotly_white_and_plotly_still_checks_what_follows():
    # ir_metrics_lab.core.figures.layout assigns plotly's own template with plotly's check switched off for that one
    # assignment (a private switch plotly uses itself): the figure must carry plotly_white exactly, and the check must
    # be back on after.
    import plotly.io as pio

    fig = rank_charts.contributions(ndcg(["a", "b"], {"a": 1}, 2))
    assert fig.layout.template == pio.templates["plotly_white"]
    with pytest.raises(ValueError):
        fig.update_layout(height="tall")
