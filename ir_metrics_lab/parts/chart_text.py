"""A chart's text alternative (WCAG 1.1.1): one sentence saying what the chart shows, and its data as a table, both
read off the Plotly figure itself, so they cannot disagree with what is drawn. ``text_alternative`` puts them one
click away, in a popover under the chart ("Chart as text").

The table is Markdown (an HTML table for screen readers, no canvas grid): every cell goes through
ir_metrics_lab.core.markdown.plain, since series names and categories can be user text (run names, doc ids, query ids).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

import plotly.graph_objects as go
import streamlit as st

from ir_metrics_lab.core.figures.heatmaps import is_click_layer
from ir_metrics_lab.core.markdown import plain

MAX_ROWS = 300  # a per-query chart of a large run: the first rows, and a sentence saying how many there are
_TAG = re.compile(r"<[^>]+>")
_KINDS = {"bar": "bar chart", "heatmap": "heatmap", "histogram": "histogram", "waterfall": "waterfall chart"}


def _text(value: object) -> str:
    """A Plotly title or label as plain words (titles may hold <b>, <br>, <sup> tags, and user text is escaped as
    HTML: ir_metrics_lab.core.markdown.chart_label)."""
    return html.unescape(" ".join(_TAG.sub(" ", str(value or "")).split()))


def title(fig: go.Figure) -> str:
    """The figure's title as plain words ("" if it has none)."""
    return _text(fig.layout.title.text) if fig.layout.title else ""


def _kind(trace) -> str:
    if trace.type == "scatter":
        mode = trace.mode or "lines"
        return "line chart" if "lines" in mode else "scatter plot"
    return _KINDS.get(trace.type, f"{trace.type} chart")


def _shown(fig: go.Figure) -> list:
    """The traces that carry data: not a layer that draws nothing and only catches clicks and hovers (the swap
    heatmap's)."""
    return [t for t in fig.data if not is_click_layer(t)]


def _axis_title(axis) -> str:
    return _text(axis.title.text) if axis and axis.title else ""


def _number(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "" if value != value else f"{value:.4f}"  # NaN: no value
    return str(value)


def sentence(fig: go.Figure, chart_title: str | None = None) -> str:
    """What the chart shows, in one sentence.

    >>> fig = go.Figure(go.Bar(x=[1, 2], y=[0.5, 0.25], name="AP"))
    >>> _ = fig.update_layout(title="AP per rank", xaxis_title="rank", yaxis_title="contribution")
    >>> sentence(fig)
    'Bar chart, AP per rank: contribution by rank (2 points).'
    """
    traces = _shown(fig)
    if not traces:
        return "An empty chart."
    kinds = list(dict.fromkeys(_kind(t) for t in traces))
    kind = " and ".join(kinds)
    named = title(fig) if chart_title is None else chart_title
    x_title, y_title = _axis_title(fig.layout.xaxis), _axis_title(fig.layout.yaxis)
    head = kind[0].upper() + kind[1:] + (f", {named}" if named else "")
    if traces[0].type == "heatmap":
        rows, columns = len(traces[0].y or ()), len(traces[0].x or ())
        value = _text(traces[0].colorbar.title.text) if traces[0].colorbar and traces[0].colorbar.title else ""
        return (
            f"{head}: {value or 'a value'} for each {y_title or 'row'} (rows) and {x_title or 'column'} (columns), "
            f"{rows} by {columns}."
        )
    names = [_text(t.name) for t in traces if t.name]
    points = max(len(t.x if t.x is not None else t.y or ()) for t in traces)
    series = f", {len(names)} series: {', '.join(names)}" if len(names) > 1 else ""
    return f"{head}: {y_title or 'value'} by {x_title or 'position'} ({points} points{series})."


def table(fig: go.Figure) -> tuple[list[str], list[list[str]]]:
    """The chart's data: (header, rows). One row per x value (the categories or positions, in the order drawn) and
    one column per series; a heatmap's columns as rows, its rows as columns."""
    traces = _shown(fig)
    if traces and traces[0].type == "heatmap":  # one row per column of the map: a run's many queries read down
        heat = traces[0]
        header = [_axis_title(fig.layout.xaxis) or "column", *(_text(y) for y in heat.y or ())]
        z = heat.z.tolist() if hasattr(heat.z, "tolist") else heat.z  # a numpy array's cells as Python floats, at once
        return header, [[_number(x), *(_number(row[i]) for row in z)] for i, x in enumerate(heat.x or ())]
    x_title = _axis_title(fig.layout.xaxis) or "x"
    by_x: dict[str, dict[int, str]] = {}
    names = []
    for i, trace in enumerate(traces):
        xs, ys = (trace.y, trace.x) if getattr(trace, "orientation", None) == "h" else (trace.x, trace.y)
        if ys is None:
            continue
        xs = xs if xs is not None else range(1, len(ys) + 1)
        names.append(_text(trace.name) or f"series {i + 1}")
        for x, y in zip(xs, ys, strict=False):
            by_x.setdefault(_number(x), {})[len(names) - 1] = _number(y)
    header = [x_title, *names]
    xs = list(by_x)
    if all(_is_number(x) for x in xs):  # bars grouped by series list their ranks group by group: read them in order
        xs.sort(key=float)
    return header, [[x, *(by_x[x].get(i, "") for i in range(len(names)))] for x in xs]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]], max_rows: int = MAX_ROWS) -> str:
    """A Markdown table of literal cells (at most ``max_rows`` rows, and a line saying how many were left out)."""

    escaped: dict[str, str] = {}  # a big matrix repeats its values: escape each once

    def cell(text: str) -> str:
        if text not in escaped:
            escaped[text] = plain(text, one_line=True) or " "
        return escaped[text]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cell(c) for c in cells) + " |"

    lines = [line(header), "|" + "---|" * len(header), *(line(r) for r in rows[:max_rows])]
    if len(rows) > max_rows:
        lines.append(f"\nThe first {max_rows} of {len(rows)} rows.")
    return "\n".join(lines)


def text_alternative(fig: go.Figure, key: str, where: object = st, *, title: str | None = None) -> None:
    """The sentence and the data table of ``fig``, in a popover under the chart (``title``: the chart's, when it
    was taken out of the figure)."""
    with where.popover("Chart as text", icon=":material/table_view:", key=f"{key}_as_text"):
        st.markdown(plain(sentence(fig, title)))
        st.markdown(markdown_table(*table(fig)))
