"""Numbers first, charts after, for a brand-new visitor.

A new browser loads each kind of element's code on first use. Plotly's chunk is about 4.6 MB: while the browser
fetches, parses and runs it, the page's main thread is busy and the metric cards and the ranked list wait with it
(measured by bench/first_visit.py: a few times slower than a bare ``st.metric`` page); the code block's highlighter
(1.6 MB), the data grid (1.2 MB) and KaTeX (0.5 MB) weigh too. So a session's first run draws each chart as an
empty box of the chart's height (nothing moves when it arrives), pages leave their heavy parts below the numbers
(closed expanders, the formulas' tabs) for later (``charts_now()``), and a tiny script waits
until the page has painted with no placeholder left (or 4 s), then reruns the app: the second run draws the charts.
Every later run draws them at once.

Only a browser can say it has painted: a session with no HTTP headers (AppTest) gets its charts on the first run.
"""

from __future__ import annotations

import streamlit as st

from ui import state

_JS = """
export default function (component) {
  const { setTriggerValue } = component;
  let done = false;
  const painted = () => !document.querySelector('[data-testid="stSkeleton"]');
  const fire = () => {
    if (done) return;
    done = true;
    observer.disconnect();
    clearTimeout(timer);
    // two frames: the numbers on screen, then ask for the charts
    requestAnimationFrame(() => requestAnimationFrame(() => setTriggerValue("painted", true)));
  };
  const observer = new MutationObserver(() => { if (painted()) fire(); });
  observer.observe(document.body, { childList: true, subtree: true });
  const timer = setTimeout(fire, 4000);
  if (painted()) fire();
  return () => { observer.disconnect(); clearTimeout(timer); };
}
"""
_COMPONENT = st.components.v2.component("irlab_first_paint", js=_JS)
KEY = "first_paint_watch"


def charts_now() -> bool:
    """Draw charts (and other heavy elements) in this run? Yes once the session's first screen has painted, or with
    no browser at all."""
    return state.first_paint_done() or not st.context.headers


def watch() -> None:
    """Call once per run in app.py (in the sidebar): until the first paint, the script that reports it."""
    if not charts_now():
        _COMPONENT(key=KEY, on_painted_change=state.set_first_paint_done)
