"""The quiz's score in the session: the seed of the set, first attempts, the last feedback and the order a reorder
exercise was left in, per (seed, exercise); they survive page switches."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

import streamlit as st

from ir_metrics_lab.core.lessons import quiz

_QUIZ_ATTEMPTS = "quiz_attempts"  # {(seed, exercise index): first attempt correct}
_QUIZ_FEEDBACK = (
    "quiz_feedback"  # {(seed, exercise index): ir_metrics_lab.core.lessons.quiz.Feedback of the last check}
)
_QUIZ_ORDERS = "quiz_orders"  # {(seed, exercise index): the order a reorder exercise's list was left in}
QUIZ_SEED = "quiz_seed"  # the widget key of the quiz's seed box


def start_quiz_seed(initial: Callable[[], int]) -> None:
    """Give the seed box its first value (``initial()``, e.g. the link's ``?seed=``) when it has none yet."""
    if QUIZ_SEED not in st.session_state:
        st.session_state[QUIZ_SEED] = initial()


def next_quiz_seed() -> None:
    """The "New set" button's on_click: the next seed (the box shows it on the rerun)."""
    st.session_state[QUIZ_SEED] = int(st.session_state[QUIZ_SEED]) + 1


def quiz_order(seed: int, index: int, start: Sequence[str]) -> tuple[str, ...]:
    """The order the learner left reorder exercise ``index`` of set ``seed`` in; ``start`` until it is first moved."""
    return st.session_state.setdefault(_QUIZ_ORDERS, {}).setdefault((seed, index), tuple(start))


def set_quiz_order(seed: int, index: int, order: Sequence[str]) -> None:
    st.session_state.setdefault(_QUIZ_ORDERS, {})[(seed, index)] = tuple(order)


def quiz_attempts() -> Mapping[tuple[int, int], bool]:
    """{(seed, exercise index): whether the first attempt was right}, read-only (ir_metrics_lab.core.lessons.quiz.tally
    counts it)."""
    return MappingProxyType(st.session_state.setdefault(_QUIZ_ATTEMPTS, {}))


def record_quiz_attempt(seed: int, index: int, correct: bool) -> None:
    """Only the first attempt at an exercise counts (ir_metrics_lab.core.lessons.quiz.record), so retrying until right
    does not inflate it."""
    quiz.record(st.session_state.setdefault(_QUIZ_ATTEMPTS, {}), (seed, index), correct)


def quiz_feedback(seed: int, index: int) -> object | None:
    """The feedback of the last check of exercise ``index`` of set ``seed`` (a
    ir_metrics_lab.core.lessons.quiz.Feedback), or None."""
    return st.session_state.get(_QUIZ_FEEDBACK, {}).get((seed, index))


def set_quiz_feedback(seed: int, index: int, feedback: object) -> None:
    st.session_state.setdefault(_QUIZ_FEEDBACK, {})[(seed, index)] = feedback
