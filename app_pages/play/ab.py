"""Retriever A vs B: the same documents in two orders. Precision and recall tie; RR, AP and NDCG do not. Renders only:
numbers from metrics/ (via ir_metrics_lab.core.numbers and ir_metrics_lab.parts.scenario_numbers), sentences from
ir_metrics_lab.core.lessons.narrative, charts from ir_metrics_lab.core.figures."""

import streamlit as st

from ir_metrics_lab.core import family_display, numbers
from ir_metrics_lab.core.exports import notebooks
from ir_metrics_lab.core.figures import curve_charts, rank_charts
from ir_metrics_lab.core.lessons import narrative
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.parts import (
    brief_download,
    cards,
    list_settings,
    notebook_button,
    scenario_numbers,
    sortable,
    teaching,
)
from ir_metrics_lab.session import ab_state, drilldown, widget_state
from ir_metrics_lab.shell import first_paint, presenter

# Okabe-Ito: A orange #E69F00, B blue #0072B2 (as in ir_metrics_lab.core.figures.palette)
SIDES = {"A": "orange", "B": "blue"}
COMPARED = family_display.listed("compared")
CURVES = family_display.listed("compared_curves")
# The heights of the parts a new visitor's first run leaves for the next (ir_metrics_lab.shell.first_paint.later),
# measured in Chromium.
CONTROLS_ROOM = first_paint.Room(wide=68, phone=140, presenter=89)
CHART_PICKER_ROOM = first_paint.Room(wide=60, phone=60, presenter=79)

for side in SIDES:
    sortable.consume(
        f"ab_list_{side}", lambda s=side: ab_state.ab()[s], lambda new, s=side: ab_state.apply_ab_edit(s, new)
    )

st.title("Retriever A vs B")
st.caption(
    drilldown.ab_caption()  # a query opened from Compare runs: both runs' real rankings
    or "Two retrievers return the same five documents for *How do I set up OAuth login?*. Drag either list or change "
    "a grade (a grade belongs to the document, so it changes in both lists) and watch which metrics notice the order."
)

scenarios = ab_state.ab()
now = {side: numbers.breakdowns(scn) for side, scn in scenarios.items()}  # RR and AP uncut, as in the explanation
verdict = narrative.headline(scenarios["A"], scenarios["B"])
(st.success if verdict.startswith("Retriever") else st.info)(f"**{verdict}**", icon=":material/gavel:")


def controls() -> None:
    k_col, _, reset_col = st.columns([2, 4, 1.2], vertical_alignment="bottom")  # "Reset" whole at 200% zoom
    with k_col:
        list_settings.k_control("ab", lambda: ab_state.ab()["A"], lambda new: ab_state.set_ab_k(new.k))
    reset_col.button(
        "Reset", key="ab_reset", on_click=ab_state.reset_ab, icon=":material/restart_alt:", width="stretch"
    )


# the lists and the numbers paint first (ir_metrics_lab.shell.first_paint)
first_paint.later("ab_controls", controls, CONTROLS_ROOM)

presenting = presenter.is_on()
if presenting:  # a projector: the verdict, both lists and the numbers in the first screen (1920x1080)
    *list_cols, numbers_col = st.columns([4, 4, 3], gap="medium")
else:
    list_cols = st.columns(2, gap="large")
for column, (side, colour) in zip(list_cols, SIDES.items(), strict=True):
    with column:
        where = "in the middle" if side == "A" else "at the top"
        st.subheader(f":{colour}[Retriever {side}]", anchor=False)
        st.caption(drilldown.ab_side_caption(side) or f"In the preset, its relevant documents sit {where}.")
        sortable.ranked_list(
            f"ab_list_{side}",
            lambda s=side: ab_state.ab()[s],
            lambda new, s=side: ab_state.apply_ab_edit(s, new),
            label=f"Retriever {side}, best first",
            shelve=False,
        )


def side_by_side() -> None:
    """The numbers as a Markdown table: text in rem, so it scales with a projector's type, and a new visitor's browser
    draws it at once (st.table and st.dataframe wait for about 1 MB of Arrow and grid code:
    ir_metrics_lab.shell.first_paint)."""
    st.subheader("Side by side", anchor=False)
    rows = ["| metric | A | B | verdict |", "|:--|--:|--:|:--|"]
    for family in COMPARED:
        a, b = now["A"][family], now["B"][family]
        if cards.fmt(a.value) == cards.fmt(b.value):
            verdict = ":gray[equal]"
        else:
            verdict = f":blue[**{'B' if b.value > a.value else 'A'} higher**]"
        rows.append(f"| {plain(a.metric, one_line=True)} | {cards.fmt(a.value)} | {cards.fmt(b.value)} | {verdict} |")
    st.markdown("\n".join(rows))
    st.caption("Grey: the metric cannot tell A from B. Blue: the order matters.")


def story() -> None:
    for sentence in narrative.explain_ab(scenarios["A"], scenarios["B"]):
        st.markdown(f"- {sentence}")


if presenting:
    with numbers_col:
        side_by_side()
    story()
else:
    table_col, story_col = st.columns([5, 6], gap="large")
    with table_col:
        side_by_side()
    with story_col:
        story()

TABBED = family_display.playground_tabs()  # the families the playground gives a tab of their own


def chart_picker() -> None:
    st.segmented_control(
        "Per-rank contributions of", list(TABBED), default=TABBED[0], key="ab_chart_metric", required=True
    )


first_paint.later("ab_chart_picker", chart_picker, CHART_PICKER_ROOM)
chart_cols = st.columns(2, gap="large")
shown_family = widget_state.widget_value("ab_chart_metric") or TABBED[0]
bars = {side: rank_charts.contributions(now[side][shown_family], titles=scenarios[side].titles) for side in SIDES}
rank_charts.share_y_range(*bars.values())  # same scale: A's short bars must not look as tall as B's
for column, (side, colour) in zip(chart_cols, SIDES.items(), strict=True):
    column.markdown(f"**:{colour}[Retriever {side}]** · {now[side][shown_family].metric} per rank")
    teaching.chart(bars[side], f"ab_bars_{side}", column)
curves = {side: scenario_numbers.curves(scenarios[side], CURVES) for side in SIDES}
teaching.chart(curve_charts.ab_curves(curves["A"], curves["B"], scenarios["A"].k), "ab_curves")
if note := curve_charts.coincide_note({f"{side} · {name}": v for side in SIDES for name, v in curves[side].items()}):
    st.caption(note)
st.info(narrative.lost_in_the_middle_note(), icon=":material/menu_book:")
brief_download.ab(scenarios["A"], scenarios["B"], ab_state.ab_origin(), key="ab_brief")
notebook_button.button(
    notebooks.ab(scenarios["A"], scenarios["B"], bars_of=shown_family), "ir-metrics-a-vs-b.ipynb", "ab_notebook"
)
