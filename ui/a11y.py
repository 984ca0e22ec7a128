"""Accessibility fixes the app's own markup cannot carry: a script (ui/components/a11y.js) that adds keyboard stops
on boxes that scroll sideways (display formulas, wide tables, code), the navigation landmark and the current page's
mark, on Streamlit's markup (Streamlit 1.67 draws its own skip link to the main content). Mounted once per run in
app.py; its element is hidden (ui.layout's CSS) and takes no space."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

KEY = "irlab_a11y"
_COMPONENT = st.components.v2.component(
    "irlab_a11y", js=(Path(__file__).parent / "components" / "a11y.js").read_text(encoding="utf-8")
)


def apply(current_title: str) -> None:
    """Call once per run, in app.py, with the title of the page on screen."""
    _COMPONENT(key=KEY, data={"current": current_title})
