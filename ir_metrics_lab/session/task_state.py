"""A shared task in the session (ir_metrics_lab.classroom.shared_task draws it): which task this session teaches, the
teacher action's last message, and the runs a student is building by hand. The tasks themselves live in the
database (ir_metrics_lab.core.classroom.task_store); the student's id is the live class's
(ir_metrics_lab.session.live_state)."""

from __future__ import annotations

import streamlit as st

_TASK_TEACHER = "task_teacher"  # (join code, teacher token) of the task this session runs
_TASK_TEACHER_CHECKED = "task_teacher_checked"  # the session has looked at its browser's task cookie (once)
_TASK_MESSAGES = "task_messages"  # {area: (level, text)}: what the last action said, shown once in its area
_TASK_DRAFTS = "task_drafts"  # {join code: {topic: [doc, ...]}}: runs built by hand, kept until replaced


def task_teacher() -> tuple[str, str] | None:
    return st.session_state.get(_TASK_TEACHER)


def set_task_teacher(code: str | None, token: str | None = None) -> None:
    st.session_state[_TASK_TEACHER] = (code, token) if code and token else None


def task_teacher_checked() -> bool:
    """Whether this session has looked at the task its browser's cookie names (once); until then it writes none."""
    return st.session_state.get(_TASK_TEACHER_CHECKED, False)


def set_task_teacher_checked() -> None:
    st.session_state[_TASK_TEACHER_CHECKED] = True


def set_task_message(area: str, level: str, text: str) -> None:
    """An action's outcome ("error", "warning", "success", "info") for ``area``'s next render; plain text."""
    st.session_state.setdefault(_TASK_MESSAGES, {})[area] = (level, text)


def pop_task_message(area: str, *, keep: bool = False) -> tuple[str, str] | None:
    """``area``'s message, taken (shown once), or with ``keep`` left for the next run: a new visitor's first run is
    followed by a second one (ir_metrics_lab.shell.first_paint), which must show it too."""
    messages = st.session_state.get(_TASK_MESSAGES, {})
    return messages.get(area) if keep else messages.pop(area, None)


def draft(code: str) -> dict[str, list[str]]:
    """The run this session is building by hand for task ``code``: {topic: documents in order}, changed in place."""
    return st.session_state.setdefault(_TASK_DRAFTS, {}).setdefault(code, {})
