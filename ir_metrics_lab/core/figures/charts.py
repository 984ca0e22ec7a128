"""Breakdown -> plotly figures, built with plotly.graph_objects (plotly.express costs ~50 ms a call). Pure.

Colours are explicit Okabe-Ito values (colour-blind safe), set on every marker and line. Streamlit's default
``theme="streamlit"`` replaces the colorway and template, but explicit marker/line colours survive it (checked in
Chromium on 1.67: same fills either way). Pages call ``st.plotly_chart(fig, theme=None)`` so the template, fonts
and grid are ours too (``ir_metrics_lab.parts.teaching.chart``).

Plotly renders hover text and tick labels as a subset of HTML and does not escape them, so every piece of user
text (doc ids, titles, query ids) goes through ``ir_metrics_lab.core.markdown.chart_label`` before it reaches a figure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from ir_metrics_lab.core import words
from ir_metrics_lab.core.markdown import chart_label
from metrics.catalog import registry
from metrics.compare.significance import TIE, Randomization, differences
from metrics.core.types import Breakdown
from metrics.families.err import CascadeStep
from metrics.tools.settings import TITLES

if TYPE_CHECKING:  # an annotation only: drawing needs none of explain's imports
    from metrics.tools.explain import Explanation

COLORS = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "sky": "#56B4E9",
    "purple": "#CC79A7",
    "yellow": "#F0E442",
    "grey": "#999999",
    "ink": "#1F2933",
}
# Grade 0 is grey; higher grades get darker/stronger colours, so "more relevant" reads as "more ink".
# Grade 4 is Tol's wine, not Okabe-Ito's reddish purple: that one and grade 0's grey look alike to a deuteranope
# (CIEDE2000 6, under the 10 tests/test_colour_vision.py asks of every palette).
GRADE_COLORS = {0: COLORS["grey"], 1: COLORS["sky"], 2: COLORS["blue"], 3: COLORS["green"], 4: "#882255"}
SERIES_COLORS = [COLORS[c] for c in ("blue", "orange", "green", "vermillion", "sky", "purple")]
# Text drawn in a chart's colour: the colour darkened to 4.5:1 on white (WCAG 1.4.3; #D55E00 is 3.9:1).
TEXT_COLORS = {"vermillion": "#B34700"}
# A projector washes colours out: in presenter mode (ir_metrics_lab.shell.presenter.projector_marks) lines and markers
# take these variants, each 4.5:1 or more on white (the same hue, darker); bars keep their fill and get an ink outline.
# The lines stay apart by dash and marker symbol, not by colour.
PROJECTOR_COLORS = {
    COLORS["orange"]: "#9C6C00",
    COLORS["green"]: "#008460",
    COLORS["vermillion"]: "#BE5400",
    COLORS["sky"]: "#177AB2",
    COLORS["purple"]: "#BB4D8A",
    COLORS["yellow"]: "#80770A",
    COLORS["grey"]: "#757575",
}
DASHES = ["solid", "dash", "dot", "dashdot", "longdash", "longdashdot"]
SYMBOLS = ["circle", "square", "diamond", "triangle-up", "x", "cross"]  # lines on top of each other stay apart
SYSTEM_COLORS = {"A": COLORS["orange"], "B": COLORS["blue"]}
HEIGHT = 300


_safe = chart_label  # short: it wraps every piece of user text below
_WHITE = pio.templates["plotly_white"]


def _white(fig: go.Figure) -> None:
    """Give ``fig`` plotly's own plotly_white template without validating it again. Plotly checks every property of
    an assigned template (its defaults for every trace type): 6-25 ms a figure, most of what a chart costs a rerun.
    Plotly skips the check this way when it applies its default template (BaseFigure._initialize_layout_template)."""
    fig.layout._validate = False
    try:
        fig.layout.template = _WHITE
    finally:
        fig.layout._validate = True


def _layout(
    fig: go.Figure, *, title: str = "", height: int = HEIGHT, x_title: str = "", y_title: str = ""
) -> go.Figure:
    _white(fig)
    fig.update_layout(
        height=height,
        title={"text": _safe(title), "x": 0, "xanchor": "left", "font": {"size": 15}} if title else None,
        margin={"l": 56, "r": 16, "t": 44 if title else 24, "b": 44},
        font={"family": "sans-serif", "size": 13, "color": COLORS["ink"]},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "right", "x": 1},
        hoverlabel={"font_size": 13},
        bargap=0.25,
    )
    fig.update_xaxes(title_text=x_title, showgrid=False, zeroline=False)
    fig.update_yaxes(title_text=y_title, gridcolor="#E5E9F0", zeroline=True, zerolinecolor="#C7CED8")
    return fig


def _grade_color(grade: int) -> str:
    return GRADE_COLORS[min(max(grade, 0), max(GRADE_COLORS))]


# Colour never carries meaning alone (WCAG 1.4.1): bars that stand for a category also carry a fill pattern, which
# their legend swatch shows too. Grade 0 and "not relevant" (and a tie) stay plain.
GRADE_PATTERNS = {0: "", 1: ".", 2: "/", 3: "x", 4: "+"}
RELEVANT_PATTERN, SECOND_PATTERN = "/", "x"


def pattern(shape: str | list[str]) -> dict:
    """A bar's fill pattern (one shape, or one per bar) drawn in translucent ink over its colour."""
    return {"shape": shape, "fillmode": "overlay", "fgcolor": "rgba(31, 41, 51, 0.45)", "size": 7, "solidity": 0.3}


