"""Accessibility fixes the app's own markup cannot carry: a script (ir_metrics_lab/shell/components/a11y.js) that adds
keyboard stops on boxes that scroll sideways (display formulas, wide tables, code), the navigation landmark and the
current page's mark, on Streamlit's markup (Streamlit 1.67 draws its own skip link to the main content), and keeps one
polite live region for the whole app, through which a page announces the numbers an edit changed (``announce``), and
moves the keyboard's focus where a control's action took its subject (``focus_after_run``). Mounted once per run in
app.py; its element is hidden (ir_metrics_lab.shell.layout's CSS) and takes no space."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import streamlit as st

from metrics.core.types import Breakdown

KEY = "irlab_a11y"
_COMPONENT = st.components.v2.component(
    "irlab_a11y", js=(Path(__file__).parent / "components" / "a11y.js").read_text(encoding="utf-8")
)


def apply(current_title: str) -> None:
    """Call once per run, in app.py (after the page), with the title of the page on screen. What the page gave
    ``announce`` in this run goes to the app's polite live region."""
    _COMPONENT(
        key=KEY,
        data={
            "current": current_title,
            "announce": st.session_state.pop(_ANNOUNCE_KEY, ""),
            "focus": st.session_state.pop(_FOCUS_KEY, None),
        },
    )


_ANNOUNCE_KEY = "_a11y_announcement"
_FOCUS_KEY = "_a11y_focus"
_FOCUS_COUNT = "_a11y_focus_count"
_UNCHANGED = 5e-5  # a change under half the last shown decimal is no change (as ir_metrics_lab.parts.cards.delta)


def announce(sentence: str) -> None:
    """Have screen readers read ``sentence`` politely (a live region, ir_metrics_lab/shell/components/a11y.js). The same
    sentence as the last one read is not read again, so a rerun with nothing new says nothing."""
    st.session_state[_ANNOUNCE_KEY] = sentence


def focus_after_run(widget_key: str) -> None:
    """Once this run is drawn, put the keyboard's focus on the button keyed ``widget_key`` (if it is drawn and
    enabled). For a control whose action moves its subject: "Move 3 up" reruns the page with the same buttons in the
    same places, the focus left on "Move 3 up", now another document's; this takes it to where the document went."""
    count = st.session_state[_FOCUS_COUNT] = st.session_state.get(_FOCUS_COUNT, 0) + 1  # the same key again counts
    st.session_state[_FOCUS_KEY] = {"key": widget_key, "count": count}


def numbers_changed(
    now: Mapping[str, Breakdown], before: Mapping[str, Breakdown] | None, families: Sequence[str]
) -> str:
    """The metrics of ``families`` that changed since ``before``, for a screen reader: "NDCG@5 0.9140, down 0.0584;
    P@5 0.6000, down 0.2000" ("" when none did, or there is no ``before``).

    >>> from metrics.core.types import Breakdown
    >>> was = {"AP": Breakdown("AP", None, 0.5, ()), "RR": Breakdown("RR", None, 1.0, ())}
    >>> numbers_changed({"AP": Breakdown("AP", None, 0.75, ()), "RR": was["RR"]}, was, ["AP", "RR"])
    'AP 0.7500, up 0.2500'
    """
    if before is None:
        return ""
    changes = []
    for family in families:
        new, old = now[family], before.get(family)
        if old is None or abs(new.value - old.value) < _UNCHANGED:
            continue
        way = "up" if new.value > old.value else "down"
        changes.append(f"{new.metric} {new.value:.4f}, {way} {abs(new.value - old.value):.4f}")
    return "; ".join(changes)
