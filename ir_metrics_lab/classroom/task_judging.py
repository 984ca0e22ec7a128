"""A phone's judging in a shared task (issue #48): the documents assigned to this student and not yet judged, one at
a time, the topic above it, a grade 0-3 with its meaning in words, and "n of m judged"; then a clear end.

The grade is a radio group with one Send button, not four grade buttons: a double tap on a grade button would land
its second tap on the next document's button in the same place and grade a document nobody read. A double tap on Send
meets the next document's Send with no grade chosen, and a grade this session already sent is never sent again
(live_state.task_judgment_sent); the store counts a judgment once whatever reaches it. Not an st.form: on this page a
form's submit was sometimes never answered when it met a run of the page's timer fragments (the search box showed it
first); the cause inside Streamlit is not pinned down.

The teacher closing judging (or dealing documents in) reaches the phone without a tap: a fragment looks every
live_class.STUDENT_REFRESH_S. A refusal (not yours, already judged, judging closed) is the page's message; a database
out is said in words and the chosen grade stays on screen to be sent again.
"""

from __future__ import annotations

import hashlib
import logging

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ir_metrics_lab.classroom import live_class as live
from ir_metrics_lab.classroom import shared_task
from ir_metrics_lab.classroom.shared_task import task_store
from ir_metrics_lab.core.classroom.task_store import Task, TaskError
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.shared_task.judging import GRADE_MEANINGS, grade_label
from ir_metrics_lab.core.shared_task.pooling import Item
from ir_metrics_lab.session import live_state, widget_state
from ir_metrics_lab.shell import css

AREA = "task_judging"  # widget_state's message area
ALL_DONE = "All your documents are judged. Thank you."
NOT_SENT = "The class server is busy: your grade was not recorded. Send it again in a moment."
JUDGING_CSS = """
.st-key-task_judging [role="radiogroup"] label { min-height: 3rem; align-items: center; padding: 0.25rem 0; }
.st-key-task_judging [role="radiogroup"] label p { font-size: 1.15rem; }
.st-key-task_judging_document p { font-size: 1.1rem; line-height: 1.55; }
.st-key-task_judging [data-testid^="stBaseButton-primary"] { min-height: 3.25rem; }
.st-key-task_judging [data-testid^="stBaseButton-primary"] p { font-size: 1.2rem; font-weight: 600; }
.st-key-task_judging_focus { display: none; }
.st-key-task_judging { scroll-margin-top: 4.5rem; }
"""  # static: nothing from the user
# After a grade is sent the next document is drawn where the last one was, and a reader at the Send button would see
# its grades, not its text: the panel is scrolled to its top (what was sent, the progress, the topic) and the topic's
# heading focused (a screen reader reads it; the next Tab reaches the grades). Not on the page's first document: the
# reader starts at the top. It runs in the page (a v2 component, no iframe); the heading may be drawn a frame after
# it, so it looks for a second.
_FOCUS_JS = """
export default function (component) {
  const { data } = component;
  if (!data || !data.item || window.__irlabJudgingShown === data.item) return;
  const first = window.__irlabJudgingShown === undefined;
  window.__irlabJudgingShown = data.item;
  if (first) return;
  let tries = 0;
  const look = () => {
    const heading = [...document.querySelectorAll(".st-key-task_judging h2")]
      .find((h) => h.textContent.trim() === data.heading);
    if (!heading) { if ((tries += 1) < 60) requestAnimationFrame(look); return; }
    heading.setAttribute("tabindex", "-1");
    const top = () => (heading.closest(".st-key-task_judging") || heading).scrollIntoView({ block: "start" });
    top();
    heading.focus({ preventScroll: true });
    setTimeout(top, 250);  // again once the message above has been drawn (scroll anchoring kept the old place)
  };
  look();
}
"""
_FOCUS = st.components.v2.component("irlab_task_judging_focus", js=_FOCUS_JS)
_LOGGER = logging.getLogger(__name__)


def judging_panel(code: str, student: str) -> None:
    """The judging phase of the student page: this student's next document to judge, or why there is none."""
    with st.container(key="task_judging"):
        _panel(code, student)
    css.apply(JUDGING_CSS)