def contributions(b: Breakdown, *, titles: Mapping[str, str] | None = None) -> go.Figure:
    """Per-rank contribution bars (coloured by grade or relevance) and the running value as a line.

    Bars are split into one trace per category so the legend explains the colours; the x of each bar is its rank.
    """
    titles = titles or {}
    graded = registry.family(b.family).graded
    groups: dict[str, list] = {}
    for step in b.steps:
        if graded:
            grade = min(max(step.grade, 0), max(GRADE_COLORS))
            name, color, shape = f"grade {max(step.grade, 0)}", _grade_color(step.grade), GRADE_PATTERNS[grade]
        elif step.relevant:
            name, color, shape = "relevant", COLORS["blue"], RELEVANT_PATTERN
        else:
            name, color, shape = "not relevant", COLORS["grey"], ""
        groups.setdefault(name, [color, shape, []])[2].append(step)
    fig = go.Figure()
    for name in sorted(groups, reverse=True):  # "relevant" before "not relevant"; grade 3 before grade 0
        color, shape, steps = groups[name]
        fig.add_bar(
            x=[s.rank for s in steps],
            y=[s.contribution for s in steps],
            name=name,
            marker={"color": color, "pattern": pattern(shape)},
            customdata=[[_safe(s.doc_id), s.grade, _safe(titles.get(s.doc_id, ""))] for s in steps],
            hovertemplate="rank %{x} · doc %{customdata[0]}<br>%{customdata[2]}<br>grade %{customdata[1]}"
            "<br>contribution %{y:.4f}<extra></extra>",
        )
    fig.add_scatter(
        x=[s.rank for s in b.steps],
        y=[s.running for s in b.steps],
        name=f"{b.metric} if the list stopped here",
        mode="lines+markers",
        line={"color": COLORS["vermillion"], "width": 2},
        marker={"size": 7},
        hovertemplate="rank %{x}<br>running value %{y:.4f}<extra></extra>",
    )
    _layout(fig, x_title="rank", y_title="contribution")
    fig.update_xaxes(tickmode="linear", dtick=1 if len(b.steps) <= 20 else 5)
    bounds = registry.value_range(b.family)
    if bounds is not None:  # fixed: the axis must not jump when a card moves
        low, high = bounds
        fig.update_yaxes(range=[low, high + 0.05 * (high - low)], autorange=False)
    return fig


def share_y_range(*figs: go.Figure) -> None:
    """Give figures one y range (their combined data, 0 included, 8% headroom), so bars compare across charts."""
    ys = [y for fig in figs for trace in fig.data for y in (trace.y or ()) if y is not None]
    low, high = min([0.0, *ys]), max([0.0, *ys])
    fixed = [fig.layout.yaxis.range for fig in figs if fig.layout.yaxis.range]
    if len(fixed) == len(figs) and all(r[0] <= low and high <= r[1] for r in fixed):  # 0-1 metrics keep 0-1
        low, high = min(r[0] for r in fixed), max(r[1] for r in fixed)
    else:
        pad = 0.08 * ((high - low) or 1.0)
        low, high = low - (pad if low < 0 else 0), high + pad
    for fig in figs:
        fig.update_yaxes(range=[low, high], autorange=False)


