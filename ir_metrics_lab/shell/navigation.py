"""The app's own page navigation, in the sidebar (in presenter mode a menu): a heading per section and an
``st.page_link`` per page.

Streamlit's built-in sidebar navigation (``st.navigation(position="sidebar")``) fails WCAG 1.3.1 in 1.67: each
section's ``<li>`` items sit outside any ``<ul>`` (axe-core's ``listitem`` and ``list`` rules). So app.py hides it
(``position="hidden"``) and draws this instead: plain links, marked as the page's navigation landmark and the
current page by ir_metrics_lab/shell/components/a11y.js (``st.page_link`` sets neither).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

KEY = "irlab_nav"  # ir_metrics_lab/shell/components/a11y.js names the container a navigation landmark by this key


def sidebar(sections: Mapping[str, Sequence]) -> None:
    """Links to every visible page of ``sections`` ({section title: [st.Page]}), in the sidebar."""
    with st.sidebar:
        _links(sections)


def menu(sections: Mapping[str, Sequence], current: str) -> None:
    """The same links in a "Pages" menu, for presenter mode, which draws no sidebar (ir_metrics_lab.shell.presenter).
    ``current``: the page on screen's url path; each page has a menu of its own, so the next page opens with its menu
    shut."""
    with st.popover("Pages", icon=":material/menu:", key=f"pages_menu_{current}"):
        _links(sections)


def _links(sections: Mapping[str, Sequence]) -> None:
    with st.container(key=KEY, gap="small"):
        for section, pages in sections.items():
            st.caption(section)  # styled as a section heading by ir_metrics_lab.shell.layout's CSS
            for page in pages:
                if page.visibility != "hidden":
                    st.page_link(page, width="stretch")
