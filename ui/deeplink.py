"""Deep links (/your-data, /playground, ...) without Streamlit's spurious "Page not found" dialog.

Why the dialog appears (Streamlit 1.67, read in its source): the frontend shows "Page not found" only when the
server sends a ``page_not_found`` message. It sends one on the first session of a freshly started server:
``PagesManager.uses_pages_directory`` starts as "is there a pages/ folder next to app.py", so that session's first
run goes through the legacy pages/ router (``script_runner._mpa_v1``). That router knows only file-name paths
(/your_data), reports /your-data as missing, then runs app.py, whose ``st.navigation`` switches the legacy router
off for good and runs the right page, under the dialog (streamlit/streamlit#9624, #8860). Nothing of ours runs
before that first run, so the message cannot be prevented while pages/ sits next to app.py.

``dismiss_if_spurious`` closes the dialog in exactly that case, when the link names one of our pages, so a real
typo (/no-such-page) still gets Streamlit's message. It is a components-v2 script (it runs in the page, no iframe)
that only clicks the dialog's own Close button.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import unquote, urlparse

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

_DIALOG_TITLE = "Page not found"
_JS = """
export default function (component) {
  const { data } = component;
  const title = String(data.title || "");
  const close = () => {
    for (const dialog of document.querySelectorAll('[role="dialog"]')) {
      const heading = dialog.querySelector("h2");
      if (heading && heading.textContent.trim() === title) {
        const button = dialog.querySelector('button[aria-label="Close"]');
        if (button) { button.click(); return true; }
      }
    }
    return false;
  };
  if (close()) return;
  // The dialog may mount a moment after this script: watch the page briefly.
  const observer = new MutationObserver(() => { if (close()) observer.disconnect(); });
  observer.observe(document.body, { childList: true, subtree: true });
  const timer = setTimeout(() => observer.disconnect(), 10000);
  return () => { observer.disconnect(); clearTimeout(timer); };
}
"""
_DISMISS = st.components.v2.component("irlab_dismiss_page_not_found", js=_JS)


def leave_legacy_router() -> None:
    """Run once, when ``ui`` is first imported (ui/__init__.py). If the legacy router found a page by its file name
    (/playground, /quiz, /conventions, /errata, /sources match pages/*.py) it runs that page alone, without app.py's
    navigation and frame. Then switch the legacy router off and rerun: app.py runs and routes the link properly."""
    ctx = get_script_run_ctx()
    if ctx is None or not PagesManager.uses_pages_directory:
        return
    app = Path(ctx.main_script_path).resolve()
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get("__file__") and Path(frame.f_globals["__file__"]).resolve() == app:
            return  # app.py is running: its st.navigation switches the legacy router off
        frame = frame.f_back
    PagesManager.uses_pages_directory = False
    st.rerun()


def legacy_router_ran() -> bool:
    """True during a fresh server's first run, before ``st.navigation`` (call it first thing in app.py)."""
    return bool(PagesManager.uses_pages_directory)


def requested_path(url: str | None) -> str:
    """The last path segment of the browser's address ("your-data" for http://host/your-data?k=3)."""
    path = urlparse(url or "").path
    return unquote(path.rstrip("/").rsplit("/", 1)[-1]) if path.strip("/") else ""


def is_spurious(requested: str, url_paths: Iterable[str], legacy_ran: bool) -> bool:
    """Did the legacy router report a page as missing that the app does have?

    >>> is_spurious("your-data", ["playground", "your-data"], legacy_ran=True)
    True
    >>> is_spurious("your-data", ["playground", "your-data"], legacy_ran=False)
    False
    >>> is_spurious("no-such-page", ["playground", "your-data"], legacy_ran=True)
    False
    """
    return legacy_ran and bool(requested) and requested in set(url_paths)


def dismiss_if_spurious(url_paths: Iterable[str], legacy_ran: bool) -> None:
    """Close the "Page not found" dialog when the link named a real page (see the module docstring)."""
    if is_spurious(requested_path(st.context.url), url_paths, legacy_ran):
        with st.sidebar:
            _DISMISS(key="deeplink_dismiss", data={"title": _DIALOG_TITLE})
