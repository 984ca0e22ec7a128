"""Swap heatmap: how much each pairwise swap of the Playground list would change a metric (LambdaRank's |ΔNDCG|).

Renders metrics.teaching.swaps.swap_deltas; clicking a cell (or the swap control) swaps the two docs on the Playground
list.
"""

import pandas as pd
import streamlit as st

from ir_metrics_lab.core import family_display
from ir_metrics_lab.core.exports import notebooks
from ir_metrics_lab.core.figures import heatmaps
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.parts import cards, chart_text, notebook_button, scenario_numbers, teaching
from ir_metrics_lab.parts.cards import fmt
from ir_metrics_lab.session import playground_state, widget_state
from ir_metrics_lab.shell import first_paint, presenter
from metrics.teaching.swaps import best_swap, swap_deltas, swapped

PAGE = "swap"
# The height of the picker a new visitor's first run leaves for the next (ir_metrics_lab.shell.first_paint.later),
# measured in Chromium.
PICKER_ROOM = first_paint.Room(wide=60, phone=96, presenter=79)
# The Playground list (st.dataframe): its rows up to 12, else a box of 420 px that scrolls.
LIST_ROWS_SHOWN, LIST_SCROLL_PX = 12, 420
METRICS = {  # picker label -> (family, cut at k?): the whole list too for the families whose card shows it (AP, RR)
    label: (key, cut)
    for key in family_display.listed("swap_heatmap")
    for label, cut in ((key, False), (f"{key}@k", True))
    if cut or family_display.display(key).uncut_card
}
DEFAULT = f"{family_display.listed('swap_heatmap')[0]}@k"  # the first of its list at k (LambdaRank's |ΔNDCG|)


def do_swap(i: int, j: int) -> None:
    scn = playground_state.scenario()
    if i == j:
        widget_state.set_message(PAGE, "warning", f"Rank {i} with itself changes nothing: pick two different ranks.")
    elif 1 <= i <= len(scn.ranking) and 1 <= j <= len(scn.ranking):
        playground_state.update(scn.reordered(swapped(scn.ranking, i, j)))
        widget_state.set_message(PAGE, "success", f"Swapped ranks {i} and {j}.")


st.title("Swap heatmap")
st.markdown(
    "Each cell answers one question: **if the documents at ranks i and j swapped places, how much would the metric "
    "change?** Blue cells help, vermillion cells hurt, white cells change nothing. This is the intuition behind "
    "LambdaRank, which weights each pair of documents by the |ΔNDCG| of swapping them. **Click a cell** to make the "
    "swap on the Playground list."
)

scn = playground_state.scenario()
teaching.playground_note(scn)
ranking = list(scn.ranking)


def metric_picker() -> None:
    st.segmented_control("Metric", list(METRICS), default=DEFAULT, key=f"{PAGE}_metric", required=True)


# The numbers paint first: the picker's code (a widget kind of its own) held the first number back
# (ir_metrics_lab.shell.first_paint).
first_paint.later(f"{PAGE}_metric_picker", metric_picker, PICKER_ROOM)
choice = widget_state.widget_value(f"{PAGE}_metric") or DEFAULT  # before the picker is drawn: the value it will show
family, cut = METRICS[choice]
k = scn.k if cut else None
# scored with the hidden tail, if any: only the shown ranks are swapped
now = scenario_numbers.breakdown(scn, family, k)
previous = playground_state.previous()
delta = cards.delta(now, scenario_numbers.breakdown(previous, family, k) if previous else None)

message = widget_state.pop_message(PAGE)
if message:
    (st.success if message[0] == "success" else st.warning)(plain(message[1]))


def swaps(scn, ranking: list[str], choice: str, family: str, k: int | None, now, delta) -> None:
    """The heatmap, the best swap and the swap controls (a list of two documents or more)."""
    deltas = scenario_numbers.swap_deltas_kept(
        tuple(ranking), scn.qrels, family, k, scn.conventions, tail=tuple(scn.tail)
    )
    best = best_swap(deltas)

    summary, advice = st.columns([1, 3], vertical_alignment="center")
    summary.metric(now.metric, fmt(now.value), delta=delta, border=True, help="Change since the last edit.")
    if best is None:
        advice.success(f"No single swap raises {now.metric}: this order is already the best you can reach by one swap.")
    else:
        i, j, gain = best
        advice.info(
            f"The best single swap is rank {i} ↔ rank {j}: {now.metric} {gain:+.4f}.", icon=":material/lightbulb:"
        )
    first_paint.rest_next_run()  # the rest below the numbers comes with the next run (ir_metrics_lab.shell.first_paint)

    chart_col, list_col = st.columns([3, 2], gap="large")
    with chart_col:
        chart_key = f"{PAGE}_chart_{'|'.join(ranking)}_{choice}"  # a new key after a swap clears the old selection

        def on_click() -> None:
            points = widget_state.widget_value(chart_key)["selection"]["points"]
            if points:
                do_swap(int(points[0]["y"]), int(points[0]["x"]))

        heatmap = presenter.scaled(heatmaps.swap_heatmap(deltas, scn.ranking, now.metric))
        st.plotly_chart(  # not teaching.chart: this one takes clicks (on_select)
            heatmap,
            theme=None,
            key=chart_key,
            on_select=on_click,
            selection_mode="points",
            config={"displayModeBar": False},
        )
        chart_text.text_alternative(heatmap, chart_key)
        st.caption(
            "The matrix is symmetric (swapping i with j is swapping j with i) and its diagonal is 0. With a cutoff, "
            "swaps between two documents both below k change nothing; so do swaps of two equally graded documents."
        )

    with list_col:
        st.markdown("**The Playground list**")
        playground_table(scn, ranking)
        st.markdown("**Or swap by rank**")
        swap_by_rank(len(ranking))


def playground_table(scn, ranking: list[str]) -> None:
    st.dataframe(
        pd.DataFrame(
            {
                "rank": range(1, len(ranking) + 1),
                "doc": ranking,
                "grade": [scn.grades.get(d, 0) for d in ranking],
                "title": [scn.title(d) for d in ranking],
            }
        ),
        hide_index=True,
        width="stretch",
        height="content" if len(ranking) <= LIST_ROWS_SHOWN else LIST_SCROLL_PX,
    )


def swap_by_rank(n: int) -> None:
    """Two rank inputs and a Swap button: the keyboard's way to swap."""
    left, right, go_col = st.columns([2, 2, 3], vertical_alignment="bottom")
    left.number_input("Rank i", 1, n, 1, step=1, key=f"{PAGE}_i")
    right.number_input("Rank j", 1, n, 2, step=1, key=f"{PAGE}_j")

    def swap_from_inputs() -> None:  # read the inputs at click time, not at render time
        do_swap(int(widget_state.widget_value(f"{PAGE}_i")), int(widget_state.widget_value(f"{PAGE}_j")))

    go_col.button("Swap", key=f"{PAGE}_do", icon=":material/swap_vert:", on_click=swap_from_inputs, width="stretch")


if len(ranking) < 2:  # not st.stop(): app.py's CSS and first-paint bookkeeping come after the page
    st.metric(now.metric, fmt(now.value), border=True)
    st.info("The Playground list needs at least two documents to swap.")
    first_paint.rest_next_run()  # the rest below the number comes with the next run (ir_metrics_lab.shell.first_paint)
else:
    swaps(scn, ranking, choice, family, k, now, delta)

notebook_button.button(notebooks.swap_heatmap(scn, family, k), "ir-metrics-swap-heatmap.ipynb", f"{PAGE}_notebook")
teaching.show_source(swap_deltas)
