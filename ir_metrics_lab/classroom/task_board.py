"""The projector's live judging board of a shared task (issue #48): judged / pool per topic and overall (a chart and
its numbers as a table), the judges' agreement per topic in plain words, the qrels as they build up, and the
disagreements, each with a one-tap settle control when the page holds the teacher's token.

It reads one snapshot (TaskStore.snapshot) every REFRESH_S in a fragment: a judgment shows within 2 s. Everything it
shows is computed in ir_metrics_lab.core.shared_task (judging, agreement, judgments); this module draws it.
"""

from __future__ import annotations

import hashlib
import logging

import plotly.graph_objects as go
import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ir_metrics_lab.classroom import live_class as live
from ir_metrics_lab.classroom import shared_task
from ir_metrics_lab.classroom.shared_task import task_store
from ir_metrics_lab.core.classroom.task_store import Snapshot, TaskError
from ir_metrics_lab.core.figures import palette
from ir_metrics_lab.core.markdown import chart_label, plain
from ir_metrics_lab.core.shared_task.agreement import agreement_per_topic
from ir_metrics_lab.core.shared_task.judging import GRADE_MEANINGS, Progress, agreement_reading, overall, progress
from ir_metrics_lab.core.shared_task.judgments import Disagreement, build_qrels, disagreements
from ir_metrics_lab.core.shared_task.pooling import Item
from ir_metrics_lab.parts import chart_text, teaching
from ir_metrics_lab.session import widget_state
from ir_metrics_lab.shell import css

REFRESH_S = 1.0  # a judgment on the projector within 2 s (issue #48), with a rerun's time to spare
AREA = "task_board"  # widget_state's message area
DISAGREEMENTS_SHOWN = 30  # the widest first; the rest are counted
BOARD_CSS = """
.st-key-task_board [data-testid="stMarkdownContainer"] p,
.st-key-task_board [data-testid="stMarkdownContainer"] td,
.st-key-task_board [data-testid="stMarkdownContainer"] th { font-size: 1.1rem; color: #1F2933; }
.st-key-task_board [data-testid="stMetricValue"] p { font-size: 3rem; font-weight: 700; color: #1F2933; }
.st-key-task_board [data-testid="stMetricLabel"] p { font-size: 1.2rem; font-weight: 600; color: #1F2933; }
"""  # static: nothing from the user; ink on white for a washed-out projector
_LOGGER = logging.getLogger(__name__)


def judging_board(code: str, teacher_token: str | None) -> None:
    """The live judging board of task ``code``; settle controls only when ``teacher_token`` is the task's."""
    teacher = bool(teacher_token) and live.read(task_store().is_teacher, code, teacher_token, default=False)
    with st.container(key="task_board"):
        _board(code, teacher_token if teacher else None)
    css.apply(BOARD_CSS)


@st.fragment(run_every=REFRESH_S)
def _board(code: str, token: str | None) -> None:
    snapshot = live.read(task_store().snapshot, code, default=False)
    if snapshot is False:  # the database is out: live.read said so, and this fragment asks again
        return
    if snapshot is None:
        st.error("This shared task was deleted, or the code is wrong.", icon=":material/search_off:")
        return
    if snapshot.task.state == "submitting":
        st.info("Judging starts when the teacher closes submissions: the pool is drawn then.")
        return
    rows = progress([t.id for t in snapshot.task.topics], snapshot.assigned, snapshot.grades, snapshot.settled)
    _progress(snapshot, rows)
    _agreement(snapshot, rows)
    _disagreements(snapshot, token)


def _progress(snapshot: Snapshot, rows: list[Progress]) -> None:
    total = overall(rows)
    qrels = build_qrels(snapshot.grades, snapshot.settled)
    state = "open" if snapshot.task.state == "judging" else "closed"
    st.header(f"Judging progress (judging {state})", anchor=False)
    columns = st.columns(3)
    columns[0].metric("Documents judged", f"{total.judged} / {total.pool}", border=True)
    columns[1].metric("Judgments given", f"{total.given} / {total.needed}", border=True)
    columns[2].metric("Qrels lines", sum(len(docs) for docs in qrels.values()), border=True)
    st.markdown(
        f"{total.judged} of {total.pool} pooled documents have a grade in the qrels; {total.complete} have all "
        f"their judges' grades (or the teacher's)."
    )
    if total.pool:
        teaching.chart(_chart(snapshot, rows), key="task_board_progress")


def _topic_label(snapshot: Snapshot, topic: str) -> str:
    title = next((t.title for t in snapshot.task.topics if t.id == topic), "")
    return f"{topic} · {title}" if title else topic


