"""Streamlit pieces of a shared task (app_pages/live_class/shared_task.py for the teacher,
app_pages/live_class/join_task.py for the students): the store, the addresses, the teacher's session and cookie, and
every action with its refusals turned into messages.

The task lives in the live class's database (ir_metrics_lab.core.classroom.task_store, on the live class's engine);
a session only remembers which task it teaches (ir_metrics_lab.session.task_state) and, for a student, the live
class's server-issued id (ir_metrics_lab.classroom.live_class.student_id). The teacher's link
(``?task=CODE&teacher=TOKEN``) makes a session the task's teacher; a cookie of its own (not the poll's) brings a
projector back to its task after a restart, as the poll's teacher cookie does.

Every action goes through ``attempt``: a store refusal (TaskError), a bad file (InputError, naming its line) or a
database that does not answer becomes a message in the area that acted, never a traceback; what the user typed stays
in its widgets.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlencode

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ir_metrics_lab.classroom import live_class as live
from ir_metrics_lab.core.classroom import identity
from ir_metrics_lab.core.classroom.store import PollError
from ir_metrics_lab.core.classroom.task_store import Snapshot, TaskStore
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.shared_task import collection
from ir_metrics_lab.core.shared_task.collection import Collection
from ir_metrics_lab.core.shared_task.runs import run_text
from ir_metrics_lab.core.words import count
from ir_metrics_lab.session import task_state
from ir_metrics_lab.shell import a11y, first_paint
from metrics.core.errors import InputError

TEACH_PATH = "shared-task"
JOIN_PATH = "task"
TEACHER_COOKIE = "irml_task_teacher"  # not the poll's (identity.TEACHER_COOKIE): a teacher may run both at once
TEACHER_COOKIE_KEY = "task_teacher_cookie"
TEACHER_COOKIE_DAYS = 14  # a task is reopened next week
REFRESH_S = 1.0  # the teacher's list of teams and runs
STUDENT_REFRESH_S = 2.0  # a phone's check for the teacher closing submissions or judging
SEARCH_LIMIT = 10  # documents a keyword search shows on a phone
BUSY_ACTION = "The class server is busy: nothing changed; try again in a moment."
BUSY_READ = live.BUSY_READ
STATES = {"submitting": "open for runs", "judging": "judging", "closed": "closed"}
_LOGGER = logging.getLogger(__name__)

CSS = """
.st-key-task_join_code p { font-size: 2.6rem; font-weight: 700; letter-spacing: 0.12em; margin: 0; }
.st-key-task_teacher_cookie, .st-key-live_student_cookie { display: none; }
"""  # static, sent with ir_metrics_lab.shell.css: nothing from the user


@st.cache_resource
def task_store() -> TaskStore:
    """The shared tasks of the live class's database (one per server process, on live_class's store)."""
    return TaskStore(live.store())


@st.cache_resource(max_entries=32)
def documents(code: str, created_ms: int) -> Collection:
    """A task's collection, read once per process: it never changes (keyed by the creation time too, so a deleted
    task's code drawn again is read afresh)."""
    return Collection(tuple(task_store().documents(code).values()))


# --- messages ----------------------------------------------------------------------------------------------------


def sentence(error: BaseException) -> str:
    """An error's message as a sentence: a capital first, a full stop last."""
    text = str(error).strip()
    if not isinstance(error, InputError):  # an InputError starts with its file's name, spelt as the file is
        text = text[:1].upper() + text[1:]
    return text + ("" if text.endswith(".") else ".")


def attempt(area: str, action: Callable[..., Any], *args: Any, success: str | None = None) -> tuple[bool, Any]:
    """Run a store action; (True, its result), or (False, None) with the refusal left as ``area``'s message."""
    try:
        result = action(*args)
    except (PollError, InputError, ValueError) as error:  # TaskError is a PollError
        task_state.set_task_message(area, "error", sentence(error))
        return False, None
    except SQLAlchemyError:
        _LOGGER.warning("the database did not take a shared-task action", exc_info=True)
        task_state.set_task_message(area, "warning", BUSY_ACTION)
        return False, None
    if success:
        task_state.set_task_message(area, "success", success)
    return True, result


def show_message(area: str) -> None:
    """``area``'s last message, once, shown literally."""
    if message := task_state.pop_task_message(area, keep=not first_paint.charts_now()):
        getattr(st, message[0])(plain(message[1]))


# --- addresses ---------------------------------------------------------------------------------------------------


def app_base() -> str:
    """The app's address as the browser reached it, without this page's path (live_class.app_base)."""
    return live.app_base((TEACH_PATH, JOIN_PATH))


