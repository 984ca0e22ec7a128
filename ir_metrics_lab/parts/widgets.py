"""Streamlit widgets shared by the pages: metric cards, convention controls, the document editors and the shelf.

Widgets never hold the canonical state: each one is seeded from the Scenario (``state.sync_widget``) and writes back
through an ``apply`` callback (``state.update`` on the playground). Every number comes from ``metrics``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import streamlit as st

from ir_metrics_lab.core import family_display, numbers, words
from ir_metrics_lab.core.figures import curve_charts
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.scenario import MAX_DOCS, SCALES, Scenario
from ir_metrics_lab.session import state
from ir_metrics_lab.shell import first_paint
from metrics import Breakdown, parse_measure
from metrics.catalog import registry
from metrics.core.conventions import TREC_EVAL
from metrics.core.types import Term
from metrics.teaching.examples import EXAMPLES
from metrics.teaching.swaps import swap_deltas

Apply = Callable[[Scenario], None]
Current = Callable[[], Scenario]

MAX_K = MAX_DOCS  # curves are swept to k: keep a typo like k = 10^9 from stalling the page
# The playground's cards, tabs and curves, as ir_metrics_lab.core.family_display declares them.
ORDER_AWARE = family_display.cards("order")
SET_BASED = family_display.cards("set")
CURVE_FAMILIES = numbers.CURVE_FAMILIES
HELP = {f.key: f.help for f in registry.FAMILIES}
# The height of the list's controls, which a new visitor's first run leaves for the next
# (ir_metrics_lab.shell.first_paint.later), measured in Chromium.
LIST_CONTROLS_ROOM = first_paint.Room(wide=124, phone=376, presenter=163)


def fmt(x: float) -> str:
    """Every metric value in the app: 4 decimals."""
    return f"{x:.4f}"


# --- numbers ---


breakdowns = numbers.breakdowns  # the cards' numbers: ir_metrics_lab.core.numbers, which the notebooks call too


def breakdown(scn: Scenario, family: str, k: int | None) -> Breakdown:
    """One metric of the scenario at ``k`` (None: the whole list), on the full ranking (a hidden tail counts)."""
    return registry.family(family).function(list(scn.full_ranking), scn.qrels, k, conventions=scn.conventions)


def catalog_choices(k: int) -> list[str]:
    """Every catalog measure, spelled for the picker at the playground's k (IPrec at recall 0.5)."""
    choices = []
    for f in registry.FAMILIES:
        if f.at_param:
            choices.append(f"{f.key}@{0.5 if f.at_param == 'level' else 1}")
        elif f.written != "whole" and f.cutoff != "none":
            choices.append(f"{f.key}@{k}")
        else:
            choices.append(f.key)
    return choices


def precision_recall_chart(scn: Scenario):
    """The playground list's precision-recall curve with trec_eval's 11 interpolated points."""
    return curve_charts.precision_recall(*numbers.precision_recall(scn))


def measure_breakdown(scn: Scenario, name: str) -> Breakdown:
    """Any catalog measure (by name, ours, trec_eval's or ir_measures') on the scenario's full ranking."""
    return parse_measure(name).compute(list(scn.full_ranking), scn.qrels, scn.conventions)


# Kept for the lists a session goes back to (an edit undone, a metric picked again, A vs B's other side); the key is
# everything the result depends on, and st.cache_data hands each caller its own copy. (The cards' breakdowns are not
# kept: for 100 documents they cost less than a cache hit.)
_kept = st.cache_data(max_entries=64, ttl=3600, show_spinner=False)
curves = _kept(numbers.curves)  # metric@k at every cutoff: about 250 ms for 100 documents, a cache hit 2 ms
swap_deltas_kept = _kept(swap_deltas)  # a metric call per pair of differently graded docs: about 1 s for 100 docs


def delta(now: Breakdown, before: Breakdown | None) -> str | None:
    """The change since the last edit for st.metric's delta ("+0.1234"), or None when there is none to show."""
    if before is None or abs(now.value - before.value) < 5e-5:
        return None
    return f"{now.value - before.value:+.4f}"


