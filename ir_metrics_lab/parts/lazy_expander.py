"""A closed expander whose content is drawn only once it is opened.

Streamlit sends and draws a closed expander's content anyway, and the browser loads and runs every chunk of frontend
code that content needs. A code box is the costly case: Streamlit's syntax highlighter registers its languages on
every page view, about 0.25 s of the browser's main thread (0.4 s with V8's optimizers off) whether the box is
shown or not (docs/performance.md, "Code boxes drawn when opened"). An expander that reruns the page when it is
opened or closed (Streamlit's ``on_change="rerun"``) knows whether it is open, so what only it shows is drawn then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator


def opened(label: str, *, key: str, icon: str | None = None) -> DeltaGenerator | None:
    """A closed expander; the container to draw its content in when the user has opened it, else None (its content
    is left out of this run)."""
    box = st.expander(label, icon=icon, key=key, on_change="rerun")
    return box if box.open else None