def _chart(snapshot: Snapshot, rows: list[Progress]) -> go.Figure:
    """Per topic, stacked: judged, then not judged yet, out of the pool."""
    labels = [chart_label(_topic_label(snapshot, r.topic or "")) for r in rows]
    fig = go.Figure()
    outline = {"color": palette.COLORS["ink"], "width": 1}  # the unjudged part's edge on white, off a projector too
    fig.add_bar(y=labels, x=[r.judged for r in rows], name="judged", orientation="h",
                marker={"color": palette.COLORS["blue"], "line": outline}, text=[r.judged for r in rows],
                textposition="inside", insidetextfont={"color": "#FFFFFF"})  # fmt: skip
    fig.add_bar(y=labels, x=[r.pool - r.judged for r in rows], name="not judged yet", orientation="h",
                marker={"color": "#FFFFFF", "pattern": palette.pattern("/"), "line": outline})  # fmt: skip
    fig.update_layout(
        title="Pooled documents judged, per topic",
        barmode="stack",
        height=110 + 36 * len(rows),
        margin={"l": 10, "r": 10, "t": 40, "b": 50},
        legend={"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom", "traceorder": "normal"},
        xaxis_title="pooled documents",
    )
    fig.update_yaxes(autorange="reversed", automargin=True)
    return fig


def _agreement(snapshot: Snapshot, rows: list[Progress]) -> None:
    """Per topic: judged / pool, complete, and the judges' agreement in a sentence (a table: the chart's numbers
    too)."""
    per_item = snapshot.task.per_item
    found = {a.topic: a for a in agreement_per_topic(snapshot.grades, per_item)}
    st.header("Agreement between judges, per topic", anchor=False)
    table = [
        [_topic_label(snapshot, r.topic or ""), f"{r.judged} / {r.pool}", str(r.complete),
         agreement_reading(found.get(r.topic or ""), per_item)]
        for r in rows
    ]  # fmt: skip
    st.markdown(chart_text.markdown_table(["topic", "judged / pool", "all grades in", "agreement"], table))


def _item_key(code: str, item: Item) -> str:
    return "task_settle_" + hashlib.sha256("\x1f".join((code, *item)).encode()).hexdigest()[:16]


def _disagreements(snapshot: Snapshot, token: str | None) -> None:
    found = disagreements(snapshot.grades, snapshot.settled)
    st.header(f"Disagreements ({len(found)})", anchor=False)
    message = widget_state.pop_message(AREA)
    if message:
        getattr(st, message[0])(plain(message[1]))
    if not found:
        st.markdown("No disagreement yet: every document judged twice or more got the same grade from its judges.")
        return
    if token:
        st.markdown("Tap a grade to settle a document: the qrels take your grade.")
    settled = sum(d.settled is not None for d in found)
    st.markdown(f"{settled} of {len(found)} settled.")
    collection = live.read(shared_task.documents, snapshot.task.code, snapshot.task.created_ms, default=None)
    documents = {doc.id: doc.title for doc in collection.documents} if collection else {}
    shown = found[:DISAGREEMENTS_SHOWN]
    for start in range(0, len(shown), 2):  # two a row on a wide screen (in reading order), one a row on a phone
        for column, one in zip(st.columns(2), shown[start : start + 2], strict=False):
            with column:
                _disagreement(snapshot, one, documents.get(one.item[1], ""), token)
    if len(found) > DISAGREEMENTS_SHOWN:
        st.markdown(f"{len(found) - DISAGREEMENTS_SHOWN} more, with a narrower spread, are not shown.")


def _disagreement(snapshot: Snapshot, shown: Disagreement, title: str, token: str | None) -> None:
    topic, doc = shown.item
    what = f"{_topic_label(snapshot, topic)}: {title or doc}" + (f" ({doc})" if title else "")
    grades = ", ".join(str(g) for g in shown.grades)
    status = f" · settled: {shown.settled}" if shown.settled is not None else ""
    with st.container(border=True):
        st.markdown(f"**{plain(what, one_line=True)}**  \ngrades given: {grades}{status}")
        if token:
            key = _item_key(snapshot.task.code, shown.item)
            st.segmented_control(
                f"Settle: {plain(title or doc, one_line=True)}",
                options=list(GRADE_MEANINGS),
                format_func=lambda g: f"{g} {GRADE_MEANINGS[g][0]}",
                default=widget_state.sync_widget(key, shown.settled),
                key=key,
                on_change=_settle,
                args=(snapshot.task.code, token, shown.item, key),
            )


def _settle(code: str, token: str, item: Item, key: str) -> None:
    grade = widget_state.widget_value(key)
    if grade is None:  # a second tap on the chosen grade unselects it: the settlement stays
        return
    try:
        task_store().settle(code, token, *item, int(grade))
    except TaskError as refused:
        widget_state.set_message(AREA, "error", str(refused)[:1].upper() + str(refused)[1:] + ".")
    except SQLAlchemyError:
        _LOGGER.warning("the database did not take a settlement", exc_info=True)
        widget_state.set_message(AREA, "warning", "The class server is busy: the grade was not settled. Tap again.")
