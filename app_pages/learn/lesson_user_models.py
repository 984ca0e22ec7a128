"""Lesson: user models. RBP (a user who reads on with probability p; its residual) and ERR (a cascade that stops
at a satisfying document) on the Playground's list. Renders metrics.families.rbp, rbp_resid and err; computes
nothing."""

import streamlit as st

from ir_metrics_lab.core.figures import rank_charts
from ir_metrics_lab.core.lessons.lesson_text import LESSONS
from ir_metrics_lab.parts import notebook_button, teaching
from ir_metrics_lab.session import playground_state, widget_state
from ir_metrics_lab.shell import first_paint
from metrics.catalog import registry
from metrics.core.types import Term
from metrics.families.err import STILL_READING, err_cascade, expected_reciprocal_rank
from metrics.families.rbp import rank_biased_precision, rbp_gains, rbp_weights
from metrics.families.rbp_resid import rbp_residual

LESSON = LESSONS["user_models"]  # the title, introduction, traps and naming the notebook shares
PAGE = "lesson_user_models"
PATIENCE = registry.family("RBP").param("p")

st.title(LESSON.title)
st.markdown(LESSON.intro)

scn = playground_state.scenario()
ranking, qrels, conventions = list(scn.full_ranking), scn.qrels, scn.conventions

with teaching.step(
    1, "RBP: patience p", "Rank i is worth (1 − p)·p^(i−1) of the reading: at p = 0.5, half of it goes to rank 1."
):
    teaching.playground_note(scn)

    def patience_slider() -> None:
        st.slider("Patience p", 0.5, 0.99, float(PATIENCE.default), step=0.01, key=f"{PAGE}_p", help=PATIENCE.help)

    # the numbers paint first; the slider waits in a room of its height (ir_metrics_lab.shell.first_paint.later)
    first_paint.later(f"{PAGE}_p_slider", patience_slider, first_paint.LABELLED_WIDGET)
    p = float(widget_state.widget_value(f"{PAGE}_p", float(PATIENCE.default)))  # (the slider's, once drawn)
    rbp = rank_biased_precision(ranking, qrels, conventions=conventions, p=p)
    residual = rbp_residual(ranking, qrels, conventions=conventions, p=p)
    teaching.definition("RBP", rbp)
    teaching.metric_row(
        [("RBP", rbp), ("RBP residual", residual)],
        help_texts=[registry.family(family).help for family in ("RBP", "RBP_resid")],
    )
    first_paint.rest_next_run()  # the rest below the numbers comes with the next run (ir_metrics_lab.shell.first_paint)
    teaching.worked(rbp)
    gains = rbp_gains(qrels)
    if gains:
        written = ", ".join(f"grade {grade} → {gain:.4g}" for grade, gain in sorted(gains.items()))
        st.caption(f"Gains g_i (trec_eval scales grades to 0..1 by the query's highest grade): {written}.")
    weights, tail = rbp_weights(len(ranking), p)
    teaching.chart(rank_charts.rbp_weights(rbp, weights), key=f"{PAGE}_weights")
    st.caption(
        f"Light bars: the weight of each rank. Dark bars: what the document there earned of it. The weights of your "
        f"{len(ranking)} ranks add up to {1 - tail:.4f}; the rest, p^{len(ranking)} = {tail:.4f}, lies beyond the "
        "list, where no document can earn it."
    )

with teaching.step(
    2,
    "The residual: what is still unknown",
    "RBP is a lower bound: an unjudged document, or one below the list, might be relevant. The residual is the "
    "most it could add, if every one of them had the top gain.",
):
    teaching.definition("RBP_resid", residual)
    teaching.worked(residual)
    unjudged_count = int(residual.terms[Term.UNJUDGED])
    if unjudged_count:
        st.caption(
            f"RBP lies between {rbp.value:.4f} and {rbp.value + residual.value:.4f}: "
            f"{unjudged_count} unjudged document{'' if unjudged_count == 1 else 's'} in the list and the "
            f"{tail:.4f} beyond it. A large residual means the qrels cannot tell how good this list is."
        )
    else:
        st.caption(
            f"Nothing in your list is unjudged, and trec_eval then reports a residual of 0, although the weight "
            f"beyond the list, p^{len(ranking)} = {tail:.4f}, is unknown too. Mark documents unjudged in the "
            "*Unjudged documents* lesson to see the residual grow."
        )

with teaching.step(
    3,
    "ERR: the cascade",
    "The reader stops at rank i, satisfied, with probability R_i = (2^g − 1)/2^4, else reads on: a grade-4 "
    "document stops 15 of 16 readers, a grade-1 document 1 in 16.",
):
    err = expected_reciprocal_rank(ranking, qrels, scn.k, conventions=conventions)
    cascade = err_cascade(ranking, qrels, scn.k)
    teaching.definition("ERR", err)
    teaching.metric_row([(err.metric, err)], help_texts=[registry.family("ERR").help])
    teaching.worked(err)
    st.dataframe(
        [
            {
                "rank": step.rank,
                "doc": step.doc_id,
                "title": scn.title(step.doc_id),
                "grade": step.grade,
                "P(reach)": step.reach,
                "R_i (stops)": step.stop,
                "contribution reach·R_i/i": step.contribution,
            }
            for step in cascade
        ],
        hide_index=True,
        width="stretch",
        column_config={
            column: st.column_config.NumberColumn(format="%.4f")
            for column in ("P(reach)", "R_i (stops)", "contribution reach·R_i/i")
        },
    )
    if cascade:
        teaching.chart(rank_charts.err_cascade(cascade), key=f"{PAGE}_cascade")
        st.caption(
            f"Blue: the chance of reading as far as each rank; it drops after every document that can satisfy. "
            f"With probability {err.terms[STILL_READING]:.4f} the reader reads past rank {len(cascade)} "
            f"unsatisfied: that part adds 0 to {err.metric}."
        )
    else:
        st.info("The list is empty: ERR is 0.")

notebook_button.lesson(LESSON.key, scn)  # this lesson's teaching notebook, on this list
teaching.traps(LESSON.traps)
teaching.naming(
    f"Naming: trec_eval prints `{registry.family('RBP').trec_eval.name}` and "
    f"`{registry.family('RBP_resid').trec_eval.name}` (p = 0.9); ir_measures writes "
    f"`{registry.family('RBP').names.ir_measures}(p=0.8)` and `{registry.family('ERR').names.ir_measures}@10` "
    "(computed by gdeval). Here: RBP, RBP_resid and ERR@k, and any of them in the Playground's measure picker."
)
teaching.show_source(rank_biased_precision)
teaching.show_source(rbp_residual)
teaching.show_source(err_cascade)