def metric_cards(now: dict[str, Breakdown], before: dict[str, Breakdown] | None, families: Sequence[str]) -> None:
    """One st.metric per family, labelled by Breakdown.metric ("NDCG@5", "AP", ...), with the change since the
    last edit as delta."""
    # A wrapping row rather than st.columns: five across on a laptop, two across on a phone.
    with st.container(horizontal=True, gap="small"):
        for family in families:
            b = now[family]
            st.metric(
                b.metric,
                fmt(b.value),
                delta=delta(b, before.get(family) if before else None),
                help=HELP.get(family),
                border=True,
                width="stretch",
            )


# the key numbers a phone keeps in view (ir_metrics_lab/shell/layout.py makes it sticky)
SUMMARY = family_display.pinned_families()
SUMMARY_KEY = "pg_summary"


def sticky_summary(now: dict[str, Breakdown]) -> None:
    """One compact line of the key numbers. Shown on narrow screens only, where it sticks to the top of the screen while
    the list below is edited (ir_metrics_lab/shell/layout.py's CSS); wide screens have the cards beside the list."""
    if not first_paint.charts_now() and not first_paint.on_phone():
        # a wide screen hides it (ir_metrics_lab/shell/layout.py), but its CSS comes after a new visitor's first paint
        st.empty()
        return
    with st.container(key=SUMMARY_KEY):
        st.markdown(" · ".join(f"**{now[f].metric}**\u00a0{fmt(now[f].value)}" for f in SUMMARY))  # no break inside


# --- settings ---


def _try(area: str, change: Callable[[], Scenario], apply: Apply, success: str = "") -> None:
    """Run one edit; a ValueError becomes a message for ``area`` instead of a traceback."""
    try:
        new = change()
    except ValueError as error:
        state.set_message(area, "error", str(error)[:1].upper() + str(error)[1:] + ".")
        return
    apply(new)
    if success:
        state.set_message(area, "success", success)


def show_message(area: str) -> None:
    """The outcome of an edit, once. Messages are plain text (they quote ids and titles): shown literally."""
    message = state.pop_message(area)
    if message:
        level, text = message
        {"error": st.error, "warning": st.warning, "success": st.success}[level](plain(text))


def _k_error(raw: object) -> str | None:
    if not isinstance(raw, int | float) or raw != int(raw):
        return f"Cutoff k must be a whole number; got {raw!r}. Keeping the previous k."
    if not 1 <= raw <= MAX_K:
        return f"Cutoff k must be between 1 and {MAX_K}; got {int(raw)}. Keeping the previous k."
    return None


def k_control(prefix: str, current: Current, apply: Apply, *, label: str = "Cutoff k") -> None:
    """A number input for k; invalid entries stay visible with an error, the scenario keeps its k."""
    key = f"{prefix}_k"
    k = state.sync_widget(key, current().k)

    def on_change() -> None:
        raw = state.widget_value(key)
        if _k_error(raw) is None:
            apply(current().with_settings(k=int(raw)))

    st.number_input(
        label, value=k, step=1, key=key, on_change=on_change, help="Metrics with @k look only at the top k."
    )
    error = _k_error(state.widget_value(key))
    if error:
        st.error(error)


def _tools(convention: str, choices: Sequence[str]) -> list[str]:
    """Which tools make each choice of a convention (the registry's facts), as radio captions."""
    return [registry.tools(convention, choice) for choice in choices]


def _default(text: str, is_default: bool) -> str:
    return f"{text}  ·  trec_eval default" if is_default else text


