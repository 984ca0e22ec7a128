"""The layout every figure starts from: plotly's own plotly_white template, the fonts, margins, legend and axes; and
the axis rules figures share (whole-number ticks for ranks and cutoffs, a fixed 0-1 axis for values that stay in it).
Pure.

Figures are built with plotly.graph_objects (plotly.express costs ~50 ms a call). Pages call
``st.plotly_chart(fig, theme=None)`` so the template, fonts and grid are these
(``ir_metrics_lab.parts.teaching.chart``).
"""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.io as pio

from ir_metrics_lab.core.figures.palette import COLORS
from ir_metrics_lab.core.markdown import chart_label

HEIGHT = 300

_WHITE = pio.templates["plotly_white"]


def white(fig: go.Figure) -> None:
    """Give ``fig`` plotly's own plotly_white template without validating it again. Plotly checks every property of
    an assigned template (its defaults for every trace type): 6-25 ms a figure, most of what a chart costs a rerun.
    Plotly skips the check this way when it applies its default template (BaseFigure._initialize_layout_template)."""
    fig.layout._validate = False
    try:
        fig.layout.template = _WHITE
    finally:
        fig.layout._validate = True


def base(fig: go.Figure, *, title: str = "", height: int = HEIGHT, x_title: str = "", y_title: str = "") -> go.Figure:
    """``fig`` on the white template with the app's fonts, margins, legend (above the plot, on the right) and axes."""
    white(fig)
    fig.update_layout(
        height=height,
        title={"text": chart_label(title), "x": 0, "xanchor": "left", "font": {"size": 15}} if title else None,
        margin={"l": 56, "r": 16, "t": 44 if title else 24, "b": 44},
        font={"family": "sans-serif", "size": 13, "color": COLORS["ink"]},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "right", "x": 1},
        hoverlabel={"font_size": 13},
        bargap=0.25,
    )
    fig.update_xaxes(title_text=x_title, showgrid=False, zeroline=False)
    fig.update_yaxes(title_text=y_title, gridcolor="#E5E9F0", zeroline=True, zerolinecolor="#C7CED8")
    return fig


def integer_ticks(fig: go.Figure, n: int) -> None:
    """Cutoffs and ranks are whole numbers: no 1.5 ticks."""
    fig.update_xaxes(tickmode="linear", tick0=1, dtick=1 if n <= 20 else 5)


def unit_range(fig: go.Figure, values: list[list[float]]) -> None:
    """A y axis from 0 to 1 (and a little headroom) when every value is in it."""
    if all(0 <= v <= 1 for vs in values for v in vs):
        fig.update_yaxes(range=[0, 1.05])
