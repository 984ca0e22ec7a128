"""Lesson: R-precision and the precision-recall curve (interpolated precision, the 11-point average).
Renders metrics.families.interpolated_precision, eleven_point_average and r_precision on the Playground's
list; computes nothing."""

import streamlit as st

from ir_metrics_lab.core.figures import curve_charts
from ir_metrics_lab.core.lessons.lesson_text import LESSONS
from ir_metrics_lab.parts import notebook_button, teaching
from ir_metrics_lab.session import playground_state, widget_state
from ir_metrics_lab.shell import first_paint
from metrics.families._interpolation import ELEVEN_LEVELS, precision_recall_points, relevant_needed
from metrics.families.eleven_point_average import eleven_point_average
from metrics.families.interpolated_precision import interpolated_precision
from metrics.families.r_precision import r_precision
from metrics.families.recall import recall

LESSON = LESSONS["pr_curve"]  # the title, introduction, traps and naming the notebook shares
PAGE = "lesson_pr_curve"

st.title(LESSON.title)
st.markdown(LESSON.intro)

scn = playground_state.scenario()
ranking, qrels, conventions = list(scn.full_ranking), scn.qrels, scn.conventions
points = precision_recall_points(ranking, qrels, conventions=conventions)
levels = [interpolated_precision(ranking, qrels, conventions=conventions, level=level) for level in ELEVEN_LEVELS]
R = int(levels[0].terms["R"])

with teaching.step(1, "The curve, one point per rank", "Precision and recall after each document of your list."):
    teaching.playground_note(scn)
    if R == 0:
        st.info("No document on the Playground is relevant at this threshold: recall is 0 everywhere (R = 0).")
    teaching.chart(curve_charts.precision_recall(points, ELEVEN_LEVELS, [b.value for b in levels]), key=f"{PAGE}_curve")
    st.caption(
        "Blue: each rank's (recall, precision). It jumps up at every relevant document and sags at every "
        "non-relevant one. Orange: interpolated precision at trec_eval's 11 recall levels, never rising to the right."
    )

with teaching.step(
    2,
    "Interpolated precision at a recall level",
    "The best precision at any rank from the one where recall reaches the level onwards.",
):
    teaching.definition("IPrec", levels[0])
    # the page's first number is R-precision's, below: the picker and the table wait in rooms of their height
    first_paint.later(
        f"{PAGE}_level_picker",
        lambda: st.select_slider(
            "Recall level",
            options=list(ELEVEN_LEVELS),
            value=0.5,
            format_func=lambda v: f"{v:.1f}",
            key=f"{PAGE}_level",
        ),
        first_paint.LABELLED_WIDGET,
    )
    level = widget_state.widget_value(f"{PAGE}_level", 0.5)  # (the picker's, once drawn)
    chosen = levels[ELEVEN_LEVELS.index(level)]
    teaching.worked(chosen)
    needed = relevant_needed(level, R, conventions.recall_rounding)
    rounded = (
        f"⌊{level:.1f} · {R} + 0.9⌋ = {needed} relevant document{'' if needed == 1 else 's'} (trec_eval 9's "
        "rounding, as pytrec_eval and ir_measures compute it)"
        if conventions.recall_rounding == "plus_0.9"
        else f"{level:.1f} · {R} rounded = {needed} relevant document{'' if needed == 1 else 's'} "
        "(trec_eval 10.0's rounding, half away from zero)"
    )
    st.caption(
        f"R = {R}: level {level:.1f} asks for {rounded}. Level 0 asks for none: it takes the best "
        "precision anywhere in the list."
    )
    first_paint.later(
        f"{PAGE}_steps", lambda: teaching.steps_table(chosen, scn), first_paint.grid_room(len(chosen.steps))
    )

with teaching.step(3, "The 11-point average", "The mean of the 11 interpolated precisions: 0.0, 0.1, ..., 1.0."):
    eleven = eleven_point_average(ranking, qrels, conventions=conventions)
    teaching.definition("IPrec11", eleven)
    teaching.worked(eleven)
    st.caption(
        "An older estimate of the area under the curve; trec_eval keeps it (11pt_avg) for comparing with old runs "
        "and recommends average precision instead."
    )

with teaching.step(4, "R-precision: precision at rank R", "Where the precision and recall curves cross."):
    rprec = r_precision(ranking, qrels, conventions=conventions)
    teaching.definition("Rprec", rprec)
    recall_at_r = recall(ranking, qrels, R, conventions=conventions) if R else None
    items = [("Rprec", rprec)] + ([(f"R@{R}", recall_at_r)] if recall_at_r is not None else [])
    teaching.metric_row(items)
    teaching.worked(rprec)
    st.caption(
        "At rank R, precision is hits/R and recall is hits/R: the same number, so R-precision is also R@R. A list "
        "shorter than R is padded with non-relevant documents, as P@k pads."
    )

notebook_button.lesson(LESSON.key, scn)  # this lesson's teaching notebook, on this list
teaching.traps(LESSON.traps)
teaching.naming(LESSON.naming)
teaching.show_source(interpolated_precision)
teaching.show_source(r_precision)