def convention_controls(prefix: str, current: Current, apply: Apply) -> None:
    """Rating scale, relevance threshold, gain, IDCG source and AP denominator, each with a one-line explanation."""
    scn = current()
    conv = scn.conventions

    def set_conventions(**changes: object) -> None:
        apply(current().with_settings(conventions=dataclasses.replace(current().conventions, **changes)))

    def widget(name: str, control: Callable[..., object], options: Sequence, **kwargs: object) -> str:
        key = f"{prefix}_{name}"
        shown = state.sync_widget(key, kwargs.pop("value"))
        # ir_metrics_lab.session.state.sync_widget: the widget's default is the value it shows (a radio's is an index)
        initial = {"index": state.option_index(options, shown)} if control is st.radio else {"default": shown}

        def on_change() -> None:
            kwargs_apply(name, state.widget_value(key))

        control(options=options, key=key, on_change=on_change, **initial, **kwargs)
        return key

    def kwargs_apply(name: str, value: object) -> None:
        if value is None:
            return
        if name == "scale":
            scaled = current().with_scale(int(value))
            threshold = min(scaled.conventions.threshold, int(value))
            apply(scaled.with_settings(conventions=dataclasses.replace(scaled.conventions, threshold=threshold)))
        elif name == "threshold":
            set_conventions(threshold=int(value))
        elif name == "gain":
            set_conventions(gain=value)
        elif name == "idcg":
            set_conventions(idcg=value)
        elif name == "ap":
            set_conventions(ap_denominator=value)

    widget(
        "scale",
        st.segmented_control,
        list(SCALES),
        value=scn.scale,
        label="Rating scale",
        format_func=lambda s: {1: "Binary 0–1", 3: "0–3", 4: "0–4"}[s],
        required=True,
        help="The grades a rater can give. Changing it caps grades above the new top.",
    )
    widget(
        "threshold",
        st.segmented_control,
        list(range(1, scn.scale + 1)),
        value=min(conv.threshold, scn.scale),
        label="Relevant if grade ≥",
        required=True,
        help="Binary metrics (P, R, RR, AP, HitRate, F1) count a doc as relevant from this grade up "
        "(trec_eval -l; default 1). NDCG ignores it: every positive grade is a gain.",
    )
    st.caption("Binary metrics use the threshold; NDCG uses the grades themselves.")
    widget(
        "gain",
        st.radio,
        ["linear", "exp"],
        value=conv.gain,
        label="Gain",
        format_func=lambda g: (
            _default("Linear: gain = g", g == TREC_EVAL.gain) if g == "linear" else "Exponential: 2^g − 1"
        ),
        captions=_tools("gain", ["linear", "exp"]),
    )
    widget(
        "idcg",
        st.radio,
        ["all", "retrieved"],
        value=conv.idcg,
        label="Ideal ordering (IDCG) from",
        format_func=lambda s: (
            _default("All judged docs", s == TREC_EVAL.idcg) if s == "all" else "The retrieved list only"
        ),
        captions=["Missed relevant docs lower NDCG", "Blog shortcut: ignores what was missed"],
    )
    widget(
        "ap",
        st.radio,
        ["all", "retrieved"],
        value=conv.ap_denominator,
        label="AP divides by",
        format_func=lambda s: (
            _default("All relevant docs (R)", s == TREC_EVAL.ap_denominator)
            if s == "all"
            else "Relevant docs retrieved"
        ),
        captions=_tools("ap_denominator", ["all", "retrieved"]),
    )
    if conv != TREC_EVAL:
        st.button(
            "Back to trec_eval defaults",
            key=f"{prefix}_trec_defaults",
            icon=":material/restart_alt:",
            on_click=lambda: apply(current().with_settings(conventions=dataclasses.replace(TREC_EVAL))),
        )


