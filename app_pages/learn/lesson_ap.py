"""Lesson: average precision (AP, AP@k) and MAP. Renders metrics.families.average_precision; computes nothing."""

from functools import partial

import pandas as pd
import streamlit as st

from ir_metrics_lab.core.figures import rank_charts
from ir_metrics_lab.core.lessons.lesson_text import LESSONS
from ir_metrics_lab.parts import notebook_button, scenario_numbers, teaching
from ir_metrics_lab.session import playground_state
from ir_metrics_lab.shell import first_paint
from metrics import Conventions, average_precision, mean_over_queries, precision
from metrics.teaching.examples import CAT_DOG_PARROT

LESSON = LESSONS["ap"]  # the title, introduction, traps and naming the notebook shares
PAGE = "lesson_ap"
RETRIEVED_ONLY = Conventions(ap_denominator="retrieved")


def toy_list(relevant_judged: int) -> tuple[list[str], dict[str, int]]:
    """The example of docs/conventions.md §3.7: relevant at ranks 1, 3, 4 of [r0, n1, r1, r2, n2, ...]; R documents
    judged relevant."""
    ranking = ["r0", "n1", "r1", "r2", "n2", "n3", "r3", "n4", "n5", "r4"]
    return ranking, {f"r{i}": 1 for i in range(relevant_judged)}


st.title(LESSON.title)
st.markdown(LESSON.intro)

scn = playground_state.scenario()

with teaching.step(1, "The formula", "P@i is the precision at rank i; R counts every relevant judged document."):
    ap = scenario_numbers.breakdown(scn, "AP", None)
    teaching.definition("AP", ap)

with teaching.step(2, "Your list", "Each relevant rank adds its precision, divided by R."):
    teaching.playground_note(scn)
    ap_k = scenario_numbers.breakdown(scn, "AP", scn.k)
    teaching.metric_row([(ap.metric, ap), (ap_k.metric, ap_k)])
    first_paint.rest_next_run()  # the rest below the numbers comes with the next run (ir_metrics_lab.shell.first_paint)
    teaching.worked(ap_k)
    teaching.chart(rank_charts.contributions(ap_k, titles=scn.titles), key=f"{PAGE}_contributions")
    with st.expander("Per-rank table"):
        teaching.steps_table(ap_k, scn)

with teaching.step(
    3,
    "AP@k still divides by R",
    "Ten documents; the relevant ones retrieved are at ranks 1, 3, 4, 7 and 10. Judge more relevant documents "
    "that the system never retrieved, and cut at k.",
):
    left, right = st.columns(2)
    judged = left.number_input("Relevant documents judged (R)", 5, 30, 10, key=f"{PAGE}_R")
    k = right.slider("Cutoff k", 1, 10, 3, key=f"{PAGE}_k")
    ranking, qrels = toy_list(int(judged))
    by_R = average_precision(ranking, qrels, k)
    by_retrieved = average_precision(ranking, qrels, k, conventions=RETRIEVED_ONLY)
    left, right = st.columns(2)
    with left:
        st.markdown("**trec_eval, ranx: divide by R**")
        st.metric(by_R.metric, teaching.fmt(by_R.value), border=True)
        teaching.worked(by_R)
    with right:
        st.markdown("**RAGAS-style context precision: divide by the hits**")
        st.metric(by_retrieved.metric, teaching.fmt(by_retrieved.value), border=True)
        teaching.worked(by_retrieved)
    st.caption(
        "Dividing by the relevant documents *retrieved* rewards retrieving little: a system that returns one "
        "relevant document at rank 1 and nothing else scores 1.0 on the right, but 1/R on the left."
    )

with teaching.step(
    4,
    "MAP@k is the mean of AP@k",
    "The three queries of the *Metrics for IR* post at k = 2. That post computed the mean of P@2 and called it MAP@2.",
):
    run = {q: list(query.ranking) for q, query in CAT_DOG_PARROT.queries.items()}
    qrels_by_query = {q: dict(query.qrels) for q, query in CAT_DOG_PARROT.queries.items()}
    cutoff = st.slider("k", 1, 4, 2, key=f"{PAGE}_map_k")
    map_k = mean_over_queries(partial(average_precision, k=cutoff), run, qrels_by_query)
    mean_p = mean_over_queries(partial(precision, k=cutoff), run, qrels_by_query)
    frame = pd.DataFrame(
        {
            "query": list(map_k.per_query),
            "text": [CAT_DOG_PARROT.queries[q].text for q in map_k.per_query],
            f"AP@{cutoff}": list(map_k.per_query.values()),
            f"P@{cutoff}": list(mean_p.per_query.values()),
        }
    )
    left, right = st.columns([3, 2])
    left.dataframe(
        frame,
        hide_index=True,
        width="stretch",
        column_config={c: st.column_config.NumberColumn(format="%.4f") for c in (f"AP@{cutoff}", f"P@{cutoff}")},
    )
    right.metric(f"MAP@{cutoff} (mean of AP@{cutoff})", teaching.fmt(map_k.mean), border=True)
    right.metric(f"mean P@{cutoff} (not MAP)", teaching.fmt(mean_p.mean), border=True)
    st.caption(
        "At k = 2 both happen to be 0.6667 (the *Metrics for IR* post printed 0.5 for either). Move k: they part ways."
    )

notebook_button.lesson(LESSON.key, scn)  # this lesson's teaching notebook, on this list
teaching.traps(LESSON.traps)
teaching.naming(LESSON.naming)
teaching.show_source(average_precision)
