"""The playground's scenario in the session: the list on screen, where it came from (a preset, a shared link, a run's
query), the one before the last change, and the undo and redo history."""

from __future__ import annotations

import streamlit as st

from ir_metrics_lab.core import url
from ir_metrics_lab.core.scenario import DEFAULT_EXAMPLE, Scenario
from metrics.teaching.examples import EXAMPLES

UNDO_LIMIT = 200

_SCENARIO = "scenario"  # the playground's current Scenario
_PREVIOUS = "scenario_previous"  # the scenario before the last change: metric cards show the delta
_UNDO = "scenario_undo"
_REDO = "scenario_redo"
_EXAMPLE_KEY = "scenario_example"  # the preset last loaded into the playground
_LINK_WARNINGS = "link_warnings"  # what was wrong with the shared link the session was opened with
_FROM_LINK = "scenario_from_link"  # True when the session's first scenario came from a shared link
_ORIGIN = "scenario_origin"  # None: the preset example_key() (maybe edited); else where the scenario came from
_ORIGIN_UNDO = "scenario_origin_undo"  # the origins of the scenarios on the undo stack, in step with it
_ORIGIN_REDO = "scenario_origin_redo"
FROM_LINK = "Opened from a link"
FROM_RUN = "A query from your run"


def scenario() -> Scenario:
    """The playground's scenario. The first call of a session seeds it from the address bar when the URL carries a
    shared scenario (ir_metrics_lab.core.url's schema); otherwise from the default preset."""
    if _SCENARIO not in st.session_state:
        st.session_state[_SCENARIO] = _from_link() or Scenario.from_example(EXAMPLES[DEFAULT_EXAMPLE])
    return st.session_state[_SCENARIO]


def _from_link() -> Scenario | None:
    params = st.query_params.to_dict()
    if not url.has_scenario(params):
        return None
    scn, warnings = url.from_query_params(params, base=Scenario.from_example(EXAMPLES[DEFAULT_EXAMPLE]))
    st.session_state[_LINK_WARNINGS] = warnings
    st.session_state[_FROM_LINK] = True
    st.session_state[_ORIGIN] = FROM_LINK
    return scn


def opened_from_link() -> bool:
    return bool(st.session_state.get(_FROM_LINK))


def pop_link_warnings() -> list[str]:
    """The shared link's problems, once: the page shows them on its first render, then they are gone."""
    return st.session_state.pop(_LINK_WARNINGS, [])


def link_warnings() -> list[str]:
    """The shared link's problems, left in place (a new visitor's first run is followed by a second:
    ir_metrics_lab.shell.first_paint)."""
    return list(st.session_state.get(_LINK_WARNINGS, []))


def write_link() -> str | None:
    """Write the playground scenario into the address bar, so it is always a shareable link. Call it once per
    playground run, after every edit; never on other pages. Returns why there is no link, or None.

    Writing query params does not rerun the script; the URL is only rewritten when it differs."""
    try:
        params = url.to_query_params(scenario())
    except ValueError as error:
        params, problem = {}, str(error)
    else:
        problem = None
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)  # also drops unknown keys a tampered link carried (warned about)
    return problem


def previous() -> Scenario | None:
    """The scenario before the last change, or None before the first change."""
    return st.session_state.get(_PREVIOUS)


def origin() -> str | None:
    """Where the playground's scenario came from when it is not the last preset (``example_key()``), e.g.
    "Opened from a link" or "Opened query 7 of bm25"; None when it is that preset, edited or not."""
    return st.session_state.get(_ORIGIN)


def set_origin(label: str | None) -> None:
    """Name where the current scenario came from (what the example picker shows instead of a preset); None: the
    preset."""
    st.session_state[_ORIGIN] = label


def update(new: Scenario, *, new_baseline: bool = False) -> None:
    """Make ``new`` the current scenario; the old one goes on the undo stack. An edit keeps the origin; a scenario
    that brings a new hidden tail (a query opened from a run) is not the preset any more.

    ``new_baseline``: the scenario was loaded (a preset, an erratum, a run's query), not edited, so the metric cards
    show no change until the next edit: a change against an unrelated list would mean nothing."""
    current = scenario()
    if new == current:
        return
    undo_stack = st.session_state.setdefault(_UNDO, [])
    undo_stack.append(current)
    del undo_stack[:-UNDO_LIMIT]
    origins = st.session_state.setdefault(_ORIGIN_UNDO, [])
    origins.append(origin())
    del origins[:-UNDO_LIMIT]
    st.session_state[_REDO] = []
    st.session_state[_ORIGIN_REDO] = []
    st.session_state[_PREVIOUS] = None if new_baseline else current
    st.session_state[_SCENARIO] = new
    if new.tail and new.tail != current.tail:
        set_origin(FROM_RUN)


def load(new: Scenario, origin_label: str) -> None:
    """Replace the playground with a scenario from elsewhere (an erratum, a convention's example, a run's query),
    undoable; ``origin_label`` is what the example picker shows instead of a preset. A new baseline: no deltas."""
    update(new, new_baseline=True)
    set_origin(origin_label)


def can_undo() -> bool:
    return bool(st.session_state.get(_UNDO))


def can_redo() -> bool:
    return bool(st.session_state.get(_REDO))


def _pop_origin(stack: str) -> str | None:
    origins = st.session_state.get(stack, [])
    return origins.pop() if origins else None


def undo() -> None:
    if can_undo():
        current = scenario()
        st.session_state.setdefault(_REDO, []).append(current)
        st.session_state.setdefault(_ORIGIN_REDO, []).append(origin())
        st.session_state[_PREVIOUS] = current
        st.session_state[_SCENARIO] = st.session_state[_UNDO].pop()
        set_origin(_pop_origin(_ORIGIN_UNDO))


def redo() -> None:
    if can_redo():
        current = scenario()
        st.session_state.setdefault(_UNDO, []).append(current)
        st.session_state.setdefault(_ORIGIN_UNDO, []).append(origin())
        st.session_state[_PREVIOUS] = current
        st.session_state[_SCENARIO] = st.session_state[_REDO].pop()
        set_origin(_pop_origin(_ORIGIN_REDO))


def load_example(key: str) -> None:
    """Replace the playground with a preset (undoable)."""
    st.session_state[_EXAMPLE_KEY] = key
    update(Scenario.from_example(EXAMPLES[key]), new_baseline=True)
    set_origin(None)


def example_key() -> str:
    """The preset the playground last loaded (Reset goes back to it)."""
    return st.session_state.get(_EXAMPLE_KEY, DEFAULT_EXAMPLE)


def reset() -> None:
    """Reload the last preset (undoable)."""
    load_example(example_key())
