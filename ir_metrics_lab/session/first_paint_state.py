"""The first paint's bookkeeping in the session (ir_metrics_lab.shell.first_paint): whether the session's first screen
has been painted, whether this run is the one that follows it, and the rooms this run left formulas in."""

from __future__ import annotations

import streamlit as st

_FIRST_PAINT = "first_paint_done"  # the session's first screen has been painted
_SECOND_RUN = "first_paint_second_run"  # this run follows the first paint (app.py ends it)
_FORMULA_ROOMS = "first_paint_formula_rooms"  # the rooms this run left formulas in


def first_paint_done() -> bool:
    return bool(st.session_state.get(_FIRST_PAINT, False))


def set_first_paint_done() -> None:
    st.session_state[_FIRST_PAINT] = True
    st.session_state[_SECOND_RUN] = True


def second_run() -> bool:
    return bool(st.session_state.get(_SECOND_RUN, False))


def end_second_run() -> None:
    st.session_state.pop(_SECOND_RUN, None)


def formula_rooms() -> int:
    return st.session_state.get(_FORMULA_ROOMS, 0)


def count_formula_room() -> int:
    """Count one more formula room in this run; its number, 0 first (a key)."""
    number = formula_rooms()
    st.session_state[_FORMULA_ROOMS] = number + 1
    return number


def reset_formula_rooms() -> None:
    st.session_state[_FORMULA_ROOMS] = 0
