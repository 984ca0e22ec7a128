"""The Retriever A vs B page's two lists in the session: the preset's or a query of two runs (which query, which
runs, and the lists as they were opened, to tell whether they were edited since)."""

from __future__ import annotations

import streamlit as st

from ir_metrics_lab.core.scenario import Scenario
from metrics.teaching.examples import RETRIEVER_A, RETRIEVER_B

_AB = "ab_scenarios"  # {"A": Scenario, "B": Scenario}
_AB_ORIGIN = (
    "ab_origin"  # None: the preset; else the query and runs the two lists came from (ir_metrics_lab.session.drilldown)
)
_AB_LOADED = "ab_loaded"  # the two lists as opened from the runs, to tell whether they were edited since


def ab() -> dict[str, Scenario]:
    """The two retrievers of the A vs B page, over the same documents."""
    if _AB not in st.session_state:
        reset_ab()
    return st.session_state[_AB]


def set_ab(side: str, new: Scenario) -> None:
    ab()[side] = new


def reset_ab() -> None:
    st.session_state[_AB] = {"A": Scenario.from_example(RETRIEVER_A), "B": Scenario.from_example(RETRIEVER_B)}
    st.session_state.pop(_AB_ORIGIN, None)
    st.session_state.pop(_AB_LOADED, None)


def load_ab(a: Scenario, b: Scenario, query_id: str, names: tuple[str, str]) -> None:
    """Put two real rankings on the A vs B page: query ``query_id`` of the runs ``names`` (A's, B's), until Reset
    brings the preset back."""
    st.session_state[_AB] = {"A": a, "B": b}
    st.session_state[_AB_ORIGIN] = (query_id, *names)
    st.session_state[_AB_LOADED] = {"A": a, "B": b}


def ab_edited(side: str) -> bool:
    """True when that A vs B list is no longer the run's ranking it was opened with (dragged or regraded; another
    cutoff k leaves the list as it was)."""
    loaded = st.session_state.get(_AB_LOADED)
    if loaded is None:
        return False
    now, then = ab()[side], loaded[side]
    return (now.full_ranking, now.grades) != (then.full_ranking, then.grades)


def ab_origin() -> tuple[str, str, str] | None:
    """(query id, run A's name, run B's name) when the A vs B lists came from two runs, or None for the preset."""
    return st.session_state.get(_AB_ORIGIN)


def set_ab_grade(doc: str, grade: int) -> None:
    """A and B rank the same documents, so a grade is a property of the document: change it in both lists."""
    scenarios = ab()
    for side, scn in scenarios.items():
        if doc in scn.docs:
            scenarios[side] = scn.with_grade(doc, grade)


def set_ab_k(k: int) -> None:
    scenarios = ab()
    for side, scn in scenarios.items():
        scenarios[side] = scn.with_settings(k=k)


def apply_ab_edit(side: str, new: Scenario) -> None:
    """An edit made in one A/B list: its order stays on that side; a grade change applies to both sides."""
    before = ab()[side]
    for doc in new.docs:
        if new.grades.get(doc) != before.grades.get(doc):
            set_ab_grade(doc, new.grades[doc])
    set_ab(side, ab()[side].reordered(new.ranking) if sorted(new.ranking) == sorted(before.ranking) else new)
