"""Why tools differ: two tools' numbers for one measure on a run (sample or uploaded), the difference attributed to
each convention (metrics.tools.explain, exact Shapley values), the queries that move the most, and each query as a
Playground link with either tool's conventions. Renders only: the numbers come from metrics.tools.explain, the
figure and table from ir_metrics_lab.core.lessons.tool_difference. User text (file names, query ids) is shown
literally."""

from __future__ import annotations

import streamlit as st

from ir_metrics_lab.core import words
from ir_metrics_lab.core.exports import notebooks
from ir_metrics_lab.core.lessons import tool_difference
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.parts import brief_download, notebook_button, teaching
from ir_metrics_lab.session import dataset_state, datasets, widget_state
from ir_metrics_lab.session.datasets import Loaded
from ir_metrics_lab.shell import first_paint
from metrics.catalog.measures import parse_measure
from metrics.tools.explain import Explanation, explain
from metrics.tools.profiles import MEASURES, TIES_WORDS, TOOLS, usable_tools
from metrics.tools.settings import TITLES, described

PAGE = "td"
URL_PATH = "why-tools-differ"
SOURCES = {"sample": "Sample data", "upload": "Upload files"}
# The heights of the parts above the numbers that a new visitor's first run leaves for the next
# (ir_metrics_lab.shell.first_paint.later: each kind of widget is one more chunk of code to fetch before the numbers
# show), measured in Chromium.
ROOMS = {
    "source": first_paint.LABELLED_WIDGET,
    "sample": first_paint.Room(wide=68, phone=89, presenter=89),
    "choices": first_paint.Room(wide=68, phone=268, presenter=89),
}


def _files() -> tuple[Loaded | None, Loaded | None]:
    def source_picker() -> None:
        source = widget_state.sync_widget(f"{PAGE}_source", dataset_state.dataset_setting(f"{PAGE}_source", "sample"))
        st.radio(
            "Data",
            list(SOURCES),
            index=widget_state.option_index(SOURCES, source),
            format_func=SOURCES.get,
            horizontal=True,
            key=f"{PAGE}_source",
            on_change=lambda: dataset_state.set_dataset_setting(
                f"{PAGE}_source", widget_state.widget_value(f"{PAGE}_source")
            ),
        )

    first_paint.later(f"{PAGE}_source_picker", source_picker, ROOMS["source"])
    source = dataset_state.shown_setting(f"{PAGE}_source", "sample")
    if source == "sample":
        systems = list(datasets.SAMPLE_RUNS)
        first_paint.later(
            f"{PAGE}_sample_picker",
            lambda: st.radio(
                "Sample system",
                systems,
                format_func=lambda s: f"{s} ({datasets.SAMPLE_ROLES[s]})",
                horizontal=True,
                key=f"{PAGE}_sample",
            ),
            ROOMS["sample"],
        )
        system = widget_state.widget_value(f"{PAGE}_sample", systems[0])
        st.caption(datasets.SAMPLE_DESCRIPTION)
        return datasets.load_path("run", datasets.SAMPLE_RUNS[system]), datasets.load_path(
            "qrels", datasets.SAMPLE_QRELS
        )
    st.caption(datasets.FORMATS_HELP)
    run_col, qrels_col = st.columns(2, gap="medium")
    with run_col:
        run = datasets.upload_input(f"{PAGE}_run", "run", "Run file", key=f"{PAGE}_run_upload")
        datasets.show_status(run)
    with qrels_col:
        qrels = datasets.upload_input(f"{PAGE}_qrels", "qrels", "Qrels file", key=f"{PAGE}_qrels_upload")
        datasets.show_status(qrels)
    return run, qrels


def _tool_defaults(usable: list[str]) -> tuple[str, str]:
    """The two tools shown first for a measure: trec_eval, then a popular library that differs from it."""
    first = "trec_eval" if "trec_eval" in usable else usable[0]
    preferred = [k for k in ("sklearn", "lightgbm", "ranx") if k in usable and k != first]
    return first, preferred[0] if preferred else usable[-1]


