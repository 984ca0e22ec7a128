"""What each rank of one ranked list earns, as plotly figures: a Breakdown's per-rank contributions and running value,
DCG against the ideal order, RBP's weights and ERR's cascade. Pure.

Plotly renders hover text and tick labels as a subset of HTML and does not escape them, so every piece of user
text (doc ids, titles) goes through ``ir_metrics_lab.core.markdown.chart_label`` before it reaches a
figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from ir_metrics_lab.core.figures import layout
from ir_metrics_lab.core.figures.palette import (
    COLORS,
    GRADE_COLORS,
    GRADE_PATTERNS,
    RELEVANT_PATTERN,
    SECOND_PATTERN,
    grade_color,
    pattern,
)
from ir_metrics_lab.core.markdown import chart_label
from metrics.catalog import registry
from metrics.core.types import Breakdown
from metrics.families.err import CascadeStep

_safe = chart_label  # short: it wraps every piece of user text below


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
            name, color, shape = f"grade {max(step.grade, 0)}", grade_color(step.grade), GRADE_PATTERNS[grade]
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
    layout.base(fig, x_title="rank", y_title="contribution")
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


def ideal_vs_actual(
    dcg_b: Breakdown, idcg_b: Breakdown, run_total: str = "DCG", ideal_total: str = "IDCG"
) -> go.Figure:
    """Discounted gain per rank in the user's order vs the ideal order, with both cumulative sums as lines, named
    ``run_total`` and ``ideal_total`` (the diversity lesson's: alpha-DCG and the greedy ideal's)."""
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
    for b, name, color, dash in (
        (dcg_b, run_total, COLORS["blue"], "solid"),
        (idcg_b, ideal_total, COLORS["green"], "dot"),
    ):
        fig.add_scatter(
            x=[s.rank for s in b.steps],
            y=[s.running for s in b.steps],
            name=f"{name} so far",
            mode="lines+markers",
            line={"color": color, "width": 2, "dash": dash},
            hovertemplate=f"{name} up to rank %{{x}}: %{{y:.4f}}<extra></extra>",
        )
    layout.base(fig, x_title="rank", y_title="discounted gain")
    fig.update_layout(barmode="group")
    fig.update_xaxes(tickmode="linear", dtick=1)
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
    layout.base(fig, x_title="rank", y_title="weight")
    fig.update_layout(barmode="group")
    layout.integer_ticks(fig, len(ranks))
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
    layout.base(fig, x_title="rank", y_title="probability")
    fig.update_layout(barmode="group")
    fig.update_yaxes(range=[0, 1.05])
    layout.integer_ticks(fig, len(ranks))
    return fig
