"""What the widgets show and leave behind in the session: each widget seeded from its canonical value, the ranked-list
component's edits and announcements, and the messages a callback leaves for the next run.

Widgets never hold the canonical state (the *_state modules beside this one do): a widget's key is deleted when a page
that does not render it runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import streamlit as st

from ir_metrics_lab.session import playground_state

T = TypeVar("T")  # the type of a widget's canonical value

_LIST_EDITS_SEEN = "list_edits_seen"  # {component key: id of the last browser edit applied}
_ANNOUNCEMENTS = "list_announcements"  # {component key: sentence for the screen reader after the rerun}
_PUSHED = "widgets_pushed"  # {widget key: the canonical value last written into that widget}
_MESSAGES = "page_messages"  # {area: (level, text)}: outcome of a button callback, shown on the next render
OPENED_QUERY_AREA = "pg_drilldown"  # the message area of ir_metrics_lab.session.drilldown: "Opened query Q of run: ..."


def component_edit(key: str) -> object:
    """The ``edit`` state value of the ranked-list component ``key`` (None before the first edit)."""
    value = st.session_state.get(key)
    try:
        return value.get("edit") if value is not None else None
    except AttributeError:
        return None


def edit_is_new(key: str, edit_id: str) -> bool:
    return st.session_state.get(_LIST_EDITS_SEEN, {}).get(key) != edit_id


def mark_edit_seen(key: str, edit_id: str) -> None:
    st.session_state.setdefault(_LIST_EDITS_SEEN, {})[key] = edit_id


def set_announcement(key: str, text: str) -> None:
    st.session_state.setdefault(_ANNOUNCEMENTS, {})[key] = text


def pop_announcement(key: str) -> str:
    return st.session_state.get(_ANNOUNCEMENTS, {}).pop(key, "")


def sync_widget(widget_key: str, value: T) -> T:
    """Make the widget ``widget_key`` show the canonical ``value``; returns ``value``, which the caller passes as the
    widget's default (``value=``, ``default=``, or ``index=`` through ``option_index``) in the same run.

    A widget the browser mounts late (ir_metrics_lab.shell.first_paint.later, or drawn again after a page switch) shows
    its default until it has applied the value sent with it, and a browser that missed that value sends the default back
    with the next interaction: an upload then lost Evaluate's measures, and presenter mode turned itself off. So the
    default is always the canonical value, and session_state is written only for a widget already on screen whose
    canonical value changed (undo, preset, reset): what the user typed (even if invalid) stays until then."""
    pushed = st.session_state.setdefault(_PUSHED, {})
    if widget_key in st.session_state and pushed.get(widget_key) != value:
        st.session_state[widget_key] = value
    pushed[widget_key] = value
    return value


def options_with(options: Sequence[object], chosen: Sequence[object]) -> list[object]:
    """``options`` and then any of ``chosen`` not among them: the options of a multiselect that accepts new ones,
    so that what the user added is still a valid default when the widget is drawn again."""
    return [*options, *(value for value in chosen if value not in options)]


def option_index(options: Sequence[object], value: object) -> int | None:
    """The ``index`` that makes a radio or selectbox show ``value`` (None, no choice, when it is not an option)."""
    options = list(options)
    return options.index(value) if value in options else None


def widget_value(widget_key: str, default: object = None) -> object:
    return st.session_state.get(widget_key, default)


def choice_index(widget_key: str, allowed: Sequence[object], default: object) -> int:
    """The ``index`` to give the choice widget ``widget_key`` (one of ``allowed``, ``default`` at first).

    The index is what the browser shows until it has applied a value sent with the element, and a browser that mounts
    the widget late (a new visitor's first run is followed by a second: ir_metrics_lab.shell.first_paint) can miss that
    value: so a widget that holds nothing yet gets its value from the index alone, and one that holds an allowed value
    gets that value's index. Only a value no longer allowed (another measure) is replaced through session_state, which
    reaches the widget on screen by then; the index is then 0, as Streamlit warns (with a stack trace in the log) when a
    run gives a widget both a session_state value and another index."""
    allowed = list(allowed)
    if widget_key not in st.session_state:
        return allowed.index(default)
    current = st.session_state[widget_key]
    if current in allowed:
        return allowed.index(current)
    st.session_state[widget_key] = default
    return 0


def clear_widgets(*widget_keys: str) -> None:
    """Empty text inputs after their form succeeded (only from a callback: the widgets are drawn afterwards)."""
    for widget_key in widget_keys:
        st.session_state[widget_key] = ""


def set_message(area: str, level: str, text: str) -> None:
    """Keep a callback's outcome ("error", "warning", "success") for the area's next render. ``text`` is plain text
    (it may quote ids and titles): the area shows it through ir_metrics_lab.core.markdown.plain.

    ir_metrics_lab.session.drilldown announces a query it opened in the playground in OPENED_QUERY_AREA ("Opened query
    Q of run: its top N ..."); the part before the colon becomes the scenario's origin, so the example picker names the
    query, not a preset."""
    st.session_state.setdefault(_MESSAGES, {})[area] = (level, text)
    if area == OPENED_QUERY_AREA and text.startswith("Opened query"):
        playground_state.set_origin(text.split(":", 1)[0])


def pop_message(area: str) -> tuple[str, str] | None:
    return st.session_state.get(_MESSAGES, {}).pop(area, None)
