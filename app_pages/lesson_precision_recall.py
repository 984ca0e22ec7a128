"""Lesson: P@k, R@k, R_cap@k, HitRate@k and F1@k. Renders metrics.families.precision, recall,
capped_recall, hit_rate and f1; computes nothing."""

import streamlit as st

from lab_core import family_display
from metrics import capped_recall, precision, recall
from metrics.catalog import registry
from metrics.teaching.sweep import at_each_cutoff
from ui import charts, state, teaching

PAGE = "lesson_pr"
FAMILIES = {key: registry.family(key).function for key in family_display.cards("set")}
# The capped-recall example of Metrics for IR: ten results, relevant at ranks 1, 2, 3, 6, 7, 8 and 10.
RCAP_RANKING = ["r1", "r2", "r3", "n1", "n2", "r4", "r5", "r6", "n3", "r7"]

st.title("Precision, recall, hit rate and F1 at k")
st.markdown(
    "**What they measure:** how many relevant documents are in the top k, ignoring their order. "
    "Each counts the same hits@k and divides by something different. **Use them when** the reader looks at a "
    "fixed number of results as a set: a RAG prompt with k passages, a page of ten links."
)

scn = state.scenario()
ranking, qrels, conventions = list(scn.full_ranking), scn.qrels, scn.conventions

with teaching.step(1, "The formulas", f"hits@k counts documents in the top k with grade ≥ {conventions.threshold}."):
    sample = precision(ranking, qrels, scn.k, conventions=conventions)
    left, right = st.columns(2)
    for i, family in enumerate(FAMILIES):
        with left if i % 2 == 0 else right:
            teaching.definition(family, sample)

with teaching.step(2, "Your list at k", "Move k and watch the five numbers; the curves show every k at once."):
    teaching.playground_note(scn)
    n = max(len(scn.ranking), 1)  # the ranks on screen; a hidden tail still counts in every value
    top = max(n, scn.k, 2)  # a slider needs min < max
    k = st.slider("Cutoff k", 1, top, min(scn.k, top), key=f"{PAGE}_k")
    results = {family: fn(ranking, qrels, k, conventions=conventions) for family, fn in FAMILIES.items()}
    teaching.metric_row([(b.metric, b) for b in results.values()])
    tabs = st.tabs([b.metric for b in results.values()])
    for tab, b in zip(tabs, results.values(), strict=True):
        with tab:
            teaching.worked(b)
    series = {
        f"{family}@k": at_each_cutoff(family, ranking, qrels, top, conventions)
        for family in ("P", "R", "R_cap", "HitRate")
    }
    teaching.chart(charts.curves(series, k), key=f"{PAGE}_curves")
    if note := charts.coincide_note(series):
        st.caption(note)
    st.caption("P@k falls when a non-relevant document enters the top k; R@k never falls as k grows.")

with teaching.step(
    3,
    "Recall vs capped recall when R > k",
    "The *Metrics for IR* post's example: ten results, relevant at ranks 1, 2, 3, 6, 7, 8 and 10 (R = 7). "
    "Add relevant documents the system never retrieved.",
):
    left, right = st.columns(2)
    missed = left.number_input("Relevant documents never retrieved", 0, 10, 0, key=f"{PAGE}_missed")
    cut = right.slider("k", 1, 10, 5, key=f"{PAGE}_rcap_k")
    rcap_qrels = {doc: 1 for doc in RCAP_RANKING if doc.startswith("r")} | {f"m{i}": 1 for i in range(int(missed))}
    r_b = recall(RCAP_RANKING, rcap_qrels, cut)
    cap_b = capped_recall(RCAP_RANKING, rcap_qrels, cut)
    left, right = st.columns(2)
    with left:
        st.metric(r_b.metric, teaching.fmt(r_b.value), border=True)
        teaching.worked(r_b)
    with right:
        st.metric(cap_b.metric, teaching.fmt(cap_b.value), border=True)
        teaching.worked(cap_b)
    st.caption(
        "With R = 7 and k = 5, R@5 can reach at most 5/7: recall 1.0 is impossible. R_cap@5 divides by "
        "min(R, k) = 5 instead, so a perfect top 5 scores 1.0."
    )

with teaching.step(4, "Short lists: P@k still divides by k", "Three documents retrieved, two of them relevant."):
    short_k = st.select_slider("k", [1, 2, 3, 5, 10, 20], value=10, key=f"{PAGE}_short_k")
    short = precision(["a", "x", "b"], {"a": 1, "b": 1}, short_k)
    teaching.worked(short)

teaching.traps(
    [
        "**P@k divides by k even when fewer than k documents were retrieved:** 2 relevant of 3 retrieved gives "
        'P@10 = 0.2, not 0.6667 (trec_eval: "nonrelevant docs fill in the rest").',
        "**R counts every judged relevant document, retrieved or not.** The *Metrics for IR* post's R_cap "
        "example says 7 relevant "
        "but divides by 8: R@5 = 3/7 = 0.4286, not 0.38.",
        "**R = 0 gives 0, not NaN** (the *Metrics for IR* post wrote NaN for Q3, which in fact has R = 1 and R@2 = 0).",
        "**The *Metrics for IR* post's P@2 summary (0.5, 0.5, 0) should be 1, 1, 0**: precision is relative "
        "to k, not to the length "
        "of the ranking.",
        "**HitRate is not recall.** With R = 5 and one hit in the top 5, HitRate@5 = 1 but R@5 = 0.2.",
    ]
)
teaching.naming(
    'Naming: Recall@k here is trec_eval\'s `recall_k` (hits ÷ R). Many RAG tools say "recall@k" for *any* '
    "relevant document in the top k: that is HitRate@k, trec_eval's `success_k`, ir_measures' `Success@k`, "
    "BEIR's `Accuracy@k`. R_cap@k is BEIR's capped recall; trec_eval has none."
)
for fn in (precision, recall, capped_recall):
    teaching.show_source(fn)
