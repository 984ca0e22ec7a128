"""A shared task's pool as a chart: how far the runs' pooled documents overlap (Jaccard, runs x runs), each cell
printing its value so the colour is never the only carrier (WCAG 1.4.1). Run names are user text: through
chart_label. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from ir_metrics_lab.core.figures import layout
from ir_metrics_lab.core.figures.palette import COLORS
from ir_metrics_lab.core.markdown import chart_label

CELL_PX = 44  # a cell's height: the printed value stays legible on a projector


def overlap_heatmap(runs: Sequence[str], overlaps: Mapping[tuple[str, str], float]) -> go.Figure:
    """Runs x runs: the share of the pooled documents of two runs that both pooled (the diagonal is 1)."""
    labels = [chart_label(run) for run in runs]

    def value(a: str, b: str) -> float:
        return 1.0 if a == b else overlaps.get((a, b), overlaps.get((b, a), 0.0))

    z = [[value(a, b) for b in runs] for a in runs]
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=labels,
            y=labels,
            zmin=0,
            zmax=1,
            colorscale=[[0.0, "#FFFFFF"], [1.0, COLORS["blue"]]],
            texttemplate="%{z:.2f}",
            hovertemplate="%{y} and %{x}: %{z:.2f} of the documents either pooled, both pooled<extra></extra>",
            colorbar={"title": {"text": "overlap"}, "thickness": 12},
        )
    )
    layout.base(
        fig,
        title="Overlap of the runs' pooled documents",
        height=120 + CELL_PX * len(runs),
        x_title="run",
        y_title="run",
    )
    fig.update_yaxes(autorange="reversed", gridcolor=None, zeroline=False)
    fig.update_xaxes(side="bottom")
    return fig
