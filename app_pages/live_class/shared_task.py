"""Shared task (the teacher, on the projector): set a task (the sample collection or an upload, the pool depth k, the
judges per document), then its join code, QR code and link, the teams and runs as they arrive, and the teacher's
controls: close submissions (the pool and the judges are drawn), deal in late joiners, close judging, reopen, delete.
Renders only: the task lives in ir_metrics_lab.core.classroom.task_store, the actions in
ir_metrics_lab.classroom.shared_task."""

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ir_metrics_lab.classroom import live_class as live
from ir_metrics_lab.classroom import shared_task as task
from ir_metrics_lab.classroom import task_board, task_results
from ir_metrics_lab.core.classroom.task_store import DEPTH_MAX, JUDGES_MAX
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.session import task_state, widget_state
from ir_metrics_lab.shell import css

task.claim_teacher_link()
task.restore_teacher()  # a restarted server: back to the task the browser's cookie names

st.title("Shared task")
task.show_message("teacher")

teaching = task_state.task_teacher()
snapshot = live.read(lambda: task.task_store().snapshot(teaching[0]), default=False) if teaching else None
base = task.app_base()

RESULTS_REFRESH_S = 3.0  # the leaderboard follows the judgments; the judging board above refreshes every second
SOURCES = {"sample": "The sample collection: city cycling (8 topics, 200 documents)", "upload": "My own files"}


def create_form() -> None:
    """No task running here: the form that sets one."""
    if teaching:  # the task this browser ran is gone
        st.info("The task this browser ran was deleted. Set a new one.", icon=":material/delete:")
        task_state.set_task_teacher(None)
    st.caption(
        "Teams submit runs from their phones or laptops (a TREC run file, or a run built by hand); you close "
        "submissions, the pool of every run's top k is drawn and dealt to the class to judge, and the leaderboard "
        "is scored on those judgments."
    )
    st.text_input("Title", value="Cycling in the city", max_chars=200, key="task_title")
    source = st.radio("Documents and topics", list(SOURCES), format_func=SOURCES.get, key="task_source")
    if source == "upload":
        st.caption(
            "JSON Lines (one object a line) or CSV with a header: documents with `id`, `title`, `text`; topics with "
            "`id`, `title`, `description`."
        )
        docs_col, topics_col = st.columns(2)
        docs_col.file_uploader("Documents", type=["jsonl", "json", "csv"], key="task_docs_file")
        topics_col.file_uploader("Topics", type=["jsonl", "json", "csv"], key="task_topics_file")
    depth_col, judges_col = st.columns(2)
    depth_col.number_input(
        "Pool depth k", 1, DEPTH_MAX, 10, key="task_depth", help="Each run's top k documents per topic are judged."
    )
    judges_col.number_input("Judges per document", 1, JUDGES_MAX, 2, key="task_judges")
    st.button("Create the task", type="primary", icon=":material/add_task:", key="task_create", on_click=create)
    task.show_message("create")


def create() -> None:
    """The button's callback: the form's values as they are now."""
    value = widget_state.widget_value
    task.create(
        value("task_title", ""),
        value("task_source", "sample") == "sample",
        [value("task_docs_file"), value("task_topics_file")],
        int(value("task_depth", 10)),
        int(value("task_judges", 2)),
    )


def run_task(snap) -> None:
    """A task running: its title and state, the join panel beside the teams and runs, the controls, the stage's
    panel (judging board or results) and the teacher link."""
    state = snap.task.state
    st.subheader(f"{plain(snap.task.title, one_line=True)} · {task.STATES[state]}", anchor=False)
    join_col, status_col = st.columns([2, 3], gap="large")
    with join_col:
        join_panel(snap.task.code)
    with status_col:
        status(snap.task.code, state)
    controls(state)
    if state == "judging":
        task_board.judging_board(snap.task.code, teaching[1])
    if state != "submitting":  # the pool is drawn: the results follow the judgments as they arrive
        results(snap.task.code)
    live.rerun_on_reconnect()
    live.teacher_link_box(
        task.teacher_link(base, snap.task.code, teaching[1]),
        "It runs this task from any browser, next week too.",
        key="task_teacher_link",
    )


