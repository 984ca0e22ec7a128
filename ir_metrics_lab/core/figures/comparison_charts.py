"""What differs between two runs or two tools, as plotly figures: run B − run A on each query, sorted (Compare runs'
pair view), the randomization test's null distribution, and the waterfall from one tool's mean to the other's (Why
tools differ). Pure.

Plotly renders hover text and tick labels as a subset of HTML and does not escape them, so every piece of user
text (query ids, run names, measure names) goes through ``ir_metrics_lab.core.markdown.chart_label`` before it reaches a
figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go

from ir_metrics_lab.core.figures import layout
from ir_metrics_lab.core.figures.palette import COLORS, SECOND_PATTERN, SYSTEM_COLORS, pattern
from ir_metrics_lab.core.markdown import chart_label
from metrics.compare.significance import TIE, Randomization, differences
from metrics.tools.settings import TITLES

if TYPE_CHECKING:  # an annotation only: drawing needs none of explain's imports
    from metrics.tools.explain import Explanation

_safe = chart_label  # short: it wraps every piece of user text below


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
    layout.base(
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
    layout.base(
        fig,
        title=f"{metric}: mean difference if A and B were interchangeable ({what})",
        x_title="mean of B − A",
        y_title="count",
    )
    fig.update_layout(showlegend=False, bargap=0.02)
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
    layout.white(fig)
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