def _pickers() -> None:
    measure_col, first_col, second_col = st.columns([2, 3, 3], gap="medium")
    measure = measure_col.selectbox("Measure", MEASURES, key=f"{PAGE}_measure")
    usable, _ = usable_tools(measure)
    titles = {t.key: t.title for t in TOOLS}
    first_default, second_default = _tool_defaults(usable)
    first_col.selectbox(
        "From (the first tool)",
        usable,
        index=widget_state.choice_index(f"{PAGE}_first", usable, first_default),
        format_func=titles.get,
        key=f"{PAGE}_first",
    )
    second_col.selectbox(
        "To (the second tool)",
        usable,
        index=widget_state.choice_index(f"{PAGE}_second", usable, second_default),
        format_func=titles.get,
        key=f"{PAGE}_second",
    )


def _choices() -> tuple[str, str, str] | None:
    first_paint.later(f"{PAGE}_choices", _pickers, ROOMS["choices"])
    # The pickers' values, or before they are drawn (ir_metrics_lab.shell.first_paint) the ones they will show.
    measure = widget_state.widget_value(f"{PAGE}_measure", MEASURES[0])
    usable, excluded = usable_tools(measure)
    first_default, second_default = _tool_defaults(usable)
    first = widget_state.widget_value(f"{PAGE}_first", first_default)
    second = widget_state.widget_value(f"{PAGE}_second", second_default)
    if excluded:
        family = parse_measure(measure).family
        with st.expander(f"Tools that have {family} but cannot be reproduced here", icon=":material/block:"):
            for why in excluded.values():
                st.caption(plain(why))
    if first == second:
        st.info("Pick two different tools to see why their numbers differ.", icon=":material/compare_arrows:")
        return None
    return measure, first, second


@st.cache_data(max_entries=16, ttl=3600, show_spinner=False)
def _explained(run_key: tuple, qrels_key: tuple, measure: str, first: str, second: str, _run, _qrels) -> Explanation:
    return explain(_run, _qrels, measure, first, second)


def _summary(found: Explanation) -> None:
    st.markdown(f"**{plain(found.sentence)}**")
    first, second = (t.title for t in found.tools)
    cards = st.columns(3)
    cards[0].metric(f"{first}: mean {found.measure}", f"{found.means[0]:.4f}", border=True)
    cards[1].metric(f"{second}: mean {found.measure}", f"{found.means[1]:.4f}", border=True)
    cards[2].metric("Difference (second − first)", f"{found.difference:+.4f}", border=True)
    first_paint.rest_next_run()  # the rest below the numbers comes with the next run (ir_metrics_lab.shell.first_paint)
    if found.switches:
        teaching.chart(tool_difference.waterfall_figure(found), key=f"{PAGE}_waterfall")
        st.caption(
            "Each bar is one convention's part of the difference: its Shapley value, the average effect of switching "
            "it from the first tool's choice to the second's over every order of switching them all (each mix "
            "evaluated on your run), so the parts add up exactly to the difference and no order is favoured."
        )
        rows = [
            {
                "convention": TITLES[s],
                first: described(s, found.choices[s][0]),
                second: described(s, found.choices[s][1]),
                "part of the difference": round(found.attribution[s], 6),
            }
            for s in found.switches
        ]
        st.dataframe(rows, hide_index=True, width="stretch")
    else:
        st.info("These two tools make the same choices for this measure: nothing to attribute.")
    for side, (tool_, profile_) in enumerate(zip(found.tools, found.profiles, strict=True)):
        ties = TIES_WORDS[profile_.ties]
        name = profile_.name.replace("{k}", str(parse_measure(found.measure).k or "k"))
        direction = "From" if side == 0 else "To"
        st.caption(f"{direction}: {tool_.title} `{name}` ({plain(tool_.checked)}). Ties: {plain(ties)}.")
    for note in found.caveats:
        if "tied scores" in note:
            st.caption(plain(f"Note: {note}"))