def ideal_vs_actual(dcg_b: Breakdown, idcg_b: Breakdown) -> go.Figure:
    """Discounted gain per rank in the user's order vs the ideal order, with both cumulative sums as lines."""
    fig = go.Figure()
    for b, name, color, shape in (
        (dcg_b, "your order", COLORS["blue"], ""),
        (idcg_b, "ideal order", COLORS["green"], SECOND_PATTERN),
    ):
        fig.add_bar(
            x=[s.rank for s in b.steps],
            y=[s.contribution for s in b.steps],
            name=f"{name}: gain / discount",
            marker={"color": color, "pattern": pattern(shape)},
            customdata=[[_safe(s.doc_id), s.grade] for s in b.steps],
            hovertemplate=f"{name}<br>rank %{{x}} · doc %{{customdata[0]}}<br>grade %{{customdata[1]}}"
            "<br>discounted gain %{y:.4f}<extra></extra>",
        )
    for b, name, color, dash in ((dcg_b, "DCG", COLORS["blue"], "solid"), (idcg_b, "IDCG", COLORS["green"], "dot")):
        fig.add_scatter(
            x=[s.rank for s in b.steps],
            y=[s.running for s in b.steps],
            name=f"{name} so far",
            mode="lines+markers",
            line={"color": color, "width": 2, "dash": dash},
            hovertemplate=f"{name} up to rank %{{x}}: %{{y:.4f}}<extra></extra>",
        )
    _layout(fig, x_title="rank", y_title="discounted gain")
    fig.update_layout(barmode="group")
    fig.update_xaxes(tickmode="linear", dtick=1)
    return fig


def _mark_k(fig: go.Figure, k: int, label: str | None = None) -> None:
    fig.add_vline(x=k, line={"color": COLORS["ink"], "width": 1, "dash": "dash"})
    text = _safe(label) if label is not None else f"k = {k}"
    # Inside the plot, at the bottom: the legend sits above the plot and would collide with a label there.
    fig.add_annotation(
        x=k,
        y=0,
        yref="paper",
        text=text,
        showarrow=False,
        yanchor="bottom",
        xanchor="left",
        xshift=4,
        bgcolor="rgba(255,255,255,0.85)",
    )


def _integer_ticks(fig: go.Figure, n: int) -> None:
    """Cutoffs and ranks are whole numbers: no 1.5 ticks."""
    fig.update_xaxes(tickmode="linear", tick0=1, dtick=1 if n <= 20 else 5)


def _unit_range(fig: go.Figure, values: list[list[float]]) -> None:
    if all(0 <= v <= 1 for vs in values for v in vs):
        fig.update_yaxes(range=[0, 1.05])


def curves(
    series: dict[str, list[float]], k: int, title: str = "", *, x_title: str = "cutoff k", mark: str | None = None
) -> go.Figure:
    """metric@k for k = 1..n, one line per metric, the current k marked (``mark`` relabels the marker)."""
    fig = go.Figure()
    for i, (name, values) in enumerate(series.items()):
        fig.add_scatter(
            x=list(range(1, len(values) + 1)),
            y=values,
            name=_safe(name),
            mode="lines+markers",
            line={"color": SERIES_COLORS[i % len(SERIES_COLORS)], "width": 2, "dash": DASHES[i % len(DASHES)]},
            marker={"size": 8, "symbol": SYMBOLS[i % len(SYMBOLS)]},
            hovertemplate=f"{_safe(name)} at {_safe(x_title)} %{{x}}: %{{y:.4f}}<extra></extra>",
        )
    _layout(fig, title=title, x_title=x_title, y_title="value")
    _integer_ticks(fig, max((len(v) for v in series.values()), default=1))
    _mark_k(fig, k, mark)
    _unit_range(fig, list(series.values()))
    return fig


