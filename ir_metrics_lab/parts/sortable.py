"""Our own drag-and-drop ranked list, an ``st.components.v2`` component (no iframe, no third-party JS).

The browser sends one state value, ``edit`` = {"order": [...], "grades": {doc: grade}, "action": {...}, "nonce": ...}:
the whole list as the user left it. ``apply_edit`` turns it into a Scenario edit; the caller's ``apply`` stores it (e.g.
``ir_metrics_lab.session.playground_state.update``). Python always renders the canonical scenario into ``data``, so
Reset, undo and presets show at once; an edit is applied once (remembered by its nonce), so a stale browser value never
comes back.

In AppTest, simulate a drop by writing the state before ``run()``:
``at.session_state["pg_list"] = {"edit": {"order": ["d3", "d1", "d2", "d4", "d5"]}}``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

import streamlit as st

from ir_metrics_lab.core.scenario import Scenario
from ir_metrics_lab.session import widget_state
from ir_metrics_lab.shell import first_paint

_ASSETS = Path(__file__).parent / "components"
_COMPONENT = st.components.v2.component(
    "irlab_ranked_list",
    js=(_ASSETS / "sortable.js").read_text(encoding="utf-8"),
    css=(_ASSETS / "sortable.css").read_text(encoding="utf-8"),
)


# A list's height in Chromium, label and border included: (px, px per card) on a wide screen, a phone (coarse
# pointer: larger chips, a card on two lines) and a projector; linear in the cards (measured at 3, 5 and 10).
_HEIGHT = {"wide": (50.4, 70.6), "phone": (70.4, 116.6), "presenter": (63.2, 87.1)}


def _room(cards: int) -> first_paint.Room:
    """The height of a list of ``cards`` (ir_metrics_lab.shell.first_paint.box)."""
    return first_paint.Room(**{view: round(base + per_card * cards) for view, (base, per_card) in _HEIGHT.items()})


def apply_edit(scn: Scenario, edit: Mapping) -> tuple[Scenario, str]:
    """The scenario after the browser's ``edit``, and a sentence for screen readers describing what changed.

    Tolerant of stale or partial input: unknown doc ids are ignored, docs missing from ``order`` are shelved,
    and grades outside the scale are ignored (the card only offers valid ones).
    """
    order = edit.get("order")
    new = scn
    if isinstance(order, list | tuple):
        kept = list(dict.fromkeys(d for d in order if isinstance(d, str) and d in scn.ranking))
        for doc in scn.ranking:
            if doc not in kept:
                new = new.shelved(doc)
        if tuple(kept) != new.ranking:
            new = new.reordered(kept)
    grades = edit.get("grades")
    if isinstance(grades, Mapping):
        for doc, grade in grades.items():
            valid = isinstance(grade, int) and not isinstance(grade, bool) and 0 <= grade <= new.scale
            if doc in new.docs and valid and grade != new.grades.get(doc):
                new = new.with_grade(doc, grade)
    action = edit.get("action")
    moved = action.get("doc") if isinstance(action, Mapping) and action.get("type") == "move" else None
    return new, _describe(scn, new, moved)


def _describe(old: Scenario, new: Scenario, moved: object = None) -> str:
    """One sentence for screen readers. A swap of neighbours moves two docs equally far, so the browser's
    ``action.doc`` names the one the user moved; without it, the doc that moved furthest is named."""
    for doc in old.ranking:
        if doc in new.shelf and doc not in old.shelf:
            return f"{doc} moved to the not-retrieved shelf"
    for doc in new.docs:
        if new.grades.get(doc) != old.grades.get(doc):
            return f"{doc} graded {new.grades.get(doc)}"
    if old.ranking != new.ranking:
        if moved not in new.ranking:
            moved = max(new.ranking, key=lambda d: abs(new.ranking.index(d) - old.ranking.index(d)))
        return f"{moved} moved to rank {new.ranking.index(moved) + 1} of {len(new.ranking)}"
    return ""


def _edit_id(edit: Mapping) -> str:
    return str(edit.get("nonce") or json.dumps(edit, sort_keys=True, default=str))


def consume(key: str, current: Callable[[], Scenario], apply: Callable[[Scenario], None]) -> None:
    """Apply the component's latest edit if it has not been applied yet (idempotent: safe to call twice a run)."""
    edit = widget_state.component_edit(key)
    if not isinstance(edit, Mapping):
        return
    edit_id = _edit_id(edit)
    if not widget_state.edit_is_new(key, edit_id):
        return
    widget_state.mark_edit_seen(key, edit_id)
    new, sentence = apply_edit(current(), edit)
    if new != current():
        apply(new)
        widget_state.set_announcement(key, sentence)


def ranked_list(
    key: str,
    current: Callable[[], Scenario],
    apply: Callable[[Scenario], None],
    *,
    label: str = "Ranked list",
    shelve: bool = True,
    grade_edit: bool = True,
) -> None:
    """Render the draggable list of ``current()`` and route the user's edits to ``apply``. ``grade_edit=False``
    hides the grade chips (the grades are given, as in the quiz's reorder task)."""
    consume(key, current, apply)  # AppTest writes state without firing callbacks: apply it before drawing
    scn = current()
    data = {
        "list": key,
        "label": label,
        "items": [
            {
                "id": d,
                "title": scn.title(d),
                "grade": scn.grades.get(d, 0),
                "unjudged": d in scn.unjudged,
                **({"aspects": list(scn.aspects_of(d))} if d in scn.aspects else {}),  # chips under the title
            }
            for d in scn.ranking
        ],
        "scale": scn.scale,
        "k": scn.k,
        "threshold": scn.conventions.threshold,
        "shelve": shelve,
        "gradeEdit": grade_edit,
        "announce": widget_state.pop_announcement(key),
    }
    # A box drawn at once, where the list's own element waits for its code (measured with grade chips, cards).
    # (aspect chips add a line to a card: no measured height for them)
    measured = grade_edit and scn.ranking and not any(d in scn.aspects for d in scn.ranking)
    box = first_paint.box(f"{key}_box", _room(len(scn.ranking))) if measured else st.container(key=f"{key}_box")
    with box:
        _COMPONENT(
            key=key,
            data=data,
            default={"edit": None},
            on_edit_change=lambda: consume(key, current, apply),
        )
