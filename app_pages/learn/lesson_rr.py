"""Lesson: reciprocal rank (RR) and its mean over queries (MRR). Renders metrics.families.reciprocal_rank;
computes nothing."""

from functools import partial

import streamlit as st

from ir_metrics_lab.core.figures import curve_charts, rank_charts
from ir_metrics_lab.core.lessons.lesson_text import LESSONS
from ir_metrics_lab.parts import notebook_button, scenario_numbers, teaching
from ir_metrics_lab.session import drilldown, playground_state
from ir_metrics_lab.shell import first_paint
from metrics import mean_over_queries, reciprocal_rank
from metrics.teaching.examples import CAT_DOG_PARROT

LESSON = LESSONS["rr"]  # the title, introduction, traps and naming the notebook shares
PAGE = "lesson_rr"
TOY_LENGTH = 10


def toy_list(first_relevant: int) -> list[str]:
    """Ten documents, only one relevant, placed at the chosen rank."""
    others = [f"n{i}" for i in range(1, TOY_LENGTH)]
    return [*others[: first_relevant - 1], "rel", *others[first_relevant - 1 :]]


TOY_QRELS = {"rel": 1}

st.title(LESSON.title)
st.markdown(LESSON.intro)

scn = playground_state.scenario()

with teaching.step(1, "The formula", "rank₁ is the rank of the first document whose grade reaches the threshold."):
    rr = scenario_numbers.breakdown(scn, "RR", None)
    teaching.definition("RR", rr)

with teaching.step(2, "Your list", "The worked formula on the Playground's list, over the whole list and cut at k."):
    teaching.playground_note(scn)
    rr_at_k = scenario_numbers.breakdown(scn, "RR", scn.k)
    teaching.metric_row([(rr.metric, rr), (rr_at_k.metric, rr_at_k)])
    first_paint.rest_next_run()  # the rest below the numbers comes with the next run (ir_metrics_lab.shell.first_paint)
    left, right = st.columns(2)
    with left:
        teaching.worked(rr)
    with right:
        teaching.worked(rr_at_k)
    teaching.chart(
        drilldown.clip_to_shown(rank_charts.contributions(rr, titles=scn.titles), scn), key=f"{PAGE}_contributions"
    )
    st.caption("Only one bar can be non-zero: the first relevant document takes all the credit.")

with teaching.step(3, "Move the first relevant document", "A ten-document list with one relevant document."):
    first = st.slider("Rank of the relevant document", 1, TOY_LENGTH, 3, key=f"{PAGE}_rank")
    moved = reciprocal_rank(toy_list(first), TOY_QRELS)
    teaching.worked(moved)
    drop = {"RR": [reciprocal_rank(toy_list(r), TOY_QRELS).value for r in range(1, TOY_LENGTH + 1)]}
    teaching.chart(
        curve_charts.curves(drop, first, x_title="rank of the first relevant document", mark=f"rank {first}"),
        key=f"{PAGE}_drop",
    )
    st.caption(
        "RR falls fast, then flattens: rank 1 → 1, rank 2 → 0.5, rank 10 → 0.1. Moving from 1 to 2 costs "
        "as much as moving from 2 to infinity."
    )

with teaching.step(
    4,
    "MRR: the mean over queries, and the cutoff",
    "The *Metrics for IR* post's three queries (cat, dog, parrot): Q3's first relevant document is at rank 3.",
):
    cut = st.toggle("Apply the cutoff k = 2 (MRR@2)", value=True, key=f"{PAGE}_cut")
    k = 2 if cut else None
    run = {q: list(query.ranking) for q, query in CAT_DOG_PARROT.queries.items()}
    qrels = {q: dict(query.qrels) for q, query in CAT_DOG_PARROT.queries.items()}
    result = mean_over_queries(partial(reciprocal_rank, k=k), run, qrels)
    label = "MRR@2" if cut else "MRR"
    columns = st.columns(len(result.per_query) + 1)
    for column, (query, value) in zip(columns, result.per_query.items(), strict=False):
        column.metric(f"RR{'@2' if cut else ''} of {query}", teaching.fmt(value), border=True)
    columns[-1].metric(label, teaching.fmt(result.mean), border=True)
    st.caption(
        "With the cutoff, Q3 scores 0 (its hit is at rank 3 > 2), so MRR@2 = 0.6667. The *Metrics for IR* "
        "post printed 0.78 for "
        "MRR@2: that is the uncut MRR, 0.7778."
    )

notebook_button.lesson(LESSON.key, scn)  # this lesson's teaching notebook, on this list
teaching.traps(LESSON.traps)
teaching.naming(LESSON.naming)
teaching.show_source(reciprocal_rank)
