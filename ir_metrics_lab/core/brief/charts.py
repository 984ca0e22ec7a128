"""The figures a stakeholder's brief adds to the app's own (ir_metrics_lab.core.figures): a measure's difference
with its interval, the share of queries with a relevant document at each rank, the per-query differences sorted, and two
ranked lists' per-rank contributions and measures side by side. Pure (plotly only).

They follow ir_metrics_lab.core.figures' conventions: Okabe-Ito colours set on every mark (A orange, B blue), and
every piece of user text (run names, query ids) through ``ir_metrics_lab.core.markdown.chart_label`` before it reaches
plotly, which reads its labels as HTML."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from ir_metrics_lab.core.figures import layout
from ir_metrics_lab.core.figures.palette import COLORS, SERIES_COLORS, SYMBOLS, SYSTEM_COLORS
from ir_metrics_lab.core.markdown import chart_label
from metrics.compare.significance import TIE
from metrics.core.types import Breakdown

HEIGHT = 300


_safe = chart_label  # short: it wraps every piece of user text below


def intervals(rows: Sequence[tuple[str, float, float, float]], x_title: str) -> go.Figure:
    """One row per (label, difference, low, high): a dot at the difference and a bar over its 95% interval, in B's blue
    when the interval is above 0, A's orange when below, grey when it holds 0; 0 is drawn as a line."""
    fig = go.Figure()
    labels = [_safe(label) for label, *_ in rows]
    groups = {
        "above 0": (SYSTEM_COLORS["B"], lambda low, high: low > 0),
        "below 0": (SYSTEM_COLORS["A"], lambda low, high: high < 0),
        "holds 0 (within the noise)": (COLORS["grey"], lambda low, high: low <= 0 <= high),
    }
    for name, (colour, member) in groups.items():
        picked = [(i, row) for i, row in enumerate(rows) if member(row[2], row[3])]
        if not picked:
            continue
        fig.add_scatter(
            x=[row[1] for _, row in picked],
            y=[labels[i] for i, _ in picked],
            mode="markers",
            name=f"interval {name}",
            marker={"color": colour, "size": 10, "symbol": "diamond" if colour == COLORS["grey"] else "circle"},
            error_x={
                "type": "data",
                "symmetric": False,
                "array": [row[3] - row[1] for _, row in picked],
                "arrayminus": [row[1] - row[2] for _, row in picked],
                "color": colour,
                "thickness": 2.5,
                "width": 6,
            },
            customdata=[[row[2], row[3]] for _, row in picked],
            hovertemplate="%{y}: %{x:+.4f} (95% CI %{customdata[0]:+.4f} to %{customdata[1]:+.4f})<extra></extra>",
        )
    fig.add_vline(x=0, line={"color": COLORS["ink"], "width": 1})
    layout.base(fig, height=max(HEIGHT, 80 + 34 * len(rows)), x_title=x_title)
    fig.update_yaxes(autorange="reversed", type="category", automargin=True, zeroline=False)
    fig.update_xaxes(zeroline=False, showgrid=True, gridcolor="#E5E9F0")
    fig.update_layout(legend={"orientation": "h", "yanchor": "top", "y": -0.22, "xanchor": "left", "x": 0})
    fig.update_layout(margin={"b": 84})
    return fig


def rank_profile(shares: Mapping[str, Sequence[float]], colours: Mapping[str, str] | None = None) -> go.Figure:
    """Per run, the share of queries with a relevant document at rank 1, 2, ... (one line and marker style each)."""
    fig = go.Figure()
    for i, (run, values) in enumerate(shares.items()):
        colour = (colours or {}).get(run, SERIES_COLORS[i % len(SERIES_COLORS)])
        fig.add_scatter(
            x=list(range(1, len(values) + 1)),
            y=[100 * v for v in values],
            name=_safe(run),
            mode="lines+markers",
            line={"color": colour, "width": 2.5},
            marker={"size": 8, "symbol": SYMBOLS[i % len(SYMBOLS)]},
            hovertemplate=f"{_safe(run)}: rank %{{x}}, %{{y:.0f}}% of queries<extra></extra>",
        )
    depth = max((len(v) for v in shares.values()), default=1)
    layout.base(fig, height=HEIGHT, x_title="rank", y_title="queries (%)")
    fig.update_xaxes(tickmode="linear", tick0=1, dtick=1 if depth <= 20 else 5)
    fig.update_yaxes(range=[0, 102], ticksuffix="%")
    return fig