def join_panel(code: str) -> None:
    """The join address, code and QR code."""
    join = task.join_link(base, code)
    live.join_box(base, task.JOIN_PATH, code, join, key="task_join_code")


@st.fragment(run_every=task.REFRESH_S)
def status(code: str, shown_state: str) -> None:
    """Students, teams and runs as they arrive (a fragment rerun every REFRESH_S, without reloading the page); the
    whole page again when the task changed state or went (another tab of the teacher's)."""
    try:
        snap = task.task_store().snapshot(code)
    except SQLAlchemyError:  # the next tick tries again
        st.caption(task.BUSY_READ)
        return
    if snap is None or snap.task.state != shown_state:
        st.rerun(scope="app")
    teams = {team for team in snap.members.values() if team is not None}
    with st.container(horizontal=True):  # a row on a phone too, where columns stack
        st.metric("Students", len(snap.members))
        st.metric("Teams", len(teams))
        st.metric("Runs", len(snap.runs))
    st.markdown(task.teams_markdown(snap))


def controls(state: str) -> None:
    """The teacher's buttons for the task's state, then deleting it (behind a confirmation)."""
    row = st.columns(3)
    if state == "submitting":
        row[0].button(
            "Close submissions", type="primary", icon=":material/lock:", key="task_close_submissions", width="stretch",
            on_click=task.teacher_action, args=("close_submissions", ""),
            help="Draws the pool (every run's top k per topic) and deals its documents to the students to judge.",
        )  # fmt: skip
    elif state == "judging":
        row[0].button(
            "Close judging", type="primary", icon=":material/gavel:", key="task_close", width="stretch",
            on_click=task.teacher_action, args=("close", "Judging closed: the results are final until you reopen."),
        )  # fmt: skip
        row[1].button(
            "Deal in late joiners", icon=":material/group_add:", key="task_deal_in", width="stretch",
            on_click=task.teacher_action, args=("deal_in", ""),
            help="Spreads the documents not judged yet over every student, those who joined after the draw too.",
        )  # fmt: skip
    else:
        row[0].button(
            "Reopen judging", icon=":material/lock_open:", key="task_reopen", width="stretch",
            on_click=task.teacher_action, args=("reopen", "Judging reopened on the same pool."),
        )  # fmt: skip
    row[2].button(
        "Leave this task", icon=":material/logout:", key="task_leave", width="stretch", on_click=task.leave,
        help="This browser stops running it; the task stays, and your teacher link brings it back.",
    )  # fmt: skip
    with st.expander("Delete the task", icon=":material/delete:"):
        sure = st.checkbox("Yes: delete the task, its runs and its judgments for good", key="task_delete_sure")
        st.button(
            "Delete the task", icon=":material/delete_forever:", key="task_delete", disabled=not sure,
            on_click=task.teacher_action, args=("delete", "The task was deleted."),
        )  # fmt: skip


@st.fragment(run_every=RESULTS_REFRESH_S)
def results(code: str) -> None:
    """The pool, the leaderboard, the pooling bias and the takeaways, on the judgments so far (their scores are
    cached by the judgments: a refresh with no new one computes nothing)."""
    snap = live.read(lambda: task.task_store().snapshot(code), default=False)
    if not snap:  # out (live.read said so) or deleted (the page's next run says so)
        return
    task_results.pool_panel(snap)
    task_results.leaderboard_panel(snap)
    task_results.bias_panel(snap)
    task_results.downloads_panel(snap)


if snapshot is False:  # the database is out: live.read said so, and redraws the page when it is back
    pass
elif snapshot is None:  # not st.stop(): app.py's CSS and first-paint bookkeeping come after the page
    create_form()
else:
    run_task(snapshot)
task.keep_teacher_cookie()
css.apply(task.CSS)  # last, as app.py sends its CSS (ir_metrics_lab.shell.css)
