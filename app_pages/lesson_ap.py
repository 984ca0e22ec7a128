"""Lesson: average precision (AP, AP@k) and MAP. Renders metrics.families.average_precision; computes nothing."""

from functools import partial

import pandas as pd
import streamlit as st

from metrics import Conventions, average_precision, mean_over_queries, precision
from metrics.teaching.examples import CAT_DOG_PARROT
from ui import charts, state, teaching, widgets

PAGE = "lesson_ap"
RETRIEVED_ONLY = Conventions(ap_denominator="retrieved")


def toy_list(relevant_judged: int) -> tuple[list[str], dict[str, int]]:
    """The example of docs/conventions.md §3.7: relevant at ranks 1, 3, 4 of [r0, n1, r1, r2, n2, ...]; R documents
    judged relevant."""
    ranking = ["r0", "n1", "r1", "r2", "n2", "n3", "r3", "n4", "n5", "r4"]
    return ranking, {f"r{i}": 1 for i in range(relevant_judged)}


st.title("Average precision (AP) and MAP")
st.markdown(
    "**What it measures:** precision at the rank of every relevant document, averaged over *all* relevant "
    "documents. It rewards finding every relevant document and finding them early. **Use it when** the reader "
    "wants all the relevant documents (search for a literature review, legal discovery, a RAG context that should "
    "hold every supporting passage) and the grades are binary."
)

scn = state.scenario()

with teaching.step(1, "The formula", "P@i is the precision at rank i; R counts every relevant judged document."):
    ap = widgets.breakdown(scn, "AP", None)
    teaching.definition("AP", ap)

with teaching.step(2, "Your list", "Each relevant rank adds its precision, divided by R."):
    teaching.playground_note(scn)
    ap_k = widgets.breakdown(scn, "AP", scn.k)
    teaching.metric_row([(ap.metric, ap), (ap_k.metric, ap_k)])
    teaching.worked(ap_k)
    teaching.chart(charts.contributions(ap_k, titles=scn.titles), key=f"{PAGE}_contributions")
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

teaching.traps(
    [
        "**AP@k divides by R, not min(R, k).** With R = 10 relevant and hits at ranks 1 and 3 of the top 3, "
        "AP@3 = (1 + 2/3) / 10 = 0.1667, not 0.5556 (÷ 3) and not 0.8333 (÷ 2 hits). trec_eval `map_cut_3` "
        "and ranx `map@3` agree on 0.1667.",
        "**R counts relevant documents never retrieved.** Each one adds a precision of 0 to the sum: AP can only "
        "reach 1 when every relevant document is ranked above every non-relevant one.",
        "**The code in *IR Metrics 102* divides by every judged document** (`len(ground_truth)`, grade 0 "
        "included) and counts "
        "judged non-relevant documents as hits: its example gives 0.6875 or 0.25 where trec_eval gives 0.3333.",
        "**R = 0 gives 0, not NaN**, and the query still counts in MAP.",
        "**Grades are binarised** at the threshold (grade ≥ 1 by default): AP cannot tell a grade-3 document "
        "from a grade-1 one. Use NDCG for graded relevance.",
    ]
)
teaching.naming(
    "Naming: MAP@k is the mean of AP@k over queries (trec_eval `map_cut_k`, BEIR's MAP@k), "
    "not the mean of P@k, which the *Metrics for IR* post used. RAGAS and DeepEval's *context precision* "
    "divides by the relevant "
    "documents retrieved, so it is not AP."
)
teaching.show_source(average_precision)