@st.fragment
def _panel(code: str, student: str) -> None:
    """A tap reruns only this; the watcher inside reruns the app when the teacher changes something."""
    tasks = task_store()
    task = live.read(tasks.task, code, default=False)
    if task is False:  # the database is out: live.read said so, and redraws the page when it is back
        return
    if task is None:
        st.error("This shared task was deleted, or the code is wrong.", icon=":material/search_off:")
        return
    remaining = None
    if task.state == "judging":
        remaining = live.read(tasks.my_items, code, student, default=False)
        total = live.read(tasks.assigned_count, code, student, default=False)
        if remaining is False or total is False:
            return
        _judging(task, student, remaining, total)
    else:
        _message()
        if task.state == "submitting":
            st.info("Judging has not started yet: it opens when the teacher closes submissions.")
        else:
            st.info("The teacher has closed judging. Thank you for your grades.", icon=":material/check_circle:")
    live_state.set_task_judging_drawn(code, (task.state, None if remaining is None else len(remaining)))
    _watch(code, student)


def _message() -> None:
    message = widget_state.pop_message(AREA)
    if message:
        getattr(st, message[0])(plain(message[1]))


def _judging(task: Task, student: str, remaining: list[Item], total: int) -> None:
    """The progress, then the next document with its grade form, or the end state."""
    done = total - len(remaining)
    if total:
        st.progress(done / total, text=f"{done} of {total} judged")
    _message()
    if total == 0:
        st.info(
            "You have no documents to judge yet. If you joined after the pool was drawn, the teacher can deal "
            "you in: this page shows your documents as soon as they do."
        )
        return
    if not remaining:
        st.success(ALL_DONE, icon=":material/task_alt:")
        return
    topic_id, doc_id = remaining[0]
    collection = live.read(shared_task.documents, task.code, task.created_ms, default=None)
    if collection is None:
        return
    documents = collection.by_id()
    topic = next((t for t in task.topics if t.id == topic_id), None)
    document = documents.get(doc_id)
    heading = f"Topic: {topic.title if topic else topic_id}"
    st.header(plain(heading, one_line=True), anchor=False)
    if topic and topic.description:
        st.markdown(plain(topic.description))
    with st.container(border=True, key="task_judging_document"):
        st.subheader(plain(document.title if document and document.title else doc_id, one_line=True), anchor=False)
        st.markdown(plain(document.text) if document else "This document's text is missing from the collection.")
    _grade_controls(task.code, student, (topic_id, doc_id))
    _FOCUS(key="task_judging_focus", data={"item": _key(task.code, (topic_id, doc_id)), "heading": heading})


def _key(code: str, item: Item) -> str:
    """A widget key per document (ids are user text: hashed, not spelled into keys and CSS classes)."""
    return "task_grade_" + hashlib.sha256("\x1f".join((code, *item)).encode()).hexdigest()[:16]


def _grade_controls(code: str, student: str, item: Item) -> None:
    key = _key(code, item)
    st.radio(
        "How relevant is this document to the topic?",
        options=list(GRADE_MEANINGS),
        format_func=grade_label,
        index=None,
        key=key,
    )
    st.button(
        "Send grade",
        type="primary",
        width="stretch",
        key=f"{key}_send",
        on_click=_send,
        args=(code, student, item, key),
    )


def _send(code: str, student: str, item: Item, key: str) -> None:
    """The Send button's callback: once per document and session, the grade to the store, its outcome kept for the
    panel's next run."""
    grade = widget_state.widget_value(key)
    sent = (code, *item)
    if live_state.task_judgment_sent(sent):  # a second tap on a form already sent: nothing to send
        return
    if grade is None:
        widget_state.set_message(AREA, "warning", "Choose a grade first, then send it.")
        return
    try:
        task_store().judge(code, student, *item, int(grade))
    except TaskError as refused:
        live_state.mark_task_judgment_sent(sent)
        widget_state.set_message(AREA, "error", str(refused)[:1].upper() + str(refused)[1:] + ".")
    except SQLAlchemyError:
        _LOGGER.warning("the database did not take a judgment; the phone keeps it", exc_info=True)
        widget_state.set_message(AREA, "warning", NOT_SENT)
    else:
        live_state.mark_task_judgment_sent(sent)
        widget_state.set_message(AREA, "success", f"Grade {grade} ({GRADE_MEANINGS[int(grade)][0]}) sent.")


@st.fragment(run_every=live.STUDENT_REFRESH_S)
def _watch(code: str, student: str) -> None:
    """Draws nothing: the whole page again when the task's state or this student's documents changed (the teacher
    closed, reopened or dealt in), compared with what the panel last drew (kept in the session by the panel's every
    run, whichever run drew it)."""
    try:
        task = task_store().task(code)
        now = len(task_store().my_items(code, student)) if task is not None and task.state == "judging" else None
    except SQLAlchemyError:  # the next tick asks again
        return
    if task is None or (task.state, now) != live_state.task_judging_drawn(code):
        st.rerun(scope="app")