def coinciding(series: Mapping[str, Sequence[float]]) -> list[list[str]]:
    """Groups of series that are equal at every point (they draw one line), in the order given.

    >>> coinciding({"P@k": [1, 0.5], "R@k": [0.5, 0.5], "R_cap@k": [1, 0.5]})
    [['P@k', 'R_cap@k']]
    """
    groups: list[list[str]] = []
    for name, values in series.items():
        for group in groups:
            first = series[group[0]]
            if len(first) == len(values) and all(abs(a - b) < 1e-12 for a, b in zip(first, values, strict=True)):
                group.append(name)
                break
        else:
            groups.append([name])
    return [group for group in groups if len(group) > 1]


def coincide_note(series: Mapping[str, Sequence[float]]) -> str | None:
    """A caption for a curves chart whose lines lie on top of each other, or None.

    >>> coincide_note({"P@k": [1, 0.5], "R@k": [0.5, 0.5], "R_cap@k": [1, 0.5]})
    'P@k and R_cap@k coincide here: one line on top of the other (told apart by dash and marker).'
    """
    groups = coinciding(series)
    if not groups:
        return None
    said = "; ".join(" and ".join([", ".join(g[:-1]), g[-1]] if len(g) > 2 else g) for g in groups)
    return f"{said} coincide here: one line on top of the other (told apart by dash and marker)."


def ab_curves(a: dict[str, list[float]], b: dict[str, list[float]], k: int) -> go.Figure:
    """metric@k curves for systems A (orange) and B (blue): one colour per system, one dash style per metric."""
    fig = go.Figure()
    for system, series in (("A", a), ("B", b)):
        for i, (name, values) in enumerate(series.items()):
            label = f"{system} · {_safe(name)}"
            fig.add_scatter(
                x=list(range(1, len(values) + 1)),
                y=values,
                name=label,
                legendgroup=system,
                mode="lines+markers",
                line={"color": SYSTEM_COLORS[system], "width": 2, "dash": DASHES[i % len(DASHES)]},
                marker={"size": 8, "symbol": SYMBOLS[i % len(SYMBOLS)] + ("-open" if system == "A" else "")},
                hovertemplate=f"{label} at k = %{{x}}: %{{y:.4f}}<extra></extra>",
            )
    _layout(fig, x_title="cutoff k", y_title="value")
    _integer_ticks(fig, max((len(v) for v in (*a.values(), *b.values())), default=1))
    _mark_k(fig, k)
    _unit_range(fig, [*a.values(), *b.values()])
    return fig


def per_query_bars(values: dict[str, float], mean: float, title: str) -> go.Figure:
    """One bar per query and the mean over them as a dashed line."""
    names = [_safe(q) for q in values]
    fig = go.Figure()
    fig.add_bar(
        x=names,
        y=list(values.values()),
        name="per query",
        marker={"color": COLORS["blue"]},
        text=[f"{v:.4f}" for v in values.values()],
        textposition="outside",
        cliponaxis=False,
        hovertemplate="query %{x}: %{y:.4f}<extra></extra>",
    )
    fig.add_hline(y=mean, line={"color": COLORS["vermillion"], "width": 2, "dash": "dash"})
    fig.add_annotation(
        x=1,
        xref="paper",
        y=mean,
        text=f"mean {mean:.4f}",
        showarrow=False,
        xanchor="right",
        yanchor="bottom",
        font={"color": TEXT_COLORS["vermillion"]},
    )
    _layout(fig, title=title, height=280, y_title="value")
    fig.update_xaxes(type="category")
    _unit_range(fig, [list(values.values()), [mean]])
    fig.update_layout(showlegend=False)
    return fig


# --- comparing two runs (app_pages/your_data/compare_runs.py) ---


