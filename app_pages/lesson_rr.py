"""Lesson: reciprocal rank (RR) and its mean over queries (MRR). Renders metrics.families.reciprocal_rank;
computes nothing."""

from functools import partial

import streamlit as st

from metrics import mean_over_queries, reciprocal_rank
from metrics.teaching.examples import CAT_DOG_PARROT
from ui import charts, drilldown, state, teaching, widgets

PAGE = "lesson_rr"
TOY_LENGTH = 10


def toy_list(first_relevant: int) -> list[str]:
    """Ten documents, only one relevant, placed at the chosen rank."""
    others = [f"n{i}" for i in range(1, TOY_LENGTH)]
    return [*others[: first_relevant - 1], "rel", *others[first_relevant - 1 :]]


TOY_QRELS = {"rel": 1}

st.title("Reciprocal rank (RR) and MRR")
st.markdown(
    "**What it measures:** how soon the *first* relevant document appears. "
    "**Use it when one good answer is enough:** question answering, known-item and navigational search, "
    "a RAG pipeline that needs one supporting passage. It ignores everything after the first hit."
)

scn = state.scenario()

with teaching.step(1, "The formula", "rank₁ is the rank of the first document whose grade reaches the threshold."):
    rr = widgets.breakdown(scn, "RR", None)
    teaching.definition("RR", rr)

with teaching.step(2, "Your list", "The worked formula on the Playground's list, over the whole list and cut at k."):
    teaching.playground_note(scn)
    rr_at_k = widgets.breakdown(scn, "RR", scn.k)
    teaching.metric_row([(rr.metric, rr), (rr_at_k.metric, rr_at_k)])
    left, right = st.columns(2)
    with left:
        teaching.worked(rr)
    with right:
        teaching.worked(rr_at_k)
    teaching.chart(
        drilldown.clip_to_shown(charts.contributions(rr, titles=scn.titles), scn), key=f"{PAGE}_contributions"
    )
    st.caption("Only one bar can be non-zero: the first relevant document takes all the credit.")

with teaching.step(3, "Move the first relevant document", "A ten-document list with one relevant document."):
    first = st.slider("Rank of the relevant document", 1, TOY_LENGTH, 3, key=f"{PAGE}_rank")
    moved = reciprocal_rank(toy_list(first), TOY_QRELS)
    teaching.worked(moved)
    drop = {"RR": [reciprocal_rank(toy_list(r), TOY_QRELS).value for r in range(1, TOY_LENGTH + 1)]}
    teaching.chart(
        charts.curves(drop, first, x_title="rank of the first relevant document", mark=f"rank {first}"),
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

teaching.traps(
    [
        "**The word *relevant* matters.** *IR Metrics 102* defines RR as the reciprocal rank of the first document "
        "*in the retrieved set*: that would always be 1. It is the first **relevant** document.",
        "**MRR@k is not MRR.** A first hit beyond k scores 0: the *Metrics for IR* post's 0.78 for MRR@2 "
        "should be 0.6667.",
        "**RR ignores everything after the first hit.** Two lists with the first hit at rank 1 score 1.0 each, "
        "even if one has nine more relevant documents and the other none.",
        "**trec_eval's `recip_rank` has no cutoff.** RR@k equals `recip_rank` on the run truncated to its top k.",
        "**Ties.** trec_eval orders tied scores by doc id descending, and other tools differ, so a tie at the top "
        "can change RR from 1 to 0.5 between tools.",
    ]
)
teaching.naming(
    "Naming: RR is one query's score; MRR (mean reciprocal rank) is its mean over queries. "
    "trec_eval calls RR `recip_rank`, ranx `mrr`, ir_measures `RR` (alias `MRR`)."
)
teaching.show_source(reciprocal_rank)
