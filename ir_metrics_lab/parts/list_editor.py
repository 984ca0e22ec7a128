"""Editing a ranked list without dragging: the example picker, the move control, undo, redo and reset, the document
editor (add, rename, remove) and the shelf of judged documents the retriever missed.

Like the settings' controls (ir_metrics_lab.parts.list_settings), these read the Scenario through ``current`` and write
an edit back through ``apply``; an edit that fails leaves a message for its area instead of a traceback.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.scenario import Scenario
from ir_metrics_lab.parts.list_settings import Apply, Current
from ir_metrics_lab.session import playground_state, widget_state
from ir_metrics_lab.shell import first_paint
from metrics.core.errors import pointer
from metrics.teaching.examples import EXAMPLES

# The height of the list's controls, which a new visitor's first run leaves for the next
# (ir_metrics_lab.shell.first_paint.later), measured in Chromium.
LIST_CONTROLS_ROOM = first_paint.Room(wide=124, phone=376, presenter=163)


def _try(area: str, change: Callable[[], Scenario], apply: Apply, success: str = "") -> None:
    """Run one edit; a ValueError becomes a message for ``area`` instead of a traceback."""
    try:
        new = change()
    except ValueError as error:
        widget_state.set_message(area, "error", str(error)[:1].upper() + str(error)[1:] + ".")
        return
    apply(new)
    if success:
        widget_state.set_message(area, "success", success)


def show_message(area: str) -> None:
    """The outcome of an edit, once. Messages are plain text (they quote ids and titles): shown literally."""
    message = widget_state.pop_message(area)
    if message:
        level, text = message
        {"error": st.error, "warning": st.warning, "success": st.success}[level](plain(text))


def _doc_label(scn: Scenario, doc: str) -> str:
    title = scn.title(doc)
    return f"{doc} — {title}" if title else doc


def _labels(scn: Scenario) -> Callable[[str], str]:
    """A selectbox format_func fixed at render time (AppTest calls it outside the script run)."""
    labels = {doc: _doc_label(scn, doc) for doc in scn.docs}
    return lambda doc: labels.get(doc, str(doc))


def move_control(prefix: str, current: Current, apply: Apply) -> None:
    """Move [doc] to rank [N]: the non-drag path (touch screens, AppTest, precise moves)."""
    scn = current()
    area = f"{prefix}_move"
    if not scn.ranking:
        return
    doc_col, rank_col, button_col = st.columns([4, 2, 2], vertical_alignment="bottom")
    with doc_col:
        st.selectbox(
            "Move",
            list(scn.ranking),
            key=f"{prefix}_move_doc",
            format_func=_labels(scn),
        )
    with rank_col:
        st.number_input("to rank", value=1, step=1, key=f"{prefix}_move_rank")

    def on_click() -> None:
        doc = widget_state.widget_value(f"{prefix}_move_doc")
        rank = widget_state.widget_value(f"{prefix}_move_rank")
        n = len(current().ranking)
        if doc not in current().ranking:
            widget_state.set_message(area, "error", f"Move: {doc!r} is not in the ranked list.")
        elif not isinstance(rank, int) or not 1 <= rank <= n:
            widget_state.set_message(area, "error", f"Move: the rank must be between 1 and {n}; got {rank}.")
        else:
            _try(area, lambda: current().moved(doc, rank), apply)

    with button_col:
        st.button("Move", key=f"{prefix}_move", on_click=on_click, icon=":material/swap_vert:", width="stretch")
    show_message(area)


def list_controls(prefix: str, current: Current, apply: Apply, reset: Callable[[], None]) -> None:
    """Under a ranked list: the move control, then undo, redo and reset (on a new visitor's first run, their room:
    ir_metrics_lab.shell.first_paint.later)."""

    def draw() -> None:
        move_control(prefix, current, apply)
        history_buttons(prefix, reset)

    first_paint.later(f"{prefix}_list_controls", draw, LIST_CONTROLS_ROOM)


def history_buttons(prefix: str, reset: Callable[[], None]) -> None:
    undo_col, redo_col, reset_col = st.columns(3)
    undo_col.button(
        "Undo",
        key=f"{prefix}_undo",
        on_click=playground_state.undo,
        disabled=not playground_state.can_undo(),
        icon=":material/undo:",
        width="stretch",
    )
    redo_col.button(
        "Redo",
        key=f"{prefix}_redo",
        on_click=playground_state.redo,
        disabled=not playground_state.can_redo(),
        icon=":material/redo:",
        width="stretch",
    )
    reset_col.button("Reset", key=f"{prefix}_reset", on_click=reset, icon=":material/restart_alt:", width="stretch")


def shelf(prefix: str, current: Current, apply: Apply) -> None:
    """Judged docs the retriever missed: they still count in R and in the ideal ordering."""
    scn = current()
    if not scn.shelf:
        st.caption("Empty. Use ✕ on a card to mark a document as judged but not retrieved.")
        return
    for doc in scn.shelf:
        with st.container(border=True, horizontal=True, vertical_alignment="center"):
            title = scn.title(doc)
            st.markdown(
                f"**{plain(doc)}**" + (f" · {plain(title)}" if title else "") + f"  \ngrade {scn.grades.get(doc, 0)}",
                width="stretch",
            )
            st.button(
                "Retrieve",
                key=f"{prefix}_retrieve_{doc}",
                icon=":material/arrow_upward:",
                help="Put it back at the end of the ranked list",
                on_click=lambda d=doc: apply(current().retrieved(d)),
            )


def document_editor(prefix: str, current: Current, apply: Apply) -> None:
    """Add, rename and remove documents. Invalid input shows an error naming the field and keeps the text; a
    successful add empties the id and title for the next document."""
    add_tab, rename_tab, remove_tab = st.tabs(["Add", "Rename", "Remove"])
    with add_tab:
        _add_form(prefix, current, apply)
    with rename_tab:
        _rename_form(prefix, current, apply)
    with remove_tab:
        _remove_form(prefix, current, apply)


def _add_form(prefix: str, current: Current, apply: Apply) -> None:
    area = f"{prefix}_add"
    id_col, grade_col = st.columns([3, 1])
    id_col.text_input("Document id", key=f"{prefix}_add_id", placeholder="e.g. d6")
    grade_col.number_input("Grade", value=0, step=1, key=f"{prefix}_add_grade")
    st.text_input("Title", key=f"{prefix}_add_title", placeholder="Short description shown on the card")
    st.checkbox(
        "Judged but not retrieved (put it on the shelf)",
        key=f"{prefix}_add_shelf",
        help="It counts in R and in the ideal ordering, but not in the ranked list.",
    )

    def add() -> None:
        doc = str(widget_state.widget_value(f"{prefix}_add_id") or "").strip()
        grade = widget_state.widget_value(f"{prefix}_add_grade")
        scn = current()
        if not doc:
            widget_state.set_message(
                area, "error", f"Add document: the Document id field is empty {pointer('id-empty')}."
            )
        elif not isinstance(grade, int) or not 0 <= grade <= scn.scale:
            widget_state.set_message(
                area,
                "error",
                f"Add document: Grade must be a whole number from 0 to {scn.scale}; got {grade} "
                f"{pointer('grade-out-of-range')}.",
            )
        else:
            try:
                new = scn.with_doc(
                    doc,
                    str(widget_state.widget_value(f"{prefix}_add_title") or ""),
                    grade,
                    on_shelf=bool(widget_state.widget_value(f"{prefix}_add_shelf")),
                )
            except ValueError as error:
                widget_state.set_message(area, "error", f"Add document: {error}.")
            else:
                apply(new)
                widget_state.clear_widgets(f"{prefix}_add_id", f"{prefix}_add_title")  # ready for the next one
                widget_state.set_message(area, "success", f"Added {doc}.")

    st.button("Add document", key=f"{prefix}_add", on_click=add, icon=":material/add:", type="primary")
    show_message(area)


def _rename_form(prefix: str, current: Current, apply: Apply) -> None:
    area = f"{prefix}_rename"
    scn = current()
    if scn.docs:
        st.selectbox("Document", list(scn.docs), key=f"{prefix}_rename_doc", format_func=_labels(scn))
        st.text_input("New title", key=f"{prefix}_rename_title")

        def rename() -> None:
            doc = widget_state.widget_value(f"{prefix}_rename_doc")
            title = str(widget_state.widget_value(f"{prefix}_rename_title") or "")
            _try(area, lambda: current().renamed(doc, title), apply, f"Renamed {doc}.")

        st.button("Rename", key=f"{prefix}_rename", on_click=rename, icon=":material/edit:")
    show_message(area)


def _remove_form(prefix: str, current: Current, apply: Apply) -> None:
    area = f"{prefix}_remove"
    scn = current()
    if scn.docs:
        st.selectbox("Document", list(scn.docs), key=f"{prefix}_remove_doc", format_func=_labels(scn))
        st.caption("Removing forgets the judgment too (✕ on a card keeps it, on the shelf). Undo brings it back.")

        def remove() -> None:
            doc = widget_state.widget_value(f"{prefix}_remove_doc")
            _try(area, lambda: current().without(doc), apply, f"Removed {doc}.")

        st.button("Remove", key=f"{prefix}_remove", on_click=remove, icon=":material/delete:")
    show_message(area)


def preset_picker(prefix: str) -> None:
    """Load one of the worked examples from the posts (undoable), and show what it teaches. The caption is true of
    the list on screen: an example's notes are shown as they are only while its list is unchanged; once edited, the
    picker says so, the notes are labelled as the original's, and one click brings the original back. When the list
    came from somewhere else (a shared link, a query of a run, an erratum) the picker names that instead."""
    key = f"{prefix}_preset"
    origin = playground_state.origin()
    example = EXAMPLES[playground_state.example_key()]
    edited = origin is None and playground_state.scenario() != Scenario.from_example(example)
    shown = widget_state.sync_widget(key, None if origin or edited else example.key)

    def load() -> None:
        if widget_state.widget_value(key) is not None:
            playground_state.load_example(widget_state.widget_value(key))

    picker_col, lesson_col = st.columns([2, 3], vertical_alignment="bottom")
    with picker_col:
        first_paint.later(
            f"{prefix}_example_picker",
            lambda: st.selectbox(
                "Example",
                list(EXAMPLES),
                key=key,
                index=widget_state.option_index(EXAMPLES, shown),
                placeholder=origin or f"{example.title} (edited)",
                format_func=lambda e: EXAMPLES[e].title,
                on_change=load,
                help="Loading an example replaces the list; Undo brings yours back.",
            ),
            first_paint.LABELLED_WIDGET,
        )
    if origin:
        lesson_col.caption(
            f"{plain(origin)}: not one of the examples. Pick an example to replace it (Undo brings this list back)."
        )
    elif edited:
        with lesson_col:
            st.caption(
                f"**You changed this example**, so the numbers below describe your list; these notes are about the "
                f"original: *{example.lesson}*  \n*Source: {example.source}.*"
            )
            st.button(
                "Back to the original example",
                key=f"{prefix}_preset_original",
                icon=":material/restart_alt:",
                on_click=playground_state.reset,
                type="tertiary",
            )
    else:
        lesson_col.caption(f"{example.lesson}  \n*Source: {example.source}.*")