def waterfall(
    queries: Sequence[str], a: Sequence[float], b: Sequence[float], metric: str, name_a: str, name_b: str
) -> go.Figure:
    """B − A per query, sorted: B's wins above 0 in B's blue, A's wins below in A's orange, ties as grey ticks,
    and the mean difference as a dashed line. Query ids and run names are escaped (they come from files)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    d = differences(a, b)
    order = np.argsort(d, kind="stable")
    ids = np.array([_safe(q) for q in queries], dtype=object)
    fig = go.Figure()
    for label, mask, colour, shape in (
        (f"{_safe(name_b)} better", d[order] > TIE, SYSTEM_COLORS["B"], ""),
        ("tie", np.abs(d[order]) <= TIE, COLORS["grey"], ""),
        (f"{_safe(name_a)} better", d[order] < -TIE, SYSTEM_COLORS["A"], SECOND_PATTERN),  # and below 0
    ):
        idx = order[mask]
        if not len(idx):
            continue
        fig.add_bar(
            x=np.flatnonzero(mask) + 1,
            y=d[idx],
            name=f"{label} ({len(idx)})",
            marker={"color": colour, "pattern": pattern(shape)},
            customdata=np.stack([ids[idx], a[idx], b[idx]], axis=1),
            hovertemplate="query %{customdata[0]}<br>A %{customdata[1]:.4f} → B %{customdata[2]:.4f}"
            "<br>B − A %{y:+.4f}<extra></extra>",
        )
    mean = float(d.mean()) if len(d) else 0.0
    fig.add_hline(
        y=mean,
        line_dash="dash",
        line_color=COLORS["ink"],
        annotation_text=f"mean {mean:+.4f}",
        annotation_position="top left",
    )
    _layout(
        fig,
        title=f"{metric}: {name_b} − {name_a} per query, sorted",
        height=340,
        x_title="queries, sorted by difference",
        y_title="B − A",
    )
    # The legend under the axis, not beside the long title: on a phone the two ran into each other.
    fig.update_layout(
        barmode="overlay",
        bargap=0.1,
        legend={"orientation": "h", "yanchor": "top", "y": -0.16, "xanchor": "left", "x": 0},
        margin={"b": 84},
    )
    fig.update_xaxes(showticklabels=False)
    fig.update_yaxes(zerolinecolor="#8A94A3")
    return fig


def null_histogram(randomization: Randomization, metric: str) -> go.Figure:
    """The randomization test's null distribution (mean B − A under random A/B swaps within queries), with the
    observed mean difference and its mirror image: p is the share of shuffles beyond them."""
    r = randomization
    fig = go.Figure(
        go.Histogram(
            x=r.null,
            nbinsx=60,
            marker_color=COLORS["sky"],
            name="shuffled labels",
            hovertemplate="mean difference %{x}<br>%{y} shuffles<extra></extra>",
        )
    )
    for x, text in ((r.observed, f"observed {r.observed:+.4f}"), (-r.observed, "")):
        fig.add_vline(
            x=x,
            line_color=COLORS["vermillion"],
            line_width=2,
            line_dash="solid" if text else "dot",
            annotation_text=text,
            annotation_position="top",
        )
    what = "every swap pattern" if r.exact else f"{r.n_permutations:,} random swaps"
    _layout(
        fig,
        title=f"{metric}: mean difference if A and B were interchangeable ({what})",
        x_title="mean of B − A",
        y_title="count",
    )
    fig.update_layout(showlegend=False, bargap=0.02)
    return fig


# --- the swap heatmap (app_pages/play/swap_heatmap.py) ---

TEXT_IN_CELLS = 10  # print Δ in the cells up to this many docs; beyond, hover only
# How far (px) from a cell's centre a pointer hovers and clicks it, less the click layer's marker radius (3 px, which
# plotly adds): 34 px in all, a little over half a cell of the 5-document default (62 px).
HOVER_REACH = 31
CLICK_LAYER = "click layer"  # the name of a scatter that draws nothing and only catches hovers and clicks


def is_click_layer(trace) -> bool:
    """A trace that draws nothing and carries no data of its own (the swap heatmap's cells' hover and clicks)."""
    return trace.type == "scatter" and trace.name == CLICK_LAYER


def swap_heatmap(deltas: Sequence[Sequence[float]], docs: Sequence[str], label: str) -> go.Figure:
    """metrics.teaching.swaps.swap_deltas as a heatmap: rows and columns are ranks, blue helps, vermillion hurts, the
    colour scale centred at 0 (symmetric: equal gains and losses get equally strong colours). An invisible scatter of
    cell centres carries the hover text and the clicks. Doc ids are escaped."""
    n = len(docs)
    ranks = list(range(1, n + 1))
    top = max((abs(v) for row in deltas for v in row), default=0.0) or 1.0  # centre the scale at 0
    # A numpy array, not lists: plotly checks a nested list cell by cell (twice, for the trace and the figure) and
    # writes an array to JSON as one block of bytes. NaN leaves the diagonal blank.
    shown = np.array(deltas, dtype=np.float64).reshape(n, n)
    np.fill_diagonal(shown, np.nan)
    fig = go.Figure(
        go.Heatmap(
            z=shown,
            x=ranks,
            y=ranks,
            zmin=-top,
            zmax=top,
            zmid=0,
            colorscale=[[0.0, COLORS["vermillion"]], [0.5, "#FFFFFF"], [1.0, COLORS["blue"]]],
            # above the matrix, not beside it: on a phone a side bar takes the width the cells' values need
            colorbar={
                "title": {"text": f"Δ{_safe(label)}", "side": "top"},
                "orientation": "h",
                "thickness": 12,
                "len": 0.7,
                "x": 0.5,
                "xanchor": "center",
                "y": 1.0,
                "yanchor": "bottom",
            },
            texttemplate="%{z:+.4f}" if n <= TEXT_IN_CELLS else None,
            textfont={"size": 11},
            hoverinfo="skip",
            xgap=1,
            ygap=1,
        )
    )
    cells = [(i, j) for i in ranks for j in ranks if i != j]
    safe_docs, safe_label = [_safe(doc) for doc in docs], _safe(label)
    # The click layer: one transparent marker per cell, hovered and selected by a click. plotly.js hovers and selects
    # every point but draws at most marker.maxdisplayed of them (one, transparent): drawn, 9,900 markers for 100
    # documents took over a second to style, and 9,900 empty text points (the layer before) 0.3 s of adding and
    # removing elements, twice a draw (a Chromium CPU profile). Its hover text is one string per cell in a
    # template, in a numpy array: plotly checks a list item by item, and writes an array of strings to JSON faster
    # than one of triples.
    fig.add_trace(
        go.Scatter(
            name=CLICK_LAYER,
            x=np.array([j for _, j in cells]),
            y=np.array([i for i, _ in cells]),
            mode="markers",
            marker={"size": 6, "color": "rgba(0,0,0,0)", "maxdisplayed": 1},
            customdata=np.array(
                [
                    f"rank {i} ({safe_docs[i - 1]}) ↔ rank {j} ({safe_docs[j - 1]})"
                    f"<br>Δ{safe_label} = {deltas[i - 1][j - 1]:+.4f}"
                    for i, j in cells
                ],
                dtype=object,
            ),
            hovertemplate="Swap %{customdata}<br>Click to swap<extra></extra>",
            showlegend=False,
        )
    )
    _white(fig)
    fig.update_layout(
        height=min(max(400, 160 + 56 * n), 800),
        margin={"l": 56, "r": 16, "t": 80, "b": 48},
        font={"family": "sans-serif", "size": 13, "color": COLORS["ink"]},
        hovermode="closest",
        hoverdistance=HOVER_REACH,
        clickmode="event+select",
        dragmode=False,
    )
    # The axes span the cells and no more: plotly pads an autorange for the click layer's markers (for 100 documents
    # five ranks of blank axis at each end).
    cells_span = [0.5, n + 0.5]
    fig.update_xaxes(
        title_text="swap with rank j", range=cells_span, tickmode="linear", dtick=1 if n <= 20 else 5, showgrid=False
    )
    fig.update_yaxes(
        title_text="rank i", range=cells_span[::-1], tickmode="linear", dtick=1 if n <= 20 else 5, showgrid=False
    )
    return fig


def rbp_weights(b: Breakdown, weights: Sequence[float]) -> go.Figure:
    """RBP's weight (1 - p) p^(i-1) at each rank beside what each document earned of it (weight times gain)."""
    ranks = [s.rank for s in b.steps]
    fig = go.Figure()
    fig.add_bar(
        x=ranks,
        y=list(weights),
        name="weight (1 − p)·p^(i−1)",
        marker={"color": COLORS["sky"]},
        hovertemplate="rank %{x}: weight %{y:.4f}<extra></extra>",
    )
    fig.add_bar(
        x=ranks,
        y=[s.contribution for s in b.steps],
        name="earned: weight × gain",
        marker={"color": COLORS["blue"]},
        customdata=[[_safe(s.doc_id), s.grade] for s in b.steps],
        hovertemplate="rank %{x} · doc %{customdata[0]} · grade %{customdata[1]}<br>earned %{y:.4f}<extra></extra>",
    )
    _layout(fig, x_title="rank", y_title="weight")
    fig.update_layout(barmode="group")
    _integer_ticks(fig, len(ranks))
    return fig


