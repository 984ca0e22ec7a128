"""Many queries: per-query scores and their means (MRR, MAP, mean NDCG, mean P), and which queries count.

Canonical queries live in ir_metrics_lab.session.multi_query_state (queries(), set_query()); the demo queries that
show trec_eval's counting rule are page-local widget toggles. Every number comes from metrics (mean_over_queries), and
which queries count and why from metrics.evaluation.aggregate.query_statuses."""

import hashlib

import pandas as pd
import streamlit as st

from ir_metrics_lab.core import numbers, words
from ir_metrics_lab.core.exports import notebooks
from ir_metrics_lab.core.figures import query_charts
from ir_metrics_lab.core.scenario import Scenario
from ir_metrics_lab.parts import notebook_button, teaching
from ir_metrics_lab.session import multi_query_state, widget_state
from ir_metrics_lab.shell import first_paint
from metrics import mean_over_queries
from metrics.evaluation.aggregate import query_statuses
from metrics.teaching.examples import CAT_DOG_PARROT

try:  # H4's drag-and-drop list; the move and grade controls below work without it
    from ir_metrics_lab.parts.sortable import consume, ranked_list
except ImportError:  # pragma: no cover - depends on another engineer's module
    consume = ranked_list = None
HAS_DRAG = ranked_list is not None

PAGE = "multi_query"
# The height of the controls, which a new visitor's first run leaves for the next
# (ir_metrics_lab.shell.first_paint.later), measured in Chromium.
CONTROLS_ROOM = first_paint.Room(wide=68, phone=228, presenter=89)
DOCS = ("D1", "D2", "D3", "D4")
# Demo queries for trec_eval's counting rule: (run, qrels, what it shows). None means "absent from that side".
DEMOS = {
    "unjudged": ("Q-unjudged", list(DOCS), {}, "a query with no judgments at all"),
    "zeros": ("Q-zeros", list(DOCS), dict.fromkeys(DOCS, 0), "a query whose judgments are all grade 0"),
    "missed": ("Q-missed", None, {"D2": 1}, "a judged query the run has no results for"),
}
WHY = numbers.QUERY_STATUS_WORDS


families = numbers.query_set_families  # the means the cards show (the notebook computes the same)


def set_k() -> None:
    """k is shared by every query, so each ranked list draws its cutoff line where the means cut."""
    k = int(widget_state.widget_value(f"{PAGE}_k"))
    for query_id, scn in list(multi_query_state.queries().items()):
        multi_query_state.set_query(query_id, scn.with_settings(k=k))


def new_query_id(existing) -> str:
    n = len(existing) + 1
    while f"Q{n}" in existing:
        n += 1
    return f"Q{n}"


def add_query() -> None:
    queries = multi_query_state.queries()
    query_id = new_query_id(queries)
    k = int(widget_state.widget_value(f"{PAGE}_k", 2))
    blank = Scenario(DOCS, grades=dict.fromkeys(DOCS, 0), titles=dict(CAT_DOG_PARROT.titles), k=k, scale=1)
    multi_query_state.add_query(query_id, blank, "new query")


def move(query_id: str) -> None:
    doc = widget_state.widget_value(f"{PAGE}_{query_id}_move_doc")
    rank = int(widget_state.widget_value(f"{PAGE}_{query_id}_move_rank"))
    multi_query_state.set_query(query_id, multi_query_state.queries()[query_id].moved(doc, rank))


def editor_key(query_id: str, scn: Scenario) -> str:
    """A fresh key whenever the query changes, so the grade editor never replays edits onto a new table."""
    digest = hashlib.sha1(repr((scn.ranking, sorted(scn.grades.items()))).encode()).hexdigest()[:10]
    return f"{PAGE}_{query_id}_grades_{digest}"


def apply_grades(query_id: str, key: str, docs: list[str]) -> None:
    scn = multi_query_state.queries()[query_id]
    for row, change in widget_state.widget_value(key, {}).get("edited_rows", {}).items():
        grade = change.get("grade")
        if isinstance(grade, int | float) and 0 <= grade <= scn.scale and int(grade) == grade:
            scn = scn.with_grade(docs[int(row)], int(grade))
    multi_query_state.set_query(query_id, scn)