def _per_query(found: Explanation, run: Loaded, qrels: Loaded) -> None:
    st.subheader("Per query", anchor=False)
    frame = tool_difference.query_frame(found)
    moved = int((frame["difference"].abs() > 0).sum())
    st.caption(
        f"{words.count(len(frame), 'query')} averaged by either tool, largest difference first; "
        f"{words.count(moved, 'query')} {words.verb(moved, 'scores')} differently. An empty cell: that tool does not "
        "average the query."
    )
    numbers = {c: st.column_config.NumberColumn(c, format="%.4f") for c in frame.columns if c != "query"}
    st.dataframe(
        frame,
        hide_index=True,
        key=f"{PAGE}_table",
        column_config={"query": st.column_config.TextColumn("query", pinned=True), **numbers},
        height=min(420, 38 + 35 * len(frame)),
    )
    if not len(frame):
        return
    st.subheader("Open a query in the Playground", anchor=False)
    difference = dict(zip(frame["query"].tolist(), frame["difference"].tolist(), strict=True))
    query_col, side_col = st.columns([3, 2], vertical_alignment="bottom")
    query_id = query_col.selectbox(
        "Query (largest difference first)",
        list(difference),
        key=f"{PAGE}_query_{found.measure}_{'_'.join(t.key for t in found.tools)}",  # a new pair starts at the top
        format_func=lambda q: f"{q}: {difference[q]:+.4f}",  # options are shown as plain text
    )
    side = side_col.radio(
        "With the conventions of",
        [0, 1],
        format_func=lambda s: found.tools[s].title,
        index=1,
        horizontal=True,
        key=f"{PAGE}_side",
    )
    scn = tool_difference.playground_scenario(found, side, run.value, qrels.value, str(query_id))
    app_url = (st.context.url or "").rstrip("/").removesuffix(f"/{URL_PATH}") or None
    try:
        link = tool_difference.playground_link(app_url, scn)
    except ValueError as error:
        st.warning(plain(str(error)), icon=":material/link_off:")
        return
    st.link_button(
        plain(f"Open query {query_id} in the Playground", one_line=True),
        link,
        icon=":material/open_in_new:",
        type="primary",
    )
    kept = len(scn.ranking)
    st.caption(
        f"Opens a share link: the query's first {kept} retrieved documents, its relevant documents never retrieved "
        f"on the shelf, k = {scn.k}, and {plain(found.tools[side].title)}'s per-list conventions (gain, ideal "
        "ranking, AP's denominator). Which queries are averaged, and what a query with no relevant document scores, "
        "are choices over queries: the Playground's single list has neither."
    )


st.title("Why do two tools disagree?")
st.caption(
    "The same run, the same measure, two tools, two numbers: here is the difference, split into the conventions "
    "each tool chooses (gain, ideal ranking, AP's denominator, which queries count, what a query with no relevant "
    "document scores), computed on your own run."
)


def render() -> None:
    run, qrels = _files()
    choice = _choices()
    if run is None or qrels is None or not (run.ok and qrels.ok):
        st.info("Load a run and its qrels to see the difference.", icon=":material/upload_file:")
        return
    if choice is None:
        return
    mismatch = datasets.no_overlap_message(run, qrels)
    if mismatch:
        st.error(plain(mismatch), icon=":material/link_off:")
        return
    measure, first, second = choice
    try:
        with st.spinner("Evaluating every mix of the two tools' conventions…", show_time=True):
            found = _explained(run.key, qrels.key, measure, first, second, run.value, qrels.value)
    except ValueError as error:
        st.error(plain(str(error).splitlines()[0] if str(error) else type(error).__name__), icon=":material/error:")
        return
    except Exception as error:  # never a traceback on the page
        st.error(
            f"Unexpected error while explaining ({type(error).__name__}); please report it.", icon=":material/error:"
        )
        return
    _summary(found)  # a new visitor's first run ends after its numbers (ir_metrics_lab.shell.first_paint.rest_next_run)
    brief_download.tools(found, run, qrels, key=f"{PAGE}_brief")
    source = "sample" if widget_state.widget_value(f"{PAGE}_source", "sample") == "sample" else "upload"
    files = notebook_button.file_sources([(source, run), (source, qrels)], f"{PAGE}_notebook_embed")
    nb = notebooks.why_tools_differ(*files, measure, first, second)
    notebook_button.button(nb, "ir-metrics-why-tools-differ.ipynb", f"{PAGE}_notebook")
    _per_query(found, run, qrels)


render()