def err_cascade(steps: Sequence[CascadeStep]) -> go.Figure:
    """ERR's cascade: the chance of reaching each rank (line), of stopping there once reached, R_i (bars), and the
    rank's contribution to ERR, reach · R_i / i (bars)."""
    ranks = [s.rank for s in steps]
    fig = go.Figure()
    fig.add_bar(
        x=ranks,
        y=[s.stop for s in steps],
        name="R_i: stops here if it gets here",
        marker={"color": COLORS["orange"]},
        customdata=[[_safe(s.doc_id), s.grade] for s in steps],
        hovertemplate="rank %{x} · doc %{customdata[0]} · grade %{customdata[1]}<br>R_i %{y:.4f}<extra></extra>",
    )
    fig.add_bar(
        x=ranks,
        y=[s.contribution for s in steps],
        name="contribution: reach · R_i / i",
        marker={"color": COLORS["green"]},
        hovertemplate="rank %{x}: contributes %{y:.4f}<extra></extra>",
    )
    fig.add_scatter(
        x=ranks,
        y=[s.reach for s in steps],
        name="reaches rank i",
        mode="lines+markers",
        line={"color": COLORS["blue"], "width": 2, "shape": "hv"},
        marker={"size": 7},
        hovertemplate="reaches rank %{x} with probability %{y:.4f}<extra></extra>",
    )
    _layout(fig, x_title="rank", y_title="probability")
    fig.update_layout(barmode="group")
    fig.update_yaxes(range=[0, 1.05])
    _integer_ticks(fig, len(ranks))
    return fig


