"""Static CSS for the page, sent as Markdown HTML: Markdown is drawn by Streamlit's core code, where ``st.html`` draws a
skeleton until its own chunk arrives. The style still applies a few hundred ms into a new visitor's first paint (its
element is a line of text until then), so app.py sends it after the page, and nothing a new visitor sees first depends
on it (ir_metrics_lab.shell.first_paint sizes its rooms without it). The element hides itself, so it takes no space.
Only the app's own CSS goes through here, never user text."""

from __future__ import annotations

import streamlit as st

_MARK = "irlab-css"  # the element that carries a style block: its container is hidden (a style applies anyway)


def apply(css: str, where: object = st) -> None:
    """Send ``css`` (rules, without a <style> tag) in ``where`` (st, the sidebar, a container)."""
    hide = f".stElementContainer:has(.{_MARK}) {{ display: none; }}"
    where.markdown(f'<style>{css}\n{hide}</style><span class="{_MARK}"></span>', unsafe_allow_html=True)