def join_link(base: str, code: str) -> str:
    return f"{base}/{JOIN_PATH}?{urlencode({'code': code})}"


def teacher_link(base: str, code: str, token: str) -> str:
    return f"{base}/{TEACH_PATH}?{urlencode({'task': code, 'teacher': token})}"


# --- the teacher's session -------------------------------------------------------------------------------------------


def claim_teacher_link() -> None:
    """A teacher link (``?task=CODE&teacher=TOKEN``) makes this session the task's teacher; the token then leaves
    the address bar, which a projector shows to the room. A forged or stale link is said to be so."""
    code, token = st.query_params.get("task"), st.query_params.get("teacher")
    if not code:
        return
    valid = live.read(lambda: bool(token) and task_store().is_teacher(code, token))
    if valid is None:  # the database is out: the link stays for the next run
        return
    if valid:
        task_state.set_task_teacher(live.typed_code(code), token)
    else:
        task_state.set_task_message(
            "teacher", "error", "This link does not carry the task's teacher token: it cannot run the task."
        )
    for key in ("task", "teacher"):
        st.query_params.pop(key, None)


def held_cookie() -> str | None:
    """The task cookie the browser sent when this session connected."""
    return st.context.cookies.get(TEACHER_COOKIE)


def restore_teacher() -> None:
    """On a session's first run: the task its browser's cookie names becomes the task it runs, if the token is still
    that task's. A projector whose server restarted is back on its task and its controls without a tap."""
    if task_state.task_teacher_checked():
        return
    held = identity.held_teacher(held_cookie())
    if held and task_state.task_teacher() is None:
        try:
            if task_store().is_teacher(*held):
                task_state.set_task_teacher(*held)
        except SQLAlchemyError:  # not now: the next run looks again
            return
    task_state.set_task_teacher_checked()


def keep_teacher_cookie() -> None:
    """The browser's cookie names the task this session runs (none once it runs none); never before restore_teacher
    has read it."""
    if not task_state.task_teacher_checked():
        return
    teaching = task_state.task_teacher()
    value = identity.teacher_cookie(*teaching) if teaching else ""
    live.write_teacher_cookie(TEACHER_COOKIE_KEY, TEACHER_COOKIE, value, TEACHER_COOKIE_DAYS * 86_400)


def create(title: str, sample: bool, files: Sequence[Any | None], depth: int, per_item: int) -> None:
    """Create a task from the sample collection or the uploaded documents and topics (``files``: the two uploads);
    this session becomes its teacher. A bad file is refused naming its line; the form keeps what was typed."""
    if not live.poll_limit().allow(("connection", live.connection())):
        task_state.set_task_message("create", "warning", "A task was created just now: wait a little first.")
        return
    if sample:
        read = collection.sample
    elif None in files:
        task_state.set_task_message(
            "create", "error", "Upload both files, the documents and the topics, or use the sample collection."
        )
        return
    else:
        docs, topics = files

        def read() -> tuple[Collection, tuple[collection.Topic, ...]]:
            return (
                collection.read_collection(docs.getvalue(), docs.name),
                collection.read_topics(topics.getvalue(), topics.name),
            )

    ok, found = attempt("create", read)
    if not ok:
        return
    ok, created = attempt("create", lambda: task_store().create_task(title, found[1], found[0], depth=depth,
                                                                    per_item=per_item))  # fmt: skip
    if ok:
        task_state.set_task_teacher(created.task.code, created.teacher_token)


def teacher_action(name: str, success: str) -> None:
    """A teacher action of the store (close_submissions, deal_in, close, reopen, delete) with this session's token."""
    code, token = task_state.task_teacher() or ("", "")
    ok, result = attempt("teacher", getattr(task_store(), name), code, token)
    if not ok:
        return
    if name == "close_submissions":
        judges = {judge for item in result.values() for judge in item}
        success = f"Submissions closed: {count(len(result), 'pooled document')} dealt to {count(len(judges), 'judge')}."
    elif name == "deal_in":
        success = f"Dealt in: {count(result, 'assignment')} moved to students who joined later."
    elif name == "delete":
        task_state.set_task_teacher(None)
    task_state.set_task_message("teacher", "success", success)


def leave() -> None:
    """This browser stops running the task (it stays; the teacher link brings it back)."""
    task_state.set_task_teacher(None)


# --- students ----------------------------------------------------------------------------------------------------


def as_team(team: str | None) -> str:
    """How a membership reads: ``team 'X'`` (Markdown, the name literal) or ``a judge in no team``."""
    return f"team {plain(team, one_line=True)}" if team else "a judge in no team"