def precision_recall(
    points: Sequence[tuple[int, float, float]], levels: Sequence[float], interpolated: Sequence[float]
) -> go.Figure:
    """The raw precision-recall points (one per rank) and trec_eval's interpolated precision at recall levels."""
    fig = go.Figure()
    fig.add_scatter(
        x=[r for _, r, _ in points],
        y=[p for _, _, p in points],
        name="P@i against R@i (each rank)",
        mode="lines+markers",
        line={"color": COLORS["blue"], "width": 2},
        marker={"size": 7},
        customdata=[rank for rank, _, _ in points],
        hovertemplate="rank %{customdata}: recall %{x:.4f}, precision %{y:.4f}<extra></extra>",
    )
    fig.add_scatter(
        x=list(levels),
        y=list(interpolated),
        name="interpolated precision at the recall levels",
        mode="lines+markers",
        line={"color": COLORS["orange"], "width": 2, "dash": "dash", "shape": "hv"},
        marker={"size": 8, "symbol": "diamond"},
        hovertemplate="recall level %{x:.2f}: interpolated precision %{y:.4f}<extra></extra>",
    )
    _layout(fig, title="Precision against recall", x_title="recall", y_title="precision")
    fig.update_xaxes(range=[-0.02, 1.02])
    fig.update_yaxes(range=[-0.02, 1.05])
    return fig


def runs_heatmap(
    queries: Sequence[str], runs: Sequence[str], values: Sequence[Sequence[float]], measure: str, *, unit: bool = True
) -> go.Figure:
    """Runs x queries: one row per run (labelled as given), one column per query in the order given, the colour the
    run's value of ``measure`` on that query (0-1 fixed for normalised measures). Ids and names are escaped."""
    labels = [_safe(r) for r in runs]
    ids = [_safe(q) for q in queries]
    fig = go.Figure(
        go.Heatmap(
            z=[list(row) for row in values],
            x=list(range(1, len(queries) + 1)),
            y=labels,
            zmin=0.0 if unit else None,
            zmax=1.0 if unit else None,
            colorscale=[[0.0, "#F7FBFF"], [0.5, COLORS["sky"]], [1.0, "#08306B"]],
            colorbar={"title": {"text": _safe(measure)}, "thickness": 14},
            customdata=[ids] * len(labels),
            hovertemplate="query %{customdata}<br>%{y}: %{z:.4f}<extra></extra>",
            xgap=1 if len(queries) <= 120 else 0,
            ygap=2,
        )
    )
    _white(fig)
    fig.update_layout(
        height=120 + 44 * len(runs),
        margin={"l": 8, "r": 16, "t": 16, "b": 44},
        font={"family": "sans-serif", "size": 13, "color": COLORS["ink"]},
        dragmode=False,
    )
    fig.update_xaxes(title_text="queries, in the order chosen above", showticklabels=False, showgrid=False)
    fig.update_yaxes(autorange="reversed", showgrid=False, automargin=True)
    return fig


