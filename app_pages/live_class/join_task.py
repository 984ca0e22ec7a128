"""Join a shared task (students, on phones or laptops): join under a team's name or as a judge in no team, then,
while submissions are open, submit the team's runs: a TREC run file, or a run built by hand (search the collection,
pick documents, put them in order, per topic); then judge. No account: the live class's server-issued student id in
a signed cookie (ir_metrics_lab.classroom.live_class.student_id). Renders only (ir_metrics_lab.classroom.shared_task,
ir_metrics_lab.core.classroom.task_store)."""

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ir_metrics_lab.classroom import live_class as live
from ir_metrics_lab.classroom import shared_task as task
from ir_metrics_lab.classroom import task_judging
from ir_metrics_lab.core.classroom.store import NICKNAME_MAX, shown_code
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.shared_task.collection import search
from ir_metrics_lab.core.words import count
from ir_metrics_lab.session import task_state, widget_state
from ir_metrics_lab.shell import css

SNIPPET = 160  # characters of a document's text under its title in the search results
JOIN_AS = {"team": "A team (submits runs, then judges)", "judge": "A judge in no team"}
HOW = {"hand": "Build a run by hand", "file": "Upload a run file"}

student = live.read(live.student_id)
code = live.typed_code(st.query_params.get("code", ""))
joining = bool(student and code) and live.join_allowed(code)
snapshot = live.read(lambda: task.task_store().snapshot(code), default=False) if joining else None
value = widget_state.widget_value

st.title("Join a shared task")


def code_form(code: str) -> None:
    """No task under this code (or none typed yet): the code box."""
    if code and not joining:
        st.warning("Too many codes tried from this page: wait a few seconds, then join again.")
    elif code:
        st.error(
            f"No shared task has the code {plain(shown_code(code) if len(code) == 8 else code)}: check it.",
            icon=":material/search_off:",
        )
    with st.form("task_code", border=False):
        typed = st.text_input("Join code", placeholder="ABCD-EFGH", max_chars=12, key="task_code_typed")
        if st.form_submit_button("Open the task", type="primary", width="stretch"):
            st.query_params["code"] = live.typed_code(typed)
            st.rerun()


def task_page(snap) -> None:
    """The task: join it, then what its state asks of this student."""
    st.subheader(plain(snap.task.title, one_line=True), anchor=False)
    if student not in snap.members:
        join_form(snap)
    else:
        team = snap.members[student]
        st.markdown(f"You are {'in ' if team else ''}{task.as_team(team)}.")
        task.show_message("join")
        if snap.task.state == "submitting" and team:
            submit_area(snap, team)
        elif snap.task.state == "submitting":
            st.info("Judging starts when the teacher closes submissions: keep this page open.")
        elif snap.task.state == "judging":
            task_judging.judging_panel(snap.task.code, student)
        else:
            st.info("Judging is closed: the results are on the projector.")
    if not (student in snap.members and snap.task.state == "judging"):  # judging: the panel's own watcher looks
        watch(snap.task.code, snap.task.state)
    live.rerun_on_reconnect()


def join_form(snap) -> None:
    """Join under a team's name or as a judge in no team."""
    if snap.task.state != "submitting":
        st.caption("Submissions are closed; you can still join to judge (the teacher deals you in).")
    with st.form("task_join", border=False):
        st.radio("Join as", list(JOIN_AS), format_func=JOIN_AS.get, key="task_join_as")
        st.text_input("Team name (for a team)", max_chars=NICKNAME_MAX, key="task_team")
        st.form_submit_button("Join", type="primary", width="stretch", on_click=join_clicked, args=(snap.task.code,))
    task.show_message("join")


def join_clicked(code: str) -> None:
    team = str(value("task_team") or "") if value("task_join_as", "team") == "team" else None
    task.join(code, student, team)


def submit_area(snap, team: str) -> None:
    """While submissions are open: the team's runs so far; name a run, build it by hand or upload it."""
    team_runs(snap, team)
    st.text_input("Run name", max_chars=NICKNAME_MAX, key="task_run_name", placeholder="e.g. tyres-first")
    how = st.radio("How to submit", list(HOW), format_func=HOW.get, key="task_how", horizontal=True)
    if how == "hand":
        build_by_hand(snap)
    else:
        upload_run(snap.task.code)


def upload_run(code: str) -> None:
    st.file_uploader(
        "TREC run file (topic Q0 doc rank score tag)", key="task_run_file",
        help="Checked on arrival: each topic and document must be the task's, one line per rank.",
    )  # fmt: skip
    st.button(
        "Submit the file", type="primary", icon=":material/upload:", key="task_submit_file",
        on_click=lambda: task.submit_file(code, student, str(value("task_run_name") or ""), value("task_run_file")),
    )  # fmt: skip
    task.show_message("upload")


