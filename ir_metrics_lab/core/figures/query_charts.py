"""One measure over many queries, as plotly figures: a bar per query with the mean, and the distribution of a run's
values. Pure.

Plotly renders hover text and tick labels as a subset of HTML and does not escape them, so every piece of user
text (query ids, measure names) goes through ``ir_metrics_lab.core.markdown.chart_label`` before it reaches a
figure.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ir_metrics_lab.core import words
from ir_metrics_lab.core.figures import layout
from ir_metrics_lab.core.figures.palette import COLORS, TEXT_COLORS
from ir_metrics_lab.core.markdown import chart_label

_safe = chart_label  # short: it wraps every piece of user text below


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
    layout.base(fig, title=title, height=280, y_title="value")
    fig.update_xaxes(type="category")
    layout.unit_range(fig, [list(values.values()), [mean]])
    fig.update_layout(showlegend=False)
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
    layout.white(fig)
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
