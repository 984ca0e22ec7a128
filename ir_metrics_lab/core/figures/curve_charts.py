"""Measures along the ranking, as plotly line charts: metric@k at every cutoff (of one list, or of A against B), with
a caption for lines that lie on top of each other, and the precision-recall curve. Pure.

Plotly renders hover text and tick labels as a subset of HTML and does not escape them, so every piece of user
text (measure names, a marker's label) goes through ``ir_metrics_lab.core.markdown.chart_label`` before it reaches a
figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from ir_metrics_lab.core.figures import layout
from ir_metrics_lab.core.figures.palette import COLORS, DASHES, SERIES_COLORS, SYMBOLS, SYSTEM_COLORS
from ir_metrics_lab.core.markdown import chart_label

_safe = chart_label  # short: it wraps every piece of user text below


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
    layout.base(fig, title=title, x_title=x_title, y_title="value")
    layout.integer_ticks(fig, max((len(v) for v in series.values()), default=1))
    _mark_k(fig, k, mark)
    layout.unit_range(fig, list(series.values()))
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
    layout.base(fig, x_title="cutoff k", y_title="value")
    layout.integer_ticks(fig, max((len(v) for v in (*a.values(), *b.values())), default=1))
    _mark_k(fig, k)
    layout.unit_range(fig, [*a.values(), *b.values()])
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
    layout.base(fig, title="Precision against recall", x_title="recall", y_title="precision")
    fig.update_xaxes(range=[-0.02, 1.02])
    fig.update_yaxes(range=[-0.02, 1.05])
    return fig
