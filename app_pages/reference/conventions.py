"""Conventions explorer: the Playground list's number both ways for every split between popular tools.

Renders ir_metrics_lab.core.lessons.conventions_table (computed by metrics); computes nothing itself.
"""

import streamlit as st

from ir_metrics_lab.core.lessons import convention_examples, conventions_table
from ir_metrics_lab.core.lessons.conventions_table import Split
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.parts import preferences, teaching
from ir_metrics_lab.parts.cards import fmt
from ir_metrics_lab.parts.chart_text import markdown_table
from ir_metrics_lab.session import playground_state
from ir_metrics_lab.shell import first_paint

PAGE = "conv"

st.title("Conventions explorer")
st.markdown(
    "trec_eval, ranx, BEIR, ir_measures, scikit-learn and the blog posts do not always compute *the same* metric "
    "the same way. For each split below: **your Playground list's number both ways**, which tools give which, and "
    "why. Where your list happens to give the same number both ways, one click changes it so you can see the split."
)

scn = playground_state.scenario()
teaching.playground_note(scn)
splits = conventions_table.splits(scn)


OVERVIEW_HEADER = ["split", "metric", "one way", "the other way", "differs?"]


def overview(rows: list[Split]) -> list[list[str]]:
    """One line per split, in OVERVIEW_HEADER's columns (literal cells: doc ids never reach HTML)."""
    return [
        [
            s.title,
            s.ways[0].metric,
            f"{fmt(s.ways[0].value)}  ({s.ways[0].label})",
            f"{fmt(s.ways[1].value)}  ({s.ways[1].label})",
            "yes" if s.differs else "no",  # one word: the narrow column does not wrap
        ]
        for s in rows
    ]


# A Markdown table: its cells wrap (a dataframe's fixed columns cut the split names off), and it is drawn by the
# Markdown code the page's text has already loaded (st.table would wait for about 1 MB of Arrow and grid code, and
# the split cards' numbers with it, on a new visitor's first paint).
st.markdown(markdown_table(OVERVIEW_HEADER, overview(splits)))


def apply_fix(fix: conventions_table.Fix) -> None:
    """A "Load ..." fix replaces the Playground list (the example picker then names it); the others edit it."""
    if fix.label.startswith("Load "):
        what = fix.label.removeprefix("Load ")
        playground_state.load(fix.scenario, f"{what[:1].upper()}{what[1:]} (conventions explorer)")
    else:
        playground_state.update(fix.scenario)


def card(s: Split) -> None:
    with st.container(border=True):
        st.subheader(s.title, anchor=False)
        columns = st.columns(len(s.ways))
        for column, way in zip(columns, s.ways, strict=True):
            with column:
                st.metric(f"{way.metric}: {way.label}", fmt(way.value), border=True)
                if way.current:
                    st.badge("Your Playground setting", icon=":material/check:", color="blue")
                st.caption(way.tools)  # tool names only: our own text
                if way.order:
                    st.caption("Order: " + plain(", ".join(way.order)))
        st.markdown(f"**Why.** {s.why}")
        if s.note:
            st.caption(s.note)
        if s.key == "ties":
            pair = conventions_table.split_ties(convention_examples.example_tie_pair())
            st.caption(
                "The golden tied pair (a relevant, b not, equal scores, a inserted first): "
                + "; ".join(f"{w.label.lower()} {', '.join(w.order)} → RR {fmt(w.value)}" for w in pair.ways)
                + ". ranx with plain dicts reverses insertion order (0.5)."
            )
        if not s.differs:
            st.info(f"**Same number both ways on your list.** {s.same_because}", icon=":material/drag_handle:")
            if s.fix is not None:
                st.button(
                    s.fix.label,
                    key=f"{PAGE}_fix_{s.key}",
                    icon=":material/science:",
                    on_click=apply_fix,
                    args=(s.fix,),
                    help="Changes the Playground list (Undo on the Playground brings yours back).",
                )


for index, s in enumerate(splits):
    card(s)
    if index == 0:
        # the other cards and the rest come with the next run (ir_metrics_lab.shell.first_paint)
        first_paint.rest_next_run()

teaching.show_source(conventions_table.split_gain, "Show the code behind one split: `split_gain`")

preferences.section()  # trec_eval's measures of preferences, and yaap: what they are for, a worked example each
