"""Heatmaps: the swap heatmap (app_pages/play/swap_heatmap.py: how much swapping two ranks would change a measure),
whose cells an invisible click layer hovers and clicks, and Compare runs' runs x queries heatmap. Pure.

Plotly renders hover text and tick labels as a subset of HTML and does not escape them, so every piece of user
text (doc ids, query ids, run names) goes through ``ir_metrics_lab.core.markdown.chart_label`` before it reaches a
figure.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ir_metrics_lab.core.figures import layout
from ir_metrics_lab.core.figures.palette import COLORS
from ir_metrics_lab.core.markdown import chart_label

_safe = chart_label  # short: it wraps every piece of user text below

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
    fig = go.Figure(_delta_cells(deltas, len(docs), label))
    fig.add_trace(_click_layer(deltas, docs, label))
    _swap_layout(fig, len(docs))
    return fig


def _delta_cells(deltas: Sequence[Sequence[float]], n: int, label: str) -> go.Heatmap:
    """The cells: each swap's Δ in colour (printed up to TEXT_IN_CELLS documents), the diagonal blank."""
    ranks = list(range(1, n + 1))
    top = max((abs(v) for row in deltas for v in row), default=0.0) or 1.0  # centre the scale at 0
    # A numpy array, not lists: plotly checks a nested list cell by cell (twice, for the trace and the figure) and
    # writes an array to JSON as one block of bytes. NaN leaves the diagonal blank.
    shown = np.array(deltas, dtype=np.float64).reshape(n, n)
    np.fill_diagonal(shown, np.nan)
    return go.Heatmap(
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


def _click_layer(deltas: Sequence[Sequence[float]], docs: Sequence[str], label: str) -> go.Scatter:
    """One transparent marker per cell, hovered and selected by a click. plotly.js hovers and selects every point but
    draws at most marker.maxdisplayed of them (one, transparent): drawn, 9,900 markers for 100 documents took over a
    second to style, and 9,900 empty text points (the layer before) 0.3 s of adding and removing elements, twice a
    draw (a Chromium CPU profile). Its hover text is one string per cell in a template, in a numpy array: plotly
    checks a list item by item, and writes an array of strings to JSON faster than one of triples."""
    ranks = range(1, len(docs) + 1)
    cells = [(i, j) for i in ranks for j in ranks if i != j]
    safe_docs, safe_label = [_safe(doc) for doc in docs], _safe(label)
    return go.Scatter(
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


def _swap_layout(fig: go.Figure, n: int) -> None:
    """Square-ish cells (taller for more documents, within 400-800 px), hover and click by the nearest cell, no drag."""
    layout.white(fig)
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
    layout.white(fig)
    fig.update_layout(
        height=120 + 44 * len(runs),
        margin={"l": 8, "r": 16, "t": 16, "b": 44},
        font={"family": "sans-serif", "size": 13, "color": COLORS["ink"]},
        dragmode=False,
    )
    fig.update_xaxes(title_text="queries, in the order chosen above", showticklabels=False, showgrid=False)
    fig.update_yaxes(autorange="reversed", showgrid=False, automargin=True)
    return fig
