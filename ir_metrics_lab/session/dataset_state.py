"""Your own data in the session: the files loaded (ir_metrics_lab.session.datasets draws the uploaders), which
uploaders changed, and the data pages' settings, which outlive page switches where their widgets' keys do not."""

from __future__ import annotations

import streamlit as st

from ir_metrics_lab.session import widget_state

# {slot: ir_metrics_lab.session.datasets.Loaded}: parsed files outlive page switches, uploader widgets don't
_LOADED = "dataset_loaded"
_UPLOAD_CHANGED = "dataset_upload_changed"  # slots whose uploader the user changed since they were last read
_DATASET_SETTINGS = "dataset_settings"  # {name: value}: source, sample system, measures, complete


def loaded_file(slot: str) -> object | None:
    """The file loaded into ``slot`` (a ir_metrics_lab.session.datasets.Loaded, possibly holding an error), or None."""
    return st.session_state.get(_LOADED, {}).get(slot)


def set_loaded_file(slot: str, loaded: object) -> None:
    st.session_state.setdefault(_LOADED, {})[slot] = loaded


def clear_loaded_file(slot: str) -> None:
    st.session_state.get(_LOADED, {}).pop(slot, None)


def mark_upload_changed(slot: str) -> None:
    """The uploader's on_change: the script reads the new file (or its removal) on this run."""
    st.session_state.setdefault(_UPLOAD_CHANGED, set()).add(slot)


def upload_changed(slot: str) -> bool:
    return slot in st.session_state.get(_UPLOAD_CHANGED, set())


def upload_handled(slot: str) -> None:
    """Clear the flag only once the file was read: a run cut short by the next upload's rerun reads it again."""
    st.session_state.get(_UPLOAD_CHANGED, set()).discard(slot)


def dataset_setting(name: str, default: object = None) -> object:
    return st.session_state.get(_DATASET_SETTINGS, {}).get(name, default)


def set_dataset_setting(name: str, value: object) -> None:
    st.session_state.setdefault(_DATASET_SETTINGS, {})[name] = value


def shown_setting(widget_key: str, default: object, setting: str | None = None) -> object:
    """What the widget ``widget_key``, seeded from the dataset setting ``setting`` (by default its own key), shows:
    its value, or before it is drawn (ir_metrics_lab.shell.first_paint.later) the saved setting it will show."""
    return widget_state.widget_value(widget_key, dataset_setting(setting or widget_key, default))


def kept_widget(key: str, default: object, *, options: list | None = None, argument: str = "default") -> dict:
    """key, on_change and the saved value as its default for the widget ``key``, whose value outlives page switches
    (Streamlit drops widget keys when another page runs, e.g. after a drill-down into the playground): saved as the
    dataset setting ``key``. The default is ``index`` into ``options`` for a radio or a selectbox, else ``argument``
    (``default``, a toggle's ``value``): ir_metrics_lab.session.widget_state.sync_widget says why it must be the saved
    value. What the widget shows, before it is drawn too: ``shown_setting(key, default)``."""
    shown = widget_state.sync_widget(key, dataset_setting(key, default))
    initial = {"index": widget_state.option_index(options, shown)} if options is not None else {argument: shown}
    return {"key": key, "on_change": lambda: set_dataset_setting(key, widget_state.widget_value(key)), **initial}


def keep_valid_setting(key: str, options: list, default: object) -> None:
    """Reset a kept single choice whose saved value is no longer among the options (another set of runs)."""
    if dataset_setting(key, default) not in options:
        set_dataset_setting(key, default)
