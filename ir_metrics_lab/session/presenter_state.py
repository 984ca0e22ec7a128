"""Presenter mode in the session: one plain flag (ir_metrics_lab.shell.presenter draws it), and whether the link's
``?presenter=`` has been read."""

from __future__ import annotations

import streamlit as st

_PRESENTER = "presenter_mode"  # bool: large type, no sidebar (ir_metrics_lab.shell.presenter)
_PRESENTER_LINK_READ = "presenter_link_read"  # the session's first run has read ?presenter= from the link


def presenter_on() -> bool:
    return bool(st.session_state.get(_PRESENTER, False))


def set_presenter(on: bool) -> None:
    st.session_state[_PRESENTER] = bool(on)


def first_look_at_presenter_link() -> bool:
    """True once per session: the link's ``?presenter=`` is read on the first run only, so Exit stays exited."""
    if st.session_state.get(_PRESENTER_LINK_READ):
        return False
    st.session_state[_PRESENTER_LINK_READ] = True
    return True