# --- document editing ---


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
        doc = state.widget_value(f"{prefix}_move_doc")
        rank = state.widget_value(f"{prefix}_move_rank")
        n = len(current().ranking)
        if doc not in current().ranking:
            state.set_message(area, "error", f"Move: {doc!r} is not in the ranked list.")
        elif not isinstance(rank, int) or not 1 <= rank <= n:
            state.set_message(area, "error", f"Move: the rank must be between 1 and {n}; got {rank}.")
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
        on_click=state.undo,
        disabled=not state.can_undo(),
        icon=":material/undo:",
        width="stretch",
    )
    redo_col.button(
        "Redo",
        key=f"{prefix}_redo",
        on_click=state.redo,
        disabled=not state.can_redo(),
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


def judgment_summary(now: dict[str, Breakdown]) -> None:
    """R and hits, read off the metrics' own terms (the first card at k that carries both), so the learner sees what
    the denominators are."""
    counted = next(b for b in now.values() if b.k is not None and Term.R in b.terms and Term.HITS in b.terms)
    R, hits = int(counted.terms[Term.R]), int(counted.terms[Term.HITS])
    st.caption(
        f"R = **{R}** relevant {'document' if R == 1 else 'documents'} judged (grade ≥ "
        f"{counted.conventions.threshold}); **{hits}** of them {words.verb(hits, 'is')} in the top {counted.k}."
    )


def document_editor(prefix: str, current: Current, apply: Apply) -> None:
    """Add, rename and remove documents. Invalid input shows an error naming the field and keeps the text; a
    successful add empties the id and title for the next document."""
    add_tab, rename_tab, remove_tab = st.tabs(["Add", "Rename", "Remove"])
    with add_tab:
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
            doc = str(state.widget_value(f"{prefix}_add_id") or "").strip()
            grade = state.widget_value(f"{prefix}_add_grade")
            scn = current()
            if not doc:
                state.set_message(area, "error", "Add document: the Document id field is empty.")
            elif not isinstance(grade, int) or not 0 <= grade <= scn.scale:
                state.set_message(
                    area, "error", f"Add document: Grade must be a whole number from 0 to {scn.scale}; got {grade}."
                )
            else:
                try:
                    new = scn.with_doc(
                        doc,
                        str(state.widget_value(f"{prefix}_add_title") or ""),
                        grade,
                        on_shelf=bool(state.widget_value(f"{prefix}_add_shelf")),
                    )
                except ValueError as error:
                    state.set_message(area, "error", f"Add document: {error}.")
                else:
                    apply(new)
                    state.clear_widgets(f"{prefix}_add_id", f"{prefix}_add_title")  # ready for the next one
                    state.set_message(area, "success", f"Added {doc}.")

        st.button("Add document", key=f"{prefix}_add", on_click=add, icon=":material/add:", type="primary")
        show_message(area)

    scn = current()
    docs = list(scn.docs)
    with rename_tab:
        area = f"{prefix}_rename"
        if docs:
            st.selectbox("Document", docs, key=f"{prefix}_rename_doc", format_func=_labels(scn))
            st.text_input("New title", key=f"{prefix}_rename_title")

            def rename() -> None:
                doc = state.widget_value(f"{prefix}_rename_doc")
                title = str(state.widget_value(f"{prefix}_rename_title") or "")
                _try(area, lambda: current().renamed(doc, title), apply, f"Renamed {doc}.")

            st.button("Rename", key=f"{prefix}_rename", on_click=rename, icon=":material/edit:")
        show_message(area)
    with remove_tab:
        area = f"{prefix}_remove"
        if docs:
            st.selectbox("Document", docs, key=f"{prefix}_remove_doc", format_func=_labels(scn))
            st.caption("Removing forgets the judgment too (✕ on a card keeps it, on the shelf). Undo brings it back.")

            def remove() -> None:
                doc = state.widget_value(f"{prefix}_remove_doc")
                _try(area, lambda: current().without(doc), apply, f"Removed {doc}.")

            st.button("Remove", key=f"{prefix}_remove", on_click=remove, icon=":material/delete:")
        show_message(area)


def preset_picker(prefix: str) -> None:
    """Load one of the worked examples from the posts (undoable), and show what it teaches. The caption is true of
    the list on screen: an example's notes are shown as they are only while its list is unchanged; once edited, the
    picker says so, the notes are labelled as the original's, and one click brings the original back. When the list
    came from somewhere else (a shared link, a query of a run, an erratum) the picker names that instead."""
    key = f"{prefix}_preset"
    origin = state.origin()
    example = EXAMPLES[state.example_key()]
    edited = origin is None and state.scenario() != Scenario.from_example(example)
    shown = state.sync_widget(key, None if origin or edited else example.key)

    def load() -> None:
        if state.widget_value(key) is not None:
            state.load_example(state.widget_value(key))

    picker_col, lesson_col = st.columns([2, 3], vertical_alignment="bottom")
    with picker_col:
        first_paint.later(
            f"{prefix}_example_picker",
            lambda: st.selectbox(
                "Example",
                list(EXAMPLES),
                key=key,
                index=state.option_index(EXAMPLES, shown),
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
                on_click=state.reset,
                type="tertiary",
            )
    else:
        lesson_col.caption(f"{example.lesson}  \n*Source: {example.source}.*")
