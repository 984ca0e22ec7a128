"""Open one query of a real run in the Playground or on A vs B (the scenarios are ir_metrics_lab.core.drilldown's), and
the pickers and captions around it, used by app_pages/your_data/compare_runs.py and app_pages/your_data/your_data.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ir_metrics_lab.core.drilldown import AB_TOP_N, DEFAULT_K, TOP_N, ab_scenarios, mapping_note, scenario_for_query
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.paths import AB_PAGE, PLAYGROUND_PAGE
from ir_metrics_lab.core.scenario import MAX_DOCS, Scenario
from ir_metrics_lab.session import ab_state, playground_state, widget_state
from ir_metrics_lab.shell.streamlit_internals import StreamlitAPIException
from metrics.catalog.measures import parse_measure
from metrics.core.conventions import TREC_EVAL, Conventions


def open_in_playground(
    run,
    qrels,
    query_id: str,
    top_n: int = TOP_N,
    *,
    k: int = DEFAULT_K,
    conventions: Conventions = TREC_EVAL,
    label: str = "",
) -> None:
    """Load one query of ``run`` (a metrics.io Run) with ``qrels`` (Qrels) into the playground and switch to it.
    The playground's numbers then equal the run's per-query row (k <= top_n; uncut AP and RR at any depth)."""
    qrels_dict = qrels.to_dict()  # every query's grades: the playground's scale follows the collection's top grade
    ranking = {query_id: run.ranking_of(query_id)}  # only this query's rows: to_rankings() costs ~1 s at 7M rows
    scn = scenario_for_query(ranking, qrels_dict, query_id, top_n, k=k, conventions=conventions)
    playground_state.update(scn, new_baseline=True)  # a new list, not an edit: no change badges
    top_grade = max((g for q in qrels_dict.values() for g in q.values()), default=0)
    opened = f"Opened query {query_id}" + (f" of {label}" if label else "") + f": its top {len(scn.ranking)} to drag."
    note = mapping_note(top_grade)
    level = "warning" if note else "success"
    widget_state.set_message(widget_state.OPENED_QUERY_AREA, level, opened + (f" {note}" if note else ""))
    try:
        st.switch_page(PLAYGROUND_PAGE)
    except StreamlitAPIException:  # the page runs on its own, without the app's navigation
        st.success(plain(f"Query {query_id} is loaded into the Playground. Open the Playground page to work with it."))


def open_on_ab(run_a, run_b, qrels, query_id: str, names: tuple[str, str], *, k: int = DEFAULT_K) -> None:
    """Load one query of two runs on the Retriever A vs B page, side by side, and switch to it."""
    a, b = ab_scenarios(run_a, run_b, qrels, query_id, k=k)
    ab_state.load_ab(a, b, query_id, names)
    try:
        st.switch_page(AB_PAGE)
    except StreamlitAPIException:  # the page runs on its own, without the app's navigation
        st.success(plain(f"Query {query_id} is loaded on Retriever A vs B. Open that page to see both rankings."))


def ab_caption() -> str | None:
    """The A vs B page's intro when it shows a query of two runs (Markdown, ids and names escaped), else None."""
    origin = ab_state.ab_origin()
    if origin is None:
        return None
    query_id, name_a, name_b = (plain(part) for part in origin)
    if ab_state.ab_edited("A") or ab_state.ab_edited("B"):
        return (
            f"Query **{query_id}** of your runs: A = **{name_a}**, B = **{name_b}**, opened with each run's real "
            "ranking and edited since, so the numbers are no longer the runs'. Reset brings back the preset example."
        )
    shown = len(ab_state.ab()["A"].ranking)
    return (
        f"Query **{query_id}** of your runs: A = **{name_a}**, B = **{name_b}**, each with its real top {shown} "
        "(the rest of each ranking is kept, hidden, so AP and RR equal the runs' values). Drag either list or change "
        "a grade to explore; Reset brings back the preset example."
    )