def query_editor(query_id: str) -> None:
    scn = multi_query_state.queries()[query_id]
    text_key = f"{PAGE}_{query_id}_text"
    text = widget_state.sync_widget(text_key, multi_query_state.query_texts().get(query_id, ""))
    st.text_input(
        "Query text",
        value=text,
        key=text_key,
        on_change=lambda: multi_query_state.set_query_text(query_id, str(widget_state.widget_value(text_key) or "")),
    )
    if HAS_DRAG:
        ranked_list(
            f"{PAGE}_{query_id}_list",
            lambda: multi_query_state.queries()[query_id],
            lambda new: multi_query_state.set_query(query_id, new),
            label=f"Ranked list of {query_id}",
            shelve=False,
        )
    with st.expander("Move or grade without dragging") if HAS_DRAG else st.container():
        if scn.ranking:
            doc_col, rank_col, button_col = st.columns([4, 2, 2], vertical_alignment="bottom")
            doc_col.selectbox(
                "Move document",
                list(scn.ranking),
                key=f"{PAGE}_{query_id}_move_doc",
                format_func=lambda d: f"{d} — {scn.title(d)}" if scn.title(d) else d,
            )
            rank_col.number_input("to rank", 1, len(scn.ranking), 1, key=f"{PAGE}_{query_id}_move_rank")
            button_col.button(
                "Move", key=f"{PAGE}_{query_id}_move", on_click=move, args=(query_id,), icon=":material/swap_vert:"
            )
        docs = list(scn.docs)
        frame = pd.DataFrame(
            {
                "rank": [scn.ranking.index(d) + 1 if d in scn.ranking else None for d in docs],
                "doc": docs,
                "title": [scn.title(d) for d in docs],
                "grade": [scn.grades.get(d, 0) for d in docs],
            }
        )
        key = editor_key(query_id, scn)
        st.data_editor(
            frame,
            key=key,
            hide_index=True,
            width="stretch",
            disabled=["rank", "doc", "title"],
            column_config={
                "grade": st.column_config.NumberColumn("grade", min_value=0, max_value=scn.scale, step=1),
                "rank": st.column_config.NumberColumn("rank", help="Empty: judged but not retrieved"),
            },
            on_change=apply_grades,
            args=(query_id, key, docs),
        )
        st.caption(f"Edit a grade (0 to {scn.scale}) in the table; relevant means grade ≥ {scn.conventions.threshold}.")


st.title("Many queries: MRR, MAP and mean NDCG")
st.markdown(
    "A system is judged over many queries: each query gets its own score, and the reported number is their plain "
    "mean. **Edit one query below and watch its bar and every mean move.** The preset is the three queries of "
    "the *Metrics for IR* post "
    "(cat, dog, parrot), every one ranking D1-D4."
)

if HAS_DRAG:  # a drop is applied before the means are computed (the list itself is drawn further down)
    for query_id in list(multi_query_state.queries()):
        consume(
            f"{PAGE}_{query_id}_list",
            lambda q=query_id: multi_query_state.queries()[q],
            lambda new, q=query_id: multi_query_state.set_query(q, new),
        )
queries = multi_query_state.queries()
first_k = next(iter(queries.values())).k if queries else 2


def controls() -> None:
    top_left, top_mid, top_right = st.columns([2, 3, 4], vertical_alignment="bottom")
    top_left.number_input("Cutoff k", 1, 20, first_k, key=f"{PAGE}_k", on_change=set_k)
    top_mid.toggle("Missing queries count as 0 (-c)", key=f"{PAGE}_complete")
    with top_right:
        add_col, reset_col = st.columns(2)
        add_col.button("Add a query", key=f"{PAGE}_add", on_click=add_query, icon=":material/add:", width="stretch")
        reset_col.button(
            "Reset to the preset",
            key=f"{PAGE}_reset",
            on_click=multi_query_state.reset_queries,
            icon=":material/restart_alt:",
            width="stretch",
        )


