"""Open one query of a real run in the playground: its top N on the list, the rest kept as a hidden tail (so every
metric, uncut AP and RR included, equals the run's per-query row), its judged-but-not-retrieved docs on the shelf.

``scenario_for_query`` is pure (tested against metrics.evaluation.engine); ``open_in_playground`` and ``compare_picker``
are the Streamlit side, used by app_pages/compare_runs.py and app_pages/your_data.py.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

import streamlit as st
from streamlit.errors import StreamlitAPIException

from lab_core.markdown import plain
from lab_core.scenario import MAX_DOCS, SCALES, Scenario
from metrics.catalog.measures import parse_measure
from metrics.core.conventions import TREC_EVAL, Conventions
from ui import state
from ui.paths import PAGES_DIR

PLAYGROUND = PAGES_DIR / "playground.py"  # absolute: works whatever the entrypoint
AB_PAGE = PAGES_DIR / "ab.py"
TOP_N = 20
AB_TOP_N = 10  # two lists side by side: ten cards each fit beside each other
DEFAULT_K = 10
_NOTE_AREA = "pg_drilldown"  # the playground shows this message once, after the switch


def grade_mapping(max_grade: int) -> tuple[int, int | None]:
    """(playground scale, the top grade to map from, or None when grades are kept as they are).

    Grades up to 4 are kept and the scale is the smallest playground scale that holds them (0-1, 0-3 or 0-4).
    Above 4 (some qrels grade 0-10), grade g > 0 becomes ceil(4 g / top): order is kept and every positive grade
    stays positive, so binary metrics (P, R, AP, RR, HitRate, F1 at threshold 1) are unchanged; gains, hence
    DCG and NDCG, are not, and the playground says so.
    """
    if max_grade <= max(SCALES):
        return min(s for s in SCALES if s >= max(max_grade, 1)), None
    return max(SCALES), max_grade


def _mapped(grade: int, top: int | None) -> int:
    grade = max(grade, 0)  # negative grades (TREC's -1, -2) count as 0 in every measure, as in trec_eval
    return grade if top is None or grade == 0 else math.ceil(max(SCALES) * grade / top)


def scenario_for_query(
    rankings: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, int]],
    query_id: str,
    top_n: int = TOP_N,
    *,
    k: int = DEFAULT_K,
    conventions: Conventions = TREC_EVAL,
) -> Scenario:
    """The playground scenario of one query: the run's top ``top_n`` to drag, the rest as ``tail``, and the docs
    judged relevant (grade > 0) that the run never retrieved on the shelf. Retrieved docs with no qrels line are
    unjudged. Judged non-relevant docs that were not retrieved are left out: they change no metric but bpref, whose
    N counts them. The scale covers the collection's top grade (see grade_mapping).
    """
    if not 1 <= top_n <= MAX_DOCS:
        raise ValueError(f"top N must be between 1 and {MAX_DOCS}, got {top_n}")
    ranking = list(rankings.get(query_id, ()))
    judged = qrels.get(query_id, {})
    top_grade = max((g for q in qrels.values() for g in q.values()), default=0)
    scale, mapped_from = grade_mapping(top_grade)
    retrieved = set(ranking)
    shelf = sorted((d for d, g in judged.items() if g > 0 and d not in retrieved), key=lambda d: (-judged[d], d))
    shown, tail = ranking[:top_n], ranking[top_n:]
    grades = {d: _mapped(judged.get(d, 0), mapped_from) for d in (*shown, *shelf)}
    grades.update({d: _mapped(judged[d], mapped_from) for d in tail if judged.get(d, 0) > 0})
    threshold = min(conventions.threshold, scale)
    conventions = dataclasses.replace(conventions, threshold=threshold)  # the threshold widget offers 1..scale
    scn = Scenario(tuple(shown), tuple(shelf), grades, {}, k=k, conventions=conventions, scale=scale, tail=tuple(tail))
    return scn.with_unjudged(d for d in ranking if d not in judged)  # no qrels line: Judged@k, infAP tell them apart


def tail_note(scn: Scenario) -> str | None:
    """One line of Markdown for under the playground's list (st.caption) when a hidden tail is kept, else None."""
    if not scn.tail:
        return None
    first, last = len(scn.ranking) + 1, len(scn.ranking) + len(scn.tail)
    relevant = sum(scn.grades.get(d, 0) >= scn.conventions.threshold for d in scn.tail)
    more = "1 more retrieved document" if len(scn.tail) == 1 else f"{len(scn.tail):,} more retrieved documents"
    ranks = f"rank {first}" if first == last else f"ranks {first}–{last}"
    return (
        f"\\+ {more} ({ranks}) {'is' if len(scn.tail) == 1 else 'are'} kept for the metric values; "
        f"{relevant} of them {'is' if relevant == 1 else 'are'} relevant. They cannot be dragged."
    )


