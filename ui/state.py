"""The one module that knows the session_state keys. Pages read and change the app's state only through it.

Getters supply defaults, so every page also runs on its own (``streamlit run pages/x.py`` or AppTest.from_file).
Plain keys (not widget keys) hold the canonical state: Streamlit deletes a widget's key when a page that does not
render that widget runs, but plain keys survive page switches.
"""

from __future__ import annotations

import streamlit as st

from metrics.examples import CAT_DOG_PARROT, EXAMPLES, RETRIEVER_A, RETRIEVER_B
from ui.scenario import Scenario

DEFAULT_EXAMPLE = "grades-32301"
UNDO_LIMIT = 200

_SCENARIO = "scenario"  # the playground's current Scenario
_PREVIOUS = "scenario_previous"  # the scenario before the last change: metric cards show the delta
_UNDO = "scenario_undo"
_REDO = "scenario_redo"
_AB = "ab_scenarios"  # {"A": Scenario, "B": Scenario}
_QUERIES = "multi_queries"  # {query id: Scenario}
_QUERY_TEXTS = "multi_query_texts"  # {query id: text}


def scenario() -> Scenario:
    if _SCENARIO not in st.session_state:
        st.session_state[_SCENARIO] = Scenario.from_example(EXAMPLES[DEFAULT_EXAMPLE])
    return st.session_state[_SCENARIO]


def previous() -> Scenario | None:
    """The scenario before the last change, or None before the first change."""
    return st.session_state.get(_PREVIOUS)


def update(new: Scenario) -> None:
    """Make ``new`` the current scenario; the old one goes on the undo stack."""
    current = scenario()
    if new == current:
        return
    undo_stack = st.session_state.setdefault(_UNDO, [])
    undo_stack.append(current)
    del undo_stack[:-UNDO_LIMIT]
    st.session_state[_REDO] = []
    st.session_state[_PREVIOUS] = current
    st.session_state[_SCENARIO] = new


def can_undo() -> bool:
    return bool(st.session_state.get(_UNDO))


def can_redo() -> bool:
    return bool(st.session_state.get(_REDO))


def undo() -> None:
    if can_undo():
        current = scenario()
        st.session_state.setdefault(_REDO, []).append(current)
        st.session_state[_PREVIOUS] = current
        st.session_state[_SCENARIO] = st.session_state[_UNDO].pop()


def redo() -> None:
    if can_redo():
        current = scenario()
        st.session_state.setdefault(_UNDO, []).append(current)
        st.session_state[_PREVIOUS] = current
        st.session_state[_SCENARIO] = st.session_state[_REDO].pop()


def load_example(key: str) -> None:
    """Replace the playground with a preset (undoable)."""
    update(Scenario.from_example(EXAMPLES[key]))


def ab() -> dict[str, Scenario]:
    """The two retrievers of the A vs B page, over the same documents."""
    if _AB not in st.session_state:
        reset_ab()
    return st.session_state[_AB]


def set_ab(side: str, new: Scenario) -> None:
    ab()[side] = new


def reset_ab() -> None:
    st.session_state[_AB] = {"A": Scenario.from_example(RETRIEVER_A), "B": Scenario.from_example(RETRIEVER_B)}


def queries() -> dict[str, Scenario]:
    """The multi-query page's queries, each with its own list and grades."""
    if _QUERIES not in st.session_state:
        reset_queries()
    return st.session_state[_QUERIES]


def query_texts() -> dict[str, str]:
    queries()
    return st.session_state[_QUERY_TEXTS]


def set_query(query_id: str, new: Scenario) -> None:
    queries()[query_id] = new


def reset_queries() -> None:
    example = CAT_DOG_PARROT
    st.session_state[_QUERIES] = {q: Scenario.from_example(example, q) for q in example.queries}
    st.session_state[_QUERY_TEXTS] = {q: query.text for q, query in example.queries.items()}
