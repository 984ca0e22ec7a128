"""Presenter mode: large type, large metric values and charts, and no sidebar, for a projector.

It is one plain session-state flag (``ui.state.presenter_on``), so it survives page switches. The look is a static
``<style>`` block sent with ``st.html`` (style-only HTML takes no space on the page). Nothing in it comes from the
user. Streamlit 1.67 has no per-session option for this: ``theme.baseFontSize`` in config.toml applies to every
session of the server.

Wiring (app.py, every page): ``presenter.apply()`` before ``page.run()``, and ``presenter.sidebar_toggle()`` in the
shared sidebar. With the sidebar hidden, ``apply()`` draws an "Exit presenter mode" button at the top of the page.
"""

from __future__ import annotations

import streamlit as st

from ui import state

SIDEBAR_KEY = "presenter_sidebar_toggle"
EXIT_KEY = "presenter_exit"

# Static CSS only. Streamlit sizes its text in rem, so a larger root font scales the type, metric cards, widgets and
# KaTeX together. Charts grow with the width the hidden sidebar frees. They are not zoomed: Plotly lays out from
# its container's unzoomed size, so a CSS zoom clips the right-hand side (seen in Chromium).
CSS = """<style>
html { font-size: 21px; }
[data-testid="stSidebar"], [data-testid="stExpandSidebarButton"] { display: none !important; }
[data-testid="stMainBlockContainer"] { max-width: 100%; padding-left: 2.5rem; padding-right: 2.5rem; }
[data-testid="stMetricValue"] { font-size: 2.6rem; }
[data-testid="stMetricLabel"] p { font-size: 1.05rem; font-weight: 600; }
.katex { font-size: 1.3em; }
</style>"""


def is_on() -> bool:
    return state.presenter_on()


def toggle(key: str = "presenter_toggle", label: str = "Presenter mode") -> None:
    """A toggle bound to the presenter flag. Any number may be on screen (with different keys)."""
    state.sync_widget(key, state.presenter_on())
    st.toggle(
        label,
        key=key,
        on_change=lambda: state.set_presenter(bool(state.widget_value(key))),
        help="For a projector: larger type and charts, no sidebar. An Exit button appears at the top of the page.",
    )


def sidebar_toggle() -> None:
    """The toggle in the shared sidebar (app.py)."""
    with st.sidebar:
        toggle(SIDEBAR_KEY)


def apply() -> None:
    """Call once per page run (app.py, before ``page.run()``): in presenter mode, inject the CSS and show an Exit
    button, since the sidebar (and its toggle) is hidden."""
    if not state.presenter_on():
        return
    st.html(CSS)
    st.button(
        "Exit presenter mode",
        key=EXIT_KEY,
        icon=":material/fullscreen_exit:",
        on_click=state.set_presenter,
        args=(False,),
        type="tertiary",
    )