def mapping_note(top_grade: int) -> str | None:
    scale, mapped_from = grade_mapping(top_grade)
    if mapped_from is None:
        return None
    return (
        f"Grades in these qrels go up to {mapped_from}; the playground's scale stops at {scale}, so each grade g > 0 "
        f"is shown as ⌈{scale}·g/{mapped_from}⌉. Relevant stays relevant (P, R, AP, RR match the table), but DCG and "
        "NDCG use the mapped gains and differ from it."
    )


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
    state.update(scn, new_baseline=True)  # a new list, not an edit: no change badges
    top_grade = max((g for q in qrels_dict.values() for g in q.values()), default=0)
    opened = f"Opened query {query_id}" + (f" of {label}" if label else "") + f": its top {len(scn.ranking)} to drag."
    note = mapping_note(top_grade)
    state.set_message(_NOTE_AREA, "warning" if note else "success", opened + (f" {note}" if note else ""))
    try:
        st.switch_page(PLAYGROUND)
    except StreamlitAPIException:  # the page runs on its own, without the app's navigation
        st.success(plain(f"Query {query_id} is loaded into the Playground. Open the Playground page to work with it."))


def ab_scenarios(
    run_a, run_b, qrels, query_id: str, top_n: int = AB_TOP_N, *, k: int = DEFAULT_K
) -> tuple[Scenario, Scenario]:
    """One query of two runs (metrics.io Runs) as the A vs B page's two lists: each run's real top ``top_n`` with
    its hidden tail, so each side's metrics equal that run's per-query row (k <= top_n; uncut AP and RR too)."""
    qrels_dict = qrels.to_dict()
    scenarios = []
    for run in (run_a, run_b):
        ranking = {query_id: run.ranking_of(query_id)}
        scenarios.append(scenario_for_query(ranking, qrels_dict, query_id, top_n, k=min(k, top_n)))
    return scenarios[0], scenarios[1]


def open_on_ab(run_a, run_b, qrels, query_id: str, names: tuple[str, str], *, k: int = DEFAULT_K) -> None:
    """Load one query of two runs on the Retriever A vs B page, side by side, and switch to it."""
    a, b = ab_scenarios(run_a, run_b, qrels, query_id, k=k)
    state.load_ab(a, b, query_id, names)
    try:
        st.switch_page(AB_PAGE)
    except StreamlitAPIException:  # the page runs on its own, without the app's navigation
        st.success(plain(f"Query {query_id} is loaded on Retriever A vs B. Open that page to see both rankings."))


def ab_caption() -> str | None:
    """The A vs B page's intro when it shows a query of two runs (Markdown, ids and names escaped), else None."""
    origin = state.ab_origin()
    if origin is None:
        return None
    query_id, name_a, name_b = (plain(part) for part in origin)
    if state.ab_edited("A") or state.ab_edited("B"):
        return (
            f"Query **{query_id}** of your runs: A = **{name_a}**, B = **{name_b}**, opened with each run's real "
            "ranking and edited since, so the numbers are no longer the runs'. Reset brings back the preset example."
        )
    shown = len(state.ab()["A"].ranking)
    return (
        f"Query **{query_id}** of your runs: A = **{name_a}**, B = **{name_b}**, each with its real top {shown} "
        "(the rest of each ranking is kept, hidden, so AP and RR equal the runs' values). Drag either list or change "
        "a grade to explore; Reset brings back the preset example."
    )


def ab_side_caption(side: str) -> str | None:
    """Under each list when it is a run's: whose ranking it is (escaped), else None."""
    origin = state.ab_origin()
    if origin is None:
        return None
    name = origin[1] if side == "A" else origin[2]
    scn = state.ab()[side]
    if state.ab_edited(side):
        return f"{plain(name)}'s ranking for query {plain(origin[0])}, as you edited it."
    return f"{plain(name)}'s ranking for query {plain(origin[0])}, best first." + (
        f" {len(scn.shelf)} relevant document{'s' * (len(scn.shelf) != 1)} it never retrieved "
        f"{'are' if len(scn.shelf) != 1 else 'is'} not shown."
        if scn.shelf
        else ""
    )


def show_opened_message() -> None:
    """On the playground: what was opened (once), with the grade-mapping warning when there is one."""
    message = state.pop_message(_NOTE_AREA)
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
