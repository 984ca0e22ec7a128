"""Lesson: DCG, IDCG and NDCG with graded relevance. Renders metrics.families.dcg, idcg and ndcg; computes nothing."""

import dataclasses

import streamlit as st

from ir_metrics_lab.core.figures import rank_charts
from ir_metrics_lab.core.lessons.lesson_text import LESSONS
from ir_metrics_lab.parts import notebook_button, teaching
from ir_metrics_lab.session import playground_state, widget_state
from ir_metrics_lab.shell import first_paint
from metrics import Conventions, dcg, idcg, ndcg, precision
from metrics.teaching.examples import GRADES_32301

LESSON = LESSONS["ndcg"]  # the title, introduction, traps and naming the notebook shares
PAGE = "lesson_ndcg"
SEED = GRADES_32301.first  # the list of RAG Pipelines, Part 3: grades [3, 2, 3, 0, 1]
GAINS = {"linear": "linear: g = grade (trec_eval)", "exp": "exponential: g = 2^grade − 1 (Burges, ranx ndcg_burges)"}
IDCG_SOURCES = {
    "all": "all judged documents (trec_eval, ranx)",
    "retrieved": "the retrieved list only (IR Metrics 102; RAG Pipelines, Part 3)",
}

st.title(LESSON.title)
st.markdown(LESSON.intro)

scn = playground_state.scenario()
ranking, qrels, conventions = list(scn.full_ranking), scn.qrels, scn.conventions

with teaching.step(1, "The formulas", "g is the gain of a grade; g* are the grades in the ideal order."):
    sample = ndcg(ranking, qrels, scn.k, conventions=conventions)
    for family in ("DCG", "IDCG", "NDCG"):
        teaching.definition(family, sample)

with teaching.step(2, "Your list", "Your order against the ideal order, rank by rank."):
    teaching.playground_note(scn)
    n = max(len(scn.ranking), scn.k, 2)  # a slider needs min < max; the hidden tail is not swept
    first_paint.later(
        f"{PAGE}_k_slider",
        lambda: st.slider("Cutoff k", 1, n, min(scn.k, n), key=f"{PAGE}_k"),
        first_paint.LABELLED_WIDGET,
    )
    k = min(max(int(widget_state.widget_value(f"{PAGE}_k", min(scn.k, n))), 1), n)  # (the slider's, once drawn)
    actual = dcg(ranking, qrels, k, conventions=conventions)
    ideal = idcg(ranking, qrels, k, conventions=conventions)
    normalised = ndcg(ranking, qrels, k, conventions=conventions)
    teaching.metric_row([(b.metric, b) for b in (actual, ideal, normalised)])
    first_paint.rest_next_run()  # the rest below the numbers comes with the next run (ir_metrics_lab.shell.first_paint)
    teaching.worked(actual)
    teaching.worked(ideal)
    teaching.worked(normalised)
    teaching.chart(rank_charts.ideal_vs_actual(actual, ideal), key=f"{PAGE}_ideal")


with teaching.step(
    3,
    "Linear or exponential gain",
    "*RAG Pipelines, Part 3* uses the grade itself; *IR Metrics 102* and the *Recall@K/MRR/nDCG FAQ* use "
    "2^grade − 1, which makes a grade-3 document worth 7 "
    "grade-1 documents instead of 3. Same list, two numbers: always say which gain you use.",
):
    gain = st.radio("Gain", list(GAINS), format_func=GAINS.get, horizontal=True, key=f"{PAGE}_gain")
    chosen = dataclasses.replace(conventions, gain=gain)
    teaching.worked(ndcg(ranking, qrels, k, conventions=chosen))
    other = dataclasses.replace(conventions, gain="exp" if gain == "linear" else "linear")
    other_b = ndcg(ranking, qrels, k, conventions=other)
    st.caption(f"With the other gain, {other_b.metric} = {teaching.fmt(other_b.value)}.")

with teaching.step(
    4,
    "IDCG comes from every judgment, not just the retrieved list",
    "The list [3, 2, 3, 0, 1] from *RAG Pipelines, Part 3* at k = 5. Judge one more grade-3 document that the "
    "retriever missed.",
):
    left, right = st.columns(2)
    missed = left.toggle("Judge a missed grade-3 document", value=True, key=f"{PAGE}_missed")
    source = right.radio("Ideal order built from", list(IDCG_SOURCES), format_func=IDCG_SOURCES.get, key=f"{PAGE}_idcg")
    seed_qrels = dict(SEED.qrels) | ({"d6": 3} if missed else {})
    seed_b = ndcg(list(SEED.ranking), seed_qrels, 5, conventions=Conventions(idcg=source))
    st.metric(seed_b.metric, teaching.fmt(seed_b.value), border=True)
    teaching.worked(idcg(list(SEED.ranking), seed_qrels, 5, conventions=Conventions(idcg=source)))
    teaching.worked(seed_b)
    st.caption(
        "trec_eval gives 0.8047 once the missed document is judged; the post's retrieved-only IDCG still says "
        "0.9724, so a retriever that misses the best document is never penalised for it."
    )

with teaching.step(
    5, "NDCG ignores the relevance threshold", "Raise the threshold: P@k changes, trec_eval's NDCG does not."
):
    threshold = st.slider("Relevant means grade ≥", 1, 3, 1, key=f"{PAGE}_threshold")
    strict = Conventions(threshold=threshold, gain=conventions.gain, idcg=conventions.idcg)
    teaching.metric_row(
        [
            (f"P@{k} (threshold {threshold})", precision(ranking, qrels, k, conventions=strict)),
            (f"NDCG@{k} (threshold {threshold})", ndcg(ranking, qrels, k, conventions=strict)),
        ]
    )

notebook_button.lesson(LESSON.key, scn.with_settings(k=k))  # this lesson's notebook, on this list at its k
teaching.traps(LESSON.traps)
teaching.naming(LESSON.naming)
teaching.show_source(dcg)
teaching.show_source(ndcg)
