"""Lesson: P@k, R@k, R_cap@k, HitRate@k and F1@k. Renders metrics.families.precision, recall,
capped_recall, hit_rate and f1; computes nothing."""

import streamlit as st

from ir_metrics_lab.core import family_display
from ir_metrics_lab.core.figures import curve_charts
from ir_metrics_lab.core.lessons.lesson_text import LESSONS
from ir_metrics_lab.parts import notebook_button, scenario_numbers, teaching
from ir_metrics_lab.session import playground_state, widget_state
from ir_metrics_lab.shell import first_paint
from metrics import capped_recall, precision, recall
from metrics.catalog import registry

LESSON = LESSONS["precision_recall"]  # the title, introduction, traps and naming the notebook shares
PAGE = "lesson_pr"
FAMILIES = {key: registry.family(key).function for key in family_display.cards("set")}
# The capped-recall example of Metrics for IR: ten results, relevant at ranks 1, 2, 3, 6, 7, 8 and 10.
RCAP_RANKING = ["r1", "r2", "r3", "n1", "n2", "r4", "r5", "r6", "n3", "r7"]

st.title(LESSON.title)
st.markdown(LESSON.intro)

scn = playground_state.scenario()
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
    # the numbers paint first; the slider waits in a room of its height (ir_metrics_lab.shell.first_paint.later)
    first_paint.later(
        f"{PAGE}_k_slider",
        lambda: st.slider("Cutoff k", 1, top, min(scn.k, top), key=f"{PAGE}_k"),
        first_paint.LABELLED_WIDGET,
    )
    k = min(max(int(widget_state.widget_value(f"{PAGE}_k", min(scn.k, top))), 1), top)  # (the slider's, once drawn)
    results = {family: fn(ranking, qrels, k, conventions=conventions) for family, fn in FAMILIES.items()}
    teaching.metric_row([(b.metric, b) for b in results.values()])
    first_paint.rest_next_run()  # the rest below the numbers comes with the next run (ir_metrics_lab.shell.first_paint)
    tabs = st.tabs([b.metric for b in results.values()])
    for tab, b in zip(tabs, results.values(), strict=True):
        with tab:
            teaching.worked(b)
    # every cutoff up to top, kept: the slider only moves the marker
    series = scenario_numbers.curves(scn.with_settings(k=top), ("P", "R", "R_cap", "HitRate"))
    teaching.chart(curve_charts.curves(series, k), key=f"{PAGE}_curves")
    if note := curve_charts.coincide_note(series):
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

notebook_button.lesson(LESSON.key, scn.with_settings(k=int(k)))  # this lesson's notebook, on this list at its k
teaching.traps(LESSON.traps)
teaching.naming(LESSON.naming)
for fn in (precision, recall, capped_recall):
    teaching.show_source(fn)