def tool_waterfall(found: Explanation) -> go.Figure:
    """One bar per differing convention between the first tool's mean and the second's (the bars' heights are the
    Shapley parts, so they land exactly on the second mean)."""
    first, second = (t.title for t in found.tools)
    labels = [first, *(TITLES[s] for s in found.switches), second]
    values = [found.means[0], *(found.attribution[s] for s in found.switches), found.means[1]]
    kinds = ["absolute", *(["relative"] * len(found.switches)), "total"]
    text = [f"{found.means[0]:.4f}", *(f"{found.attribution[s]:+.4f}" for s in found.switches), f"{found.means[1]:.4f}"]
    fig = go.Figure(
        go.Waterfall(
            x=[_safe(label) for label in labels],
            y=values,
            measure=kinds,
            text=text,
            textposition="outside",
            connector={"line": {"color": COLORS["grey"], "width": 1}},
            increasing={"marker": {"color": COLORS["green"]}},
            decreasing={"marker": {"color": COLORS["vermillion"]}},
            totals={"marker": {"color": COLORS["blue"]}},
            hovertemplate="%{x}: %{text}<extra></extra>",
        )
    )
    running = [found.means[0]]
    for switch in found.switches:
        running.append(running[-1] + found.attribution[switch])
    # Zoomed on the steps: on a 0-1 axis a difference of 0.02 would be a sliver. The two totals' bars run off the
    # bottom, and the axis title says the axis is zoomed.
    low, high = min(*running, found.means[1]), max(*running, found.means[1])
    pad = max(0.35 * (high - low), 0.01)
    _white(fig)
    fig.update_layout(
        height=360,
        margin={"l": 56, "r": 16, "t": 36, "b": 72},
        font={"family": "sans-serif", "size": 13, "color": COLORS["ink"]},
        showlegend=False,
        title={"text": f"Mean {_safe(found.measure)}, one bar per convention", "x": 0},
    )
    fig.update_yaxes(
        title_text=f"mean {_safe(found.measure)} (axis zoomed)",
        range=[max(low - pad, 0.0) if low >= 0 else low - pad, high + pad],
        gridcolor="#E5E9F0",
    )
    fig.update_xaxes(showgrid=False, automargin=True)
    return fig


def distribution(values: np.ndarray, name: str, mean: float) -> go.Figure:
    """A histogram of one measure over the queries, with the mean marked. Values in [0, 1] get bins of 0.05."""
    values = np.asarray(values, dtype=np.float64)
    unit = len(values) == 0 or float(values.max(initial=0.0)) <= 1.0
    fig = go.Figure()
    fig.add_histogram(
        x=values,
        xbins={"start": 0.0, "end": 1.0 + 1e-9, "size": 0.05} if unit else None,
        marker={"color": COLORS["blue"], "line": {"color": "white", "width": 1}},
        hovertemplate="%{x}: %{y} queries<extra></extra>",
        name=name,
    )
    if math.isfinite(mean):
        fig.add_vline(x=mean, line={"color": COLORS["vermillion"], "width": 2, "dash": "dash"})
        fig.add_annotation(
            x=mean,
            y=1,
            yref="paper",
            text=f"mean {mean:.4f}",
            showarrow=False,
            xanchor="left",
            yanchor="bottom",
            font={"color": TEXT_COLORS["vermillion"]},
        )
    zeros = int((values == 0).sum())
    _white(fig)
    fig.update_layout(
        height=300,
        margin={"l": 56, "r": 16, "t": 36, "b": 62},
        font={"family": "sans-serif", "size": 13, "color": COLORS["ink"]},
        showlegend=False,
        bargap=0.05,
    )
    fig.update_xaxes(  # two lines: one ran off a phone's screen
        title_text=f"{name} per query<br>({zeros:,} of {words.count(len(values), 'query')} "
        f"{words.verb(zeros, 'scores')} 0)",
        range=[0, 1] if unit else None,
        showgrid=False,
    )
    fig.update_yaxes(title_text="queries", gridcolor="#E5E9F0")
    return fig
