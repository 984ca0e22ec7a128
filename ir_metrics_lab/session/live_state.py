"""The live class in the session (ir_metrics_lab.classroom.live_class draws it): which poll this session teaches, which
student it is, the connection's own id (for its limits), an answer waiting for the database, the last action's
message, and a question the quiz handed over. The polls themselves live in the
database (ir_metrics_lab.core.classroom.store)."""

from __future__ import annotations

import secrets

import streamlit as st

_LIVE_TEACHER = "live_teacher"  # (join code, teacher token) of the poll this session runs
_LIVE_TEACHER_CHECKED = "live_teacher_checked"  # the session has looked at its browser's teacher cookie (once)
_LIVE_STUDENT = "live_student"  # this session's student id, issued once (ir_metrics_lab.core.classroom.identity)
_LIVE_CODE = "live_code"  # the join code this session last looked up (a new one counts against its join limit)
_LIVE_ADOPTED = "live_student_adopted"  # the session took the id another tab's cookie held (once)
_LIVE_CONNECTION = "live_connection"  # a random id of this session: its limits (ir_metrics_lab.core.classroom.limits)
_LIVE_PENDING = "live_pending"  # (code, round, answer, nickname) not yet in the database: sent again until it is
_LIVE_MESSAGE = "live_message"  # what the last live-class action said (an error, a confirmation), shown once
_LIVE_FROM_QUIZ = "live_from_quiz"  # a question handed over by the quiz's "Ask the class", until asked or discarded
_TASK_SENT = "task_judgments_sent"  # {(task, topic, doc)}: the judgments this phone sent (a double tap sends one)
_TASK_DRAWN = "task_judging_drawn"  # {task: (state, documents left)} as the judging panel last drew them


def live_teacher() -> tuple[str, str] | None:
    return st.session_state.get(_LIVE_TEACHER)


def set_live_teacher(code: str | None, token: str | None = None) -> None:
    st.session_state[_LIVE_TEACHER] = (code, token) if code and token else None


def live_teacher_checked() -> bool:
    """Whether this session has looked at the poll its browser's teacher cookie names (it does once, on its first run
    the database answers); until then it does not write that cookie."""
    return st.session_state.get(_LIVE_TEACHER_CHECKED, False)


def set_live_teacher_checked() -> None:
    st.session_state[_LIVE_TEACHER_CHECKED] = True


def live_student() -> str | None:
    return st.session_state.get(_LIVE_STUDENT)


def set_live_student(student: str) -> None:
    st.session_state[_LIVE_STUDENT] = student


def live_student_adopted() -> bool:
    """Whether this session already took the id its browser held (it takes one, once)."""
    return st.session_state.get(_LIVE_ADOPTED, False)


def set_live_student_adopted() -> None:
    st.session_state[_LIVE_ADOPTED] = True


def live_code() -> str | None:
    return st.session_state.get(_LIVE_CODE)


def set_live_code(code: str) -> None:
    st.session_state[_LIVE_CODE] = code


def live_connection() -> str:
    return st.session_state.setdefault(_LIVE_CONNECTION, secrets.token_urlsafe(9))


def live_pending() -> tuple[str, int, str, str | None] | None:
    return st.session_state.get(_LIVE_PENDING)


def set_live_pending(pending: tuple[str, int, str, str | None] | None) -> None:
    st.session_state[_LIVE_PENDING] = pending


def set_live_message(kind: str, text: str) -> None:
    st.session_state[_LIVE_MESSAGE] = (kind, text)


def pop_live_message(*, keep: bool = False) -> tuple[str, str] | None:
    """The last live-class message, taken (shown once), or with ``keep`` left for the next run: a new visitor's
    first run is followed by a second one (ir_metrics_lab.shell.first_paint), which must show it too."""
    return st.session_state.get(_LIVE_MESSAGE) if keep else st.session_state.pop(_LIVE_MESSAGE, None)


def live_from_quiz() -> dict | None:
    """The question a quiz exercise handed to Ask the class (ir_metrics_lab.core.classroom.questions JSON), if any."""
    return st.session_state.get(_LIVE_FROM_QUIZ)


def set_live_from_quiz(question: dict | None) -> None:
    st.session_state[_LIVE_FROM_QUIZ] = question


def task_judgment_sent(item: tuple[str, str, str]) -> bool:
    """Whether this session already sent its grade for (task, topic, document)."""
    return item in st.session_state.get(_TASK_SENT, set())


def mark_task_judgment_sent(item: tuple[str, str, str]) -> None:
    st.session_state.setdefault(_TASK_SENT, set()).add(item)


def task_judging_drawn(code: str) -> tuple[str, int | None] | None:
    """The task's state and this student's documents left, as the judging panel last drew them."""
    return st.session_state.get(_TASK_DRAWN, {}).get(code)


def set_task_judging_drawn(code: str, drawn: tuple[str, int | None]) -> None:
    st.session_state.setdefault(_TASK_DRAWN, {})[code] = drawn