def edge_cases() -> None:
    with st.expander("Which queries count? Add the edge cases", icon=":material/rule:"):
        st.markdown(
            "trec_eval averages over the queries that are **in the run and have at least one judgment**. A query "
            "with judgments but no relevant document counts, and scores 0. A query with no judgments does not exist "
            "for trec_eval. With `-c`, a judged query missing from the run counts as 0."
        )
        for col, (name, (*_, desc)) in zip(st.columns(len(DEMOS)), DEMOS.items(), strict=True):
            col.toggle(f"Add {desc}", key=f"{PAGE}_demo_{name}")


# The means paint first: the controls wait for the second run in rooms of their height
# (ir_metrics_lab.shell.first_paint.later), and until they are drawn their values are the ones they will show.
first_paint.later(f"{PAGE}_controls", controls, CONTROLS_ROOM)
first_paint.later(f"{PAGE}_edge_cases", edge_cases, first_paint.CLOSED_EXPANDER)
k = widget_state.widget_value(f"{PAGE}_k", first_k)
complete = bool(widget_state.widget_value(f"{PAGE}_complete", False))
shown = {name: bool(widget_state.widget_value(f"{PAGE}_demo_{name}", False)) for name in DEMOS}

run = {q: list(scn.full_ranking) for q, scn in queries.items() if scn.full_ranking}
qrels = {q: scn.qrels for q, scn in queries.items()}
for name, (query_id, demo_run, demo_qrels, _) in DEMOS.items():
    if shown[name]:
        if demo_run is not None:
            run[query_id] = demo_run
        qrels[query_id] = demo_qrels
k = int(k)
results = {label: mean_over_queries(fn, run, qrels, complete=complete) for label, (_, fn) in families(k).items()}

st.subheader("The means", anchor=False)
cards = st.columns(len(results))
for card, (label, result) in zip(cards, results.items(), strict=True):
    over = words.count(len(result.per_query), "query")
    card.metric(label, teaching.fmt(result.mean), border=True, help=f"over {over}")
st.caption("Uncut MRR vs MRR@k: a first hit beyond k counts 0 in MRR@k. MAP@k is the mean of AP@k (not of P@k).")


def per_query_and_editors() -> None:
    chart_col, table_col = st.columns([3, 2])
    with chart_col:
        picked = st.segmented_control("Per-query bars", list(results), default=f"MAP@{k}", key=f"{PAGE}_metric")
        choice = picked or f"MAP@{k}"
        chosen = results[choice]
        teaching.chart(query_charts.per_query_bars(dict(chosen.per_query), chosen.mean, choice), key=f"{PAGE}_bars")
    with table_col:
        per_query = families(k)[f"MAP@{k}"]
        rows = [
            {
                "query": status.query,
                "counts": status.counts,
                "why": WHY[status.reason],
                per_query[0]: results[f"MAP@{k}"].per_query.get(status.query),
            }
            for status in query_statuses(run, qrels, complete=complete)
        ]
        st.dataframe(
            pd.DataFrame(rows),
            hide_index=True,
            width="stretch",
            column_config={f"AP@{k}": st.column_config.NumberColumn(format="%.4f")},
        )
    notebook_button.button(
        notebooks.multi_query(queries, run, qrels, k, complete=complete, bars_of=choice),
        "ir-metrics-many-queries.ipynb",
        f"{PAGE}_notebook",
    )

    st.subheader("Edit the queries", anchor=False)
    if queries:
        tabs = st.tabs(list(queries))
        for tab, query_id in zip(tabs, list(queries), strict=True):
            with tab:
                query_editor(query_id)
                if len(queries) > 1:
                    st.button(
                        f"Remove {query_id}",
                        key=f"{PAGE}_{query_id}_remove",
                        on_click=multi_query_state.remove_query,
                        args=(query_id,),
                        icon=":material/delete:",
                    )
    else:
        st.info("No queries left. Add one, or reset to the preset.")

    teaching.naming(
        "Naming: MRR, MAP and mean NDCG are means over queries of RR, AP and NDCG. Tools disagree on which queries "
        "count: ranx scores a query with no judgments as 0 (trec_eval skips it), and BEIR divides R_cap and MRR by "
        "the number of judged queries even when the run misses some."
    )
    teaching.show_source(mean_over_queries)


# the page's end: nothing moves when it arrives
first_paint.later(f"{PAGE}_per_query", per_query_and_editors)