def build_by_hand(snap) -> None:
    """Per topic: search the collection, add documents, put them in order; then submit every topic's ranking."""
    code = snap.task.code
    docs = task.documents(code, snap.task.created_ms)
    topics = {t.id: t for t in snap.task.topics}
    topic = st.selectbox(
        "Topic", list(topics), key="task_topic",
        format_func=lambda t: plain(f"{t}: {topics[t].title}", one_line=True),
    )  # fmt: skip
    if topics[topic].description:
        st.caption(plain(topics[topic].description))
    ranking = task_state.draft(code).setdefault(topic, [])
    ranking_list(code, topic, ranking, docs.by_id())
    st.button(
        "Submit the run", type="primary", icon=":material/send:", key="task_submit_hand",
        on_click=lambda: task.submit_draft(code, student, str(value("task_run_name") or "")),
    )  # fmt: skip
    filled = sum(bool(d) for d in task_state.draft(code).values())
    st.caption(f"The run holds the rankings of {count(filled, 'topic')} of {len(topics)}; pick for the others too.")
    task.show_message("hand")
    find_documents(code, topic, ranking, docs)


def find_documents(code: str, topic: str, ranking: list[str], docs) -> None:
    """A keyword search over the collection (collection.search), each document found with its Add button."""
    st.markdown("**Find documents**")
    # Not a form: a form's submit sent while a timer's fragment run (watch, rerun_on_reconnect) was on its way was
    # sometimes lost, and the search showed nothing; a text box sends its value with every message after Enter.
    st.text_input("Search the collection", key="task_query", placeholder="e.g. winter tyres, then Enter")
    if query := str(value("task_query") or "").strip():
        hits = search(docs, query, task.SEARCH_LIMIT)
        st.caption(
            f"{count(len(hits), 'document')} found" + (" (the best ones)" if len(hits) == task.SEARCH_LIMIT else "")
        )
        for index, doc in enumerate(hits):
            with st.container(border=True):
                st.markdown(f"**{plain(doc.title, one_line=True)}** · {plain(doc.id, one_line=True)}")
                more = "…" if len(doc.text) > SNIPPET else ""
                st.caption(plain(doc.text[:SNIPPET] + more, one_line=True))
                picked = doc.id in ranking
                st.button(
                    ("Added " if picked else "Add ") + plain(doc.id, one_line=True), key=f"task_add_{index}",
                    icon=":material/check:" if picked else ":material/add:", disabled=picked,
                    on_click=task.pick, args=(code, topic, doc.id),
                )  # fmt: skip


def ranking_list(code: str, topic: str, ranking: list[str], by_id) -> None:
    """The topic's ranking so far, best first, each document with buttons to move it up or down or remove it."""
    st.markdown(f"**Your ranking for {plain(topic, one_line=True)}**")
    task.show_message("ranking")
    if not ranking:
        st.caption("No document yet: search, then add documents; the first you add is ranked first.")
    for index, doc in enumerate(ranking):
        title = by_id[doc].title if doc in by_id else ""
        st.markdown(f"**{index + 1}.** {plain(title, one_line=True)} · {plain(doc, one_line=True)}")
        with st.container(horizontal=True, key=f"task_rank_{index}"):
            st.button(
                f"Move {index + 1} up", key=f"task_up_{index}", disabled=index == 0,
                on_click=task.move, args=(code, topic, index, -1),
            )  # fmt: skip
            st.button(
                f"Move {index + 1} down", key=f"task_down_{index}", disabled=index == len(ranking) - 1,
                on_click=task.move, args=(code, topic, index, 1),
            )  # fmt: skip
            st.button(f"Remove {index + 1}", key=f"task_drop_{index}", on_click=task.drop, args=(code, topic, index))


def team_runs(snap, team: str) -> None:
    """The team's runs in the task so far (a new one of the same name replaces it)."""
    mine = [run for run in snap.runs.values() if run.team == team]
    st.markdown("**Your team's runs**")
    if not mine:
        st.caption("None yet.")
        return
    rows = ["| run | topics | documents |", "|---|---:|---:|"]
    for run in mine:
        documents = sum(len(docs) for docs in run.rankings.values())
        rows.append(f"| {plain(run.name, one_line=True)} | {len(run.rankings)} | {documents} |")
    st.markdown("\n".join(rows))


@st.fragment(run_every=task.STUDENT_REFRESH_S)
def watch(code: str, shown_state: str) -> None:
    """Draws nothing: the whole page again when the teacher closes submissions or judging, or deletes the task."""
    try:
        now = task.task_store().task(code)
    except SQLAlchemyError:  # the next tick asks again
        return
    if now is None or now.state != shown_state:
        st.rerun(scope="app")


if student is None or snapshot is False:  # the database is out: live.read said so, and redraws the page when back
    pass
elif snapshot is None:  # not st.stop(): app.py's CSS and first-paint bookkeeping come after the page
    code_form(code)
else:
    task_page(snapshot)
css.apply(task.CSS)  # last, as app.py sends its CSS (ir_metrics_lab.shell.css)