def sorted_differences(values: Sequence[float], above: str, below: str, y_title: str) -> go.Figure:
    """Per-query differences, sorted, as two filled steps: above 0 in B's blue (``above`` names those queries), below
    in A's orange. Filled areas rather than one bar per query: hundreds of bars on a printed chart 6 cm wide would be
    thinner than a pixel each, and Chromium's PDF drops them."""
    ordered = sorted(float(v) for v in values)
    ranks = list(range(1, len(ordered) + 1))
    fig = go.Figure()
    for name, keep, colour in (
        (above, lambda d: d > TIE, SYSTEM_COLORS["B"]),
        (below, lambda d: d < -TIE, SYSTEM_COLORS["A"]),
    ):
        count = sum(1 for d in ordered if keep(d))
        if not count:
            continue
        fig.add_scatter(
            x=ranks,
            y=[d if keep(d) else 0.0 for d in ordered],
            name=f"{_safe(name)} ({count})",
            mode="lines",
            line={"color": colour, "width": 1, "shape": "hvh"},
            fill="tozeroy",
            fillcolor=colour,
            hovertemplate="%{y:+.4f}<extra></extra>",
        )
    mean = sum(ordered) / len(ordered) if ordered else 0.0
    fig.add_hline(y=mean, line={"color": COLORS["ink"], "width": 1.5, "dash": "dash"})
    fig.add_annotation(
        x=0, xref="paper", y=mean, text=f"mean {mean:+.4f}", showarrow=False, xanchor="left", yanchor="bottom"
    )
    layout.base(fig, height=HEIGHT, x_title=f"{len(ordered):,} queries, sorted by difference", y_title=_safe(y_title))
    fig.update_xaxes(showticklabels=False, range=[0.5, len(ordered) + 0.5])
    fig.update_yaxes(zerolinecolor="#8A94A3")
    return fig


def rank_contributions(a: Breakdown, b: Breakdown) -> go.Figure:
    """Two lists' per-rank contributions to one measure, A's and B's bars side by side at each rank."""
    fig = go.Figure()
    for side, breakdown in (("A", a), ("B", b)):
        fig.add_bar(
            x=[s.rank for s in breakdown.steps],
            y=[s.contribution for s in breakdown.steps],
            name=side,
            marker={"color": SYSTEM_COLORS[side]},
            customdata=[[_safe(s.doc_id), s.grade] for s in breakdown.steps],
            hovertemplate=f"{side}, rank %{{x}}: %{{customdata[0]}}, grade %{{customdata[1]}}"
            "<br>earns %{y:.4f}<extra></extra>",
        )
    depth = max(len(a.steps), len(b.steps), 1)
    layout.base(fig, height=HEIGHT, x_title="rank", y_title="contribution")
    fig.update_layout(barmode="group")
    fig.update_xaxes(tickmode="linear", tick0=1, dtick=1 if depth <= 20 else 5)
    return fig


def side_by_side(labels: Sequence[str], a: Sequence[float], b: Sequence[float]) -> go.Figure:
    """Measures as rows, A's and B's values as bars side by side (both from 0), the value printed at each bar."""
    fig = go.Figure()
    for side, values in (("A", a), ("B", b)):
        fig.add_bar(
            y=[_safe(label) for label in labels],
            x=list(values),
            name=f"Retriever {side}",
            orientation="h",
            marker={"color": SYSTEM_COLORS[side]},
            text=[f"{v:.4f}" for v in values],
            textposition="outside",
            cliponaxis=False,
            hovertemplate=f"{side}: %{{y}} = %{{x:.4f}}<extra></extra>",
        )
    layout.base(fig, height=max(HEIGHT, 80 + 44 * len(labels)), x_title="value")
    fig.update_layout(barmode="group", margin={"r": 56})
    fig.update_yaxes(autorange="reversed", type="category", automargin=True)
    fig.update_xaxes(range=[0, 1.18] if all(0 <= v <= 1 for v in (*a, *b)) else None, showgrid=True)
    return fig
