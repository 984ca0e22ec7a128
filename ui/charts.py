"""Breakdown -> plotly figures (plotly.graph_objects only). Pure (no Streamlit)."""

from __future__ import annotations

import plotly.graph_objects as go

from metrics.types import Breakdown

COLORS = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "sky": "#56B4E9",
    "grey": "#999999",
}


def contributions(b: Breakdown) -> go.Figure:
    return go.Figure(go.Bar(x=[s.rank for s in b.steps], y=[s.contribution for s in b.steps]))


def ideal_vs_actual(dcg_b: Breakdown, idcg_b: Breakdown) -> go.Figure:
    return go.Figure()


def curves(series: dict[str, list[float]], k: int, title: str = "") -> go.Figure:
    return go.Figure()


def ab_curves(a: dict[str, list[float]], b: dict[str, list[float]], k: int) -> go.Figure:
    return go.Figure()


def per_query_bars(values: dict[str, float], mean: float, title: str) -> go.Figure:
    return go.Figure()