def ab_side_caption(side: str) -> str | None:
    """Under each list when it is a run's: whose ranking it is (escaped), else None."""
    origin = ab_state.ab_origin()
    if origin is None:
        return None
    name = origin[1] if side == "A" else origin[2]
    scn = ab_state.ab()[side]
    if ab_state.ab_edited(side):
        return f"{plain(name)}'s ranking for query {plain(origin[0])}, as you edited it."
    return f"{plain(name)}'s ranking for query {plain(origin[0])}, best first." + (
        f" {len(scn.shelf)} relevant document{'s' * (len(scn.shelf) != 1)} it never retrieved "
        f"{'are' if len(scn.shelf) != 1 else 'is'} not shown."
        if scn.shelf
        else ""
    )


def show_opened_message() -> None:
    """On the playground: what was opened (once), with the grade-mapping warning when there is one."""
    message = widget_state.pop_message(widget_state.OPENED_QUERY_AREA)
    if message:
        level, text = message
        (st.warning if level == "warning" else st.success)(plain(text), icon=":material/open_in_new:")


def clip_to_shown(fig, scn: Scenario):
    """Per-rank charts of a scenario with a tail: show the displayed ranks (the rest is a pan/zoom-out away)."""
    if scn.tail:
        fig.update_xaxes(range=[0.5, max(len(scn.ranking), scn.k) + 0.5], autorange=False)
    return fig


def compare_picker(
    prefix: str,
    run_a,
    run_b,
    qrels,
    queries: Sequence[str],
    a_values: Sequence[float],
    b_values: Sequence[float],
    metric: str,
    names: tuple[str, str] = ("A", "B"),
) -> None:
    """Pick a query (largest differences first): open both runs' rankings side by side on Retriever A vs B, or one
    run's in the playground."""
    st.subheader("Open a query", anchor=False)
    if not queries:
        st.caption("No shared queries to open.")
        return
    rows = {q: (a, b) for q, a, b in zip(queries, a_values, b_values, strict=True)}
    ordered = sorted(queries, key=lambda q: (-abs(rows[q][1] - rows[q][0]), q))
    labels = {q: f"{q}: A {rows[q][0]:.4f} → B {rows[q][1]:.4f} ({rows[q][1] - rows[q][0]:+.4f})" for q in ordered}
    query_col, run_col, n_col = st.columns([5, 3, 2], vertical_alignment="bottom")
    query_id = query_col.selectbox(
        f"Query (largest {plain(metric, one_line=True)} difference first)",
        ordered,
        key=f"{prefix}_drill_query",
        format_func=lambda q: labels.get(q, str(q)),
    )
    side = run_col.segmented_control(
        "Run",
        ["A", "B"],
        default="B",
        required=True,
        key=f"{prefix}_drill_side",
        format_func=lambda s: plain(f"{s}: {names[0] if s == 'A' else names[1]}", one_line=True),  # Markdown
    )
    top_n = n_col.number_input("Top N to drag", 1, MAX_DOCS, TOP_N, step=1, key=f"{prefix}_drill_n")
    k = min(parse_measure(metric).k or DEFAULT_K, MAX_DOCS)  # the playground's k stops at MAX_DOCS
    ab_col, playground_col = st.columns(2, vertical_alignment="center")
    if ab_col.button(
        "Open both on Retriever A vs B",
        key=f"{prefix}_drill_ab",
        icon=":material/compare_arrows:",
        type="primary",
        width="stretch",
    ):
        open_on_ab(run_a, run_b, qrels, query_id, names, k=k)
    if playground_col.button(
        "Open in playground", key=f"{prefix}_drill_open", icon=":material/open_in_new:", width="stretch"
    ):
        run = run_a if side == "A" else run_b
        open_in_playground(run, qrels, query_id, int(top_n), k=k, label=names[0] if side == "A" else names[1])
    st.caption(
        f"Retriever A vs B shows both runs' top {min(AB_TOP_N, MAX_DOCS)} side by side, with the explanation of why "
        f"one scores higher. The playground gets the chosen run's top N to drag. Either way the rest of each ranking "
        f"is kept (hidden), so AP, RR and every metric@k with k ≤ N equal this table. Cutoff k = {k}, from "
        f"{plain(metric)}."
    )
