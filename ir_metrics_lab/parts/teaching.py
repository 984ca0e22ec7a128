"""Streamlit pieces shared by the lesson pages: numbered steps, worked formulas, charts, traps and the source.

Pages render; they do not compute. Every number passed in here is a Breakdown from ``metrics``.
User text (doc ids, titles) is shown only through st.dataframe or escaped markdown, never as HTML or LaTeX.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import plotly.graph_objects as go
import streamlit as st

from ir_metrics_lab.core.figures import tables
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.scenario import Scenario
from ir_metrics_lab.parts import chart_text, lazy_expander
from ir_metrics_lab.shell import first_paint, presenter
from metrics.core.types import Breakdown
from metrics.teaching import formulas


def fmt(x: float) -> str:
    return f"{x:.4f}"


def source_key(fn: Callable) -> str:
    """The widget key of ``fn``'s "Show the code" expander (its state says whether it is open)."""
    return f"source_{fn.__module__}.{fn.__qualname__}"


def show_source(fn: Callable, label: str | None = None) -> None:
    """An expander with the source of the function that computed the numbers above: the code that ran. Its code box
    is drawn only once it is opened (ir_metrics_lab.parts.lazy_expander)."""
    label = label or f"Show the code that computed this: `{fn.__name__}`"
    if box := lazy_expander.opened(label, key=source_key(fn), icon=":material/code:"):
        box.code(inspect.getsource(fn), language="python", line_numbers=True)


@contextmanager
def step(number: int, title: str, caption: str = "") -> Iterator[None]:
    """One numbered step of a lesson: a heading, a short caption, and a bordered live cell for its content."""
    st.subheader(f"{number}. {title}", anchor=False)
    if caption:
        st.markdown(caption)
    with st.container(border=True):
        yield


def formula(latex: str, where: object = st) -> None:
    """A display formula in ``where`` (st, a column). A new visitor's first run reserves its estimated height
    instead: KaTeX's chunk and typesetting held the first number of a lesson back by seconds (bench/app/first_visit.py),
    so the formula follows with the charts (ir_metrics_lab.shell.first_paint)."""
    if not first_paint.charts_now():
        first_paint.formula_room(latex, where)
        return
    where.latex(latex)


def worked(b: Breakdown) -> None:
    """The worked formula of a Breakdown, numbers substituted."""
    formula(formulas.latex(b))


def definition(family: str, b: Breakdown) -> None:
    formula(formulas.definition(family, b.conventions))


def metric_row(items: Sequence[tuple[str, Breakdown]], *, help_texts: Sequence[str] | None = None) -> None:
    """st.metric cards side by side: (label, Breakdown)."""
    columns = st.columns(len(items))
    for i, (column, (label, b)) in enumerate(zip(columns, items, strict=True)):
        column.metric(label, fmt(b.value), help=help_texts[i] if help_texts else None, border=True)


def chart(fig: go.Figure, key: str, where: object = st) -> None:
    """Draw a figure in ``where`` (st, a column, a tab). theme=None keeps the figure's own Okabe-Ito colours
    (Streamlit's theme would swap them); no Plotly toolbar, which covered the legend on a phone (drag still zooms, a
    double click resets); text scaled for a projector in presenter mode; its title above it as text; under it, the chart
    as text (ir_metrics_lab.parts.chart_text). A new visitor's first run reserves its height and the chart follows
    (ir_metrics_lab.shell.first_paint)."""
    fig = presenter.scaled(fig)
    title = chart_text.title(fig)
    if title:  # above the chart as text, which wraps on a narrow screen where Plotly's one-line title is cut off
        where.markdown(f"**{plain(title)}**")
        fig.update_layout(title=None)
    if not first_paint.charts_now():  # a new visitor's first run: the chart's box, the chart on the next run
        where.container(height=int(fig.layout.height or 450), border=False, key=f"{key}_first_paint")
    else:
        where.plotly_chart(fig, theme=None, key=key, config={"displayModeBar": False})
    chart_text.text_alternative(fig, key, where, title=title)


def steps_table(b: Breakdown, scn: Scenario | None = None) -> None:
    """The per-rank steps as a dataframe (cells are plain text, so titles are safe)."""
    st.dataframe(
        tables.steps(b, titles=dict(scn.titles) if scn else None),
        hide_index=True,
        width="stretch",
        column_config={
            "contribution": st.column_config.NumberColumn(format="%.4f"),
            "running": st.column_config.NumberColumn(format="%.4f"),
        },
    )


def traps(items: Sequence[str]) -> None:
    """Numbered traps: common mistakes, each with the number that shows it."""
    st.subheader("Traps", anchor=False)
    st.markdown("\n".join(f"{i}. {text}" for i, text in enumerate(items, start=1)))


def naming(text: str) -> None:
    st.info(text, icon=":material/label:")


def playground_note(scn: Scenario) -> None:
    """Where the lesson's list comes from; a hidden tail (a query opened from a run) is named, since it counts."""
    tail = ""
    if scn.tail:
        more = "1 more retrieved document" if len(scn.tail) == 1 else f"{len(scn.tail):,} more retrieved documents"
        tail = f", plus {more} after them, not shown but counted in every number"
    st.caption(
        f"This uses the list from the **Playground** ({len(scn.ranking)} ranked{tail}; {len(scn.shelf)} judged but "
        f"not retrieved; k = {scn.k}). Drag or regrade documents there and come back: the numbers follow."
    )