def join(code: str, student: str, team: str | None) -> None:
    """Join ``code`` under ``team`` (None: a judge in no team). A second join is refused in words, whatever the
    team: the store would take the same team again as a no-op, the page says it is done already."""
    ok, snapshot = attempt("join", task_store().snapshot, code)
    if not ok:
        return
    if snapshot is not None and student in snapshot.members:
        held = snapshot.members[student]
        said = f"You are already in team {held}." if held else "You already joined as a judge in no team."
        task_state.set_task_message("join", "warning", said + " One browser, one student: nothing was counted twice.")
        return
    if team is not None and not team.strip():
        task_state.set_task_message("join", "error", "Type your team's name, or join as a judge in no team.")
        return
    attempt(
        "join",
        task_store().join,
        code,
        student,
        team,
        success="You joined " + (f"team {team}." if team else "as a judge."),
    )


def submit_file(code: str, student: str, name: str, upload: Any | None) -> None:
    """Submit an uploaded TREC run file under ``name`` (a replacement if the team has a run of that name)."""
    if upload is None:
        task_state.set_task_message("upload", "error", "Choose a run file first.")
        return
    name = (name or "").strip()
    attempt(
        "upload", task_store().submit_run, code, student, name, upload.getvalue(), upload.name,
        success=f"Run {name} received: it replaces any run of that name until submissions close.",
    )  # fmt: skip


def submit_draft(code: str, student: str, name: str) -> None:
    """Submit the run built by hand (its topics with at least one document) under ``name``."""
    rankings = {topic: docs for topic, docs in task_state.draft(code).items() if docs}
    if not rankings:
        task_state.set_task_message("hand", "error", "Pick at least one document for a topic first.")
        return
    name = (name or "").strip()
    attempt(
        "hand", task_store().submit_run, code, student, name, run_text(rankings), f"{name or 'run'} (built by hand)",
        success=f"Run {name} received ({count(len(rankings), 'topic')}). You can change it and submit it again "
        "until submissions close.",
    )  # fmt: skip


def pick(code: str, topic: str, doc: str) -> None:
    """Add ``doc`` at the end of the hand-built ranking of ``topic``."""
    ranking = task_state.draft(code).setdefault(topic, [])
    if doc not in ranking:
        ranking.append(doc)
    task_state.set_task_message("ranking", "info", f"{doc} added at rank {ranking.index(doc) + 1}.")


def move(code: str, topic: str, index: int, step: int) -> None:
    """Move the document at ``index`` of ``topic``'s ranking ``step`` places (-1 up, +1 down)."""
    ranking = task_state.draft(code).setdefault(topic, [])
    to = index + step
    if 0 <= index < len(ranking) and 0 <= to < len(ranking):
        ranking[index], ranking[to] = ranking[to], ranking[index]
        task_state.set_task_message("ranking", "info", f"{ranking[to]} moved to rank {to + 1}.")
        # the focus goes with the document: the same way again, else the other way at either end
        same_way_possible = to > 0 if step < 0 else to < len(ranking) - 1
        way = ("up" if step < 0 else "down") if same_way_possible else ("down" if step < 0 else "up")
        a11y.focus_after_run(f"task_{way}_{to}")


def drop(code: str, topic: str, index: int) -> None:
    ranking = task_state.draft(code).setdefault(topic, [])
    if 0 <= index < len(ranking):
        task_state.set_task_message("ranking", "info", f"{ranking.pop(index)} removed from the ranking.")
        if ranking:  # the focus on the document that took its place, or on the new last one
            a11y.focus_after_run(f"task_drop_{min(index, len(ranking) - 1)}")


# --- what the pages show ---------------------------------------------------------------------------------------


def teams_markdown(snapshot: Snapshot) -> str:
    """The teams as a Markdown table (team, members, runs; every name literal), and the judges in no team."""
    teams: dict[str, int] = {}
    for team in snapshot.members.values():
        if team is not None:
            teams[team] = teams.get(team, 0) + 1
    runs: dict[str, list[str]] = {}
    for run in snapshot.runs.values():
        runs.setdefault(run.team, []).append(run.name)
    rows = ["| team | members | runs |", "|---|---:|---|"]
    for team in sorted(teams, key=str.casefold):
        names = ", ".join(plain(name, one_line=True) for name in runs.get(team, [])) or "–"
        rows.append(f"| {plain(team, one_line=True)} | {teams[team]} | {names} |")
    alone = sum(team is None for team in snapshot.members.values())
    table = "\n".join(rows) if teams else "No team has joined yet."
    return table + (f"\n\n{count(alone, 'judge')} in no team." if alone else "")
