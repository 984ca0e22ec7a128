"""Your data: score a run against its qrels (uploaded, the bundled samples, or paths given on the command line) with
trec_eval's numbers, the same as ``python -m metrics QRELS RUN -q``. Loading and caching live in
ir_metrics_lab.session.datasets; the numbers come from metrics.evaluation.engine. User text (file names, ids, error
lines) is shown only as plain text."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable

import pandas as pd
import streamlit as st

from ir_metrics_lab.core import cli_args, family_display, words
from ir_metrics_lab.core.exports import notebooks
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.parts import notebook_button, subtopic_upload, teaching
from ir_metrics_lab.session import dataset_state, datasets, widget_state
from ir_metrics_lab.session.datasets import Loaded
from ir_metrics_lab.shell import first_paint
from metrics import DEFAULT_MEASURES
from metrics.catalog import registry

SOURCES = {"cli": "Files given on the command line", "sample": "Sample data", "upload": "Upload files"}
MORE_MEASURES = family_display.offered_measures()
MEASURE_HELP = (
    f"Any of {', '.join(registry.canonical_names())}; trec_eval's names (P_5, ndcg_cut_20, map, recip_rank, "
    "iprec_at_recall_0.50, set_F; a bare P is its cutoffs 5 ... 1000, and official or all_trec its sets) or "
    "ir_measures' (nDCG@10, P(rel=2)@5), separated by commas or spaces."
)
HAS_DRILLDOWN = importlib.util.find_spec("ir_metrics_lab.session.drilldown") is not None
# The heights of the choices above the numbers (the measure pickers with the default measures), which a new
# visitor's first run leaves for the next (ir_metrics_lab.shell.first_paint.later), measured in Chromium.
ROOMS = {
    "measures": first_paint.Room(wide=68, phone=168, presenter=89),
    "source": first_paint.LABELLED_WIDGET,
    "sample": first_paint.Room(wide=68, phone=89, presenter=89),
    "complete": first_paint.Room(wide=24, phone=42, presenter=32),
}


def _persisted(name: str, default: object, key: str) -> tuple[object, Callable[[], None]]:
    """Seed widget ``key`` from the page's saved setting: (the value to give as the widget's default, the on_change
    that saves it). Widget keys are dropped on page switches, the setting is not."""
    shown = widget_state.sync_widget(key, dataset_state.dataset_setting(name, default))

    def save() -> None:
        dataset_state.set_dataset_setting(name, widget_state.widget_value(key))

    return shown, save


def _chosen(name: str, default: object, key: str) -> object:
    """What widget ``key``, seeded from the page's setting ``name``, shows
    (ir_metrics_lab.session.dataset_state.shown_setting)."""
    return dataset_state.shown_setting(key, default, setting=name)


def _choose_source(cli: cli_args.CliFiles) -> str:
    options = [s for s in SOURCES if s != "cli" or cli.given]
    default = "cli" if cli.given else "sample"
    if dataset_state.dataset_setting("source", default) not in options:
        dataset_state.set_dataset_setting("source", default)

    def picker() -> None:
        shown, save = _persisted("source", default, "yd_source")
        st.radio(
            "Data",
            options,
            index=widget_state.option_index(options, shown),
            format_func=SOURCES.get,
            horizontal=True,
            key="yd_source",
            on_change=save,
        )

    first_paint.later("yd_source_picker", picker, ROOMS["source"])
    return _chosen("source", default, "yd_source")


def _sample_files() -> tuple[Loaded, Loaded]:

    def picker() -> None:
        shown, save = _persisted("sample_system", "dense", "yd_sample_system")
        st.radio(
            "Sample system",
            list(datasets.SAMPLE_RUNS),
            index=widget_state.option_index(datasets.SAMPLE_RUNS, shown),
            format_func=lambda s: f"{s} ({datasets.SAMPLE_ROLES[s]})",
            horizontal=True,
            key="yd_sample_system",
            on_change=save,
        )

    first_paint.later("yd_sample_picker", picker, ROOMS["sample"])
    system = _chosen("sample_system", "dense", "yd_sample_system")
    st.caption(datasets.SAMPLE_DESCRIPTION)
    return datasets.load_path("run", datasets.SAMPLE_RUNS[system]), datasets.load_path("qrels", datasets.SAMPLE_QRELS)


def _uploaded_files() -> tuple[Loaded | None, Loaded | None]:
    st.caption(
        f"{datasets.FORMATS_HELP} Up to **{datasets.upload_limit_mb()} MB** per file (the server's "
        "`server.maxUploadSize`, set in `.streamlit/config.toml`). Very large runs load faster from disk: "
        "`ir-metrics-lab --run RUN --qrels QRELS` (in a clone: `streamlit run app.py -- --run RUN --qrels QRELS`)."
    )
    run_col, qrels_col = st.columns(2, gap="medium")
    with run_col:
        run = datasets.upload_input("yd_run", "run", "Run file", key="yd_run_upload")
        datasets.show_status(run)
    with qrels_col:
        qrels = datasets.upload_input("yd_qrels", "qrels", "Qrels file", key="yd_qrels_upload")
        datasets.show_status(qrels)
    return run, qrels


def _command_line_files(cli: cli_args.CliFiles) -> tuple[Loaded | None, Loaded | None]:
    run_path = cli.runs[0] if cli.runs else None
    if len(cli.runs) > 1:
        shown, save = _persisted("cli_run", cli.runs[0], "yd_cli_run")
        run_path = st.selectbox(
            "Run", cli.runs, index=widget_state.option_index(cli.runs, shown), key="yd_cli_run", on_change=save
        )
    run_col, qrels_col = st.columns(2, gap="medium")
    with run_col:
        run = datasets.path_input("yd_cli_run", "run", run_path) if run_path else None
        if run is None:
            st.info("No run was given: add `--run PATH` to the command line (after `--` with `streamlit run`).")
        datasets.show_status(run)
    with qrels_col:
        qrels = datasets.path_input("yd_cli_qrels", "qrels", cli.qrels) if cli.qrels else None
        if qrels is None:
            st.info("No qrels were given: add `--qrels PATH` to the command line (after `--` with `streamlit run`).")
        datasets.show_status(qrels)
    return run, qrels


def _measure_pickers() -> None:
    pick_col, more_col = st.columns([3, 2], gap="medium")
    with pick_col:
        shown, save = _persisted("measures", list(DEFAULT_MEASURES), "yd_measures")
        st.multiselect(
            "Common measures",
            widget_state.options_with([*DEFAULT_MEASURES, *MORE_MEASURES], shown),
            default=shown,
            key="yd_measures",
            on_change=save,
            accept_new_options=True,
        )
    with more_col:
        shown, save = _persisted("more_measures", "", "yd_more_measures")
        st.text_input(
            "More measures (type them)",
            value=shown,
            key="yd_more_measures",
            on_change=save,
            placeholder="e.g. P@5, nDCG@20",
            help=MEASURE_HELP,
        )


def _choose_measures(diverse: list[str]) -> list[str] | None:
    """The measures to score: the pickers' and ``diverse`` (the diversity measures picked), one per measure."""
    first_paint.later("yd_measure_pickers", _measure_pickers, ROOMS["measures"])
    # The pickers' values, or before they are drawn (ir_metrics_lab.shell.first_paint) the saved ones they will show.
    chosen = _chosen("measures", list(DEFAULT_MEASURES), "yd_measures")
    extra = _chosen("more_measures", "", "yd_more_measures")
    names, errors = datasets.parse_measures([*chosen, *diverse], extra)
    for error in errors:
        st.error(plain(error[:1].upper() + error[1:]), icon=":material/error:")
    if not names:
        st.info("Choose at least one measure.")
        return None
    return names


def _judged(coverage) -> None:
    """How many retrieved documents are judged, and a warning with both files' ids when none or almost none are."""
    if coverage.retrieved == 0:
        return
    st.caption(
        f"Judged: **{coverage.judged:,} of the {words.count(coverage.retrieved, 'document')}** the run retrieves for "
        f"the queries both files have ({coverage.fraction:.1%}); unjudged ones score as non-relevant."
    )
    if coverage.almost_none:
        example = (
            f"For query {coverage.query}, the run retrieves e.g. {coverage.run_doc!r} and the qrels judge e.g. "
            f"{coverage.qrels_doc!r}."
        )
        lead = "No retrieved document is judged" if coverage.judged == 0 else "Almost no retrieved document is judged"
        st.warning(
            plain(
                f"{lead}, so every measure is near 0 for lack of judgments, not of quality. Are the doc ids written "
                f"the same way in both files (a prefix, leading zeros, a different id scheme)? {example}"
            ),
            icon=":material/warning:",
        )


def _counts(evaluation, run: Loaded, qrels: Loaded) -> None:
    """The query counts; ``qrels`` is the file the query set comes from (the subtopic qrels when alone)."""
    counts = evaluation.counts
    cards = st.columns(4)
    cards[0].metric("Queries evaluated", f"{counts.evaluated:,}", help="The queries in the means.", border=True)
    cards[1].metric(
        "Only in the run",
        f"{counts.only_in_run:,}",
        help=f"Queries of {plain(run.name)} with no judgments.",
        border=True,
    )
    cards[2].metric(
        "Only in the qrels",
        f"{counts.only_in_qrels:,}",
        help=f"Judged queries that {plain(run.name)} does not answer: "
        + ("scored 0 (-c)." if evaluation.complete else "skipped; turn on -c to score them 0."),
        border=True,
    )
    cards[3].metric(
        "No relevant doc",
        f"{counts.no_relevant:,}",
        help="Evaluated queries whose judgments have no relevant document: every measure is 0 there.",
        border=True,
    )
    if qrels.kind == "qrels":
        _judged(datasets.coverage(run, qrels))
    if evaluation.only_in_run or evaluation.only_in_qrels:
        left = {
            "left-out query": [*evaluation.only_in_run, *evaluation.only_in_qrels],
            "found only in": [run.name] * len(evaluation.only_in_run) + [qrels.name] * len(evaluation.only_in_qrels),
        }
        with st.expander("Which queries were left out", icon=":material/help:"):  # closed: its grid can come later
            first_paint.later(
                "yd_left_out",
                lambda: st.dataframe(
                    pd.DataFrame(left), hide_index=True, height=min(300, 38 + 35 * len(left["left-out query"]))
                ),
            )


def _summary_and_distributions(evaluation) -> None:
    names = datasets.numeric_names(evaluation)  # relstring's strings are in the per-query table only
    strings = ", ".join(evaluation.texts)
    summary_col, chart_col = st.columns([2, 5], gap="large")
    with summary_col:
        st.subheader("Means", anchor=False)
        how = dict(zip((m.name for m in evaluation.measures), datasets.summary_labels(evaluation), strict=True))
        summary = pd.DataFrame(
            {
                "measure": names,
                "mean": [evaluation.means[name] for name in names],
                "over queries": [how[name] for name in names],
            }
        )
        if names:
            st.dataframe(
                summary,
                hide_index=True,
                key="yd_summary",
                column_config={
                    "mean": st.column_config.NumberColumn(
                        "all",
                        format="%.4f",
                        help="trec_eval's 'all' line: the mean over queries; the sum for num_*, the geometric mean "
                        "for gm_map",
                    )
                },
            )
        evaluated = words.count(evaluation.counts.evaluated, "query")
        st.caption(f"Over {evaluated}; the same numbers as `python -m metrics`.")
        if strings:
            st.caption(plain(f"{strings}: a string per query (no mean), in the table below."))
    with chart_col:
        st.subheader("Distribution over queries", anchor=False)
        if not names:
            st.caption(plain(f"No number to chart: {strings} gives a string per query, shown in the table below."))
            return
        tabs = st.tabs([plain(name, one_line=True) for name in names], key="yd_dist_tab", on_change="rerun")
        for name, tab in zip(names, tabs, strict=True):
            with tab:
                if tab.open:  # only the open tab's chart is built and sent
                    figure = datasets.distribution_figure(evaluation.per_query[name], name, evaluation.means[name])
                    teaching.chart(figure, key=f"yd_dist_{name}")


def _per_query(evaluation, run: Loaded, qrels: Loaded | None) -> None:
    """The per-query table; a row opens its query in the playground when there are plain qrels."""
    drilldown_on = HAS_DRILLDOWN and qrels is not None
    st.subheader("Per query", anchor=False)
    frame = evaluation.to_frame().reset_index()
    config = {"query": st.column_config.TextColumn("query", pinned=True)}
    config.update(
        {name: st.column_config.NumberColumn(name, format="%.4f") for name in datasets.numeric_names(evaluation)}
    )
    st.caption(
        f"{words.count(len(frame), 'query')}. Click a column header to sort; search with the magnifier at the "
        "table's top right." + (" Select a row to open that query in the playground." if drilldown_on else "")
    )
    event = st.dataframe(
        frame,
        hide_index=True,
        column_config=config,
        key="yd_per_query",
        on_select="rerun" if drilldown_on else "ignore",
        selection_mode="single-row",
    )
    download_col, open_col = st.columns([1, 2], vertical_alignment="center")
    download_col.download_button(
        "Per-query values (.csv)",
        frame.to_csv(index=False).encode("utf-8"),
        file_name=f"{run.name.split('.')[0] or 'run'}-per-query.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
        key="yd_download",
        help="One row per evaluated query, full precision.",
    )
    if drilldown_on and qrels is not None:
        rows = event.selection.rows if event is not None else []
        if rows:
            query_id = str(frame["query"].iloc[rows[0]])
            label = plain(f"Open query {query_id} in the playground", one_line=True)
            if open_col.button(label, icon=":material/open_in_new:"):
                from ir_metrics_lab.session import drilldown

                drilldown.open_in_playground(run.value, qrels.value, query_id, top_n=20)


def _results(run: Loaded, qrels: Loaded | None, names: list[str], subtopics: Loaded | None, diverse: list[str]) -> None:
    """The scores; ``qrels`` None: the subtopic qrels alone, with the diversity measures on ndeval's query set."""
    mismatch = datasets.no_overlap_message(run, qrels) if qrels is not None else None
    if mismatch:
        st.error(plain(mismatch), icon=":material/link_off:")
        return
    _which_queries_count(subtopics_alone=qrels is None)

    def switch() -> None:
        shown, save = _persisted("complete", False, "yd_complete")
        st.toggle(
            "Count judged queries missing from the run as 0 (trec_eval -c)",
            value=bool(shown),
            key="yd_complete",
            on_change=save,
        )

    first_paint.later("yd_complete_switch", switch, ROOMS["complete"])
    complete = bool(_chosen("complete", False, "yd_complete"))
    try:
        with st.spinner("Evaluating…", show_time=True):
            evaluation = datasets.evaluate_loaded(run, qrels, names, complete, subtopics)
    except ValueError as error:
        st.error(plain(str(error).splitlines()[0] if str(error) else type(error).__name__), icon=":material/error:")
        return
    except Exception as error:  # never a traceback on the page
        st.error(
            f"Unexpected error while evaluating ({type(error).__name__}); please report it.", icon=":material/error:"
        )
        return
    _counts(evaluation, run, qrels or subtopics)
    if datasets.subtopics_in_use(subtopics) is not None:
        subtopic_upload.overlap_warning(run, subtopics)
        lacking = " A query the subtopic qrels lack scores 0 on them (ndeval's row for it)." if qrels else ""
        st.caption(subtopic_upload.ORDER_NOTE + lacking)
    first_paint.rest_next_run()  # the rest below the numbers comes with the next run (ir_metrics_lab.shell.first_paint)
    if evaluation.counts.evaluated == 0:
        st.warning("No query can be evaluated with these files.")
        return
    _summary_and_distributions(evaluation)
    _per_query(evaluation, run, qrels)
    _notebook(run, qrels, names, complete, subtopics)


def _which_queries_count(subtopics_alone: bool) -> None:
    st.subheader("Which queries count", anchor=False)
    if subtopics_alone:
        st.markdown(
            "With subtopic qrels alone, ndeval's query set: the run's topics the subtopic qrels judge; a judged topic "
            "the run does not answer is skipped, unless `-c` counts it as 0. Plain qrels add trec_eval's measures."
        )
    else:
        st.markdown(
            "trec_eval scores the queries found in **both** files: a run query with no judgments is ignored, and a "
            "judged query the run does not answer is skipped, unless `-c` counts it as 0 (fairer when systems answer "
            "different queries)."
        )


def _notebook(run: Loaded, qrels: Loaded | None, names: list[str], complete: bool, subtopics: Loaded | None) -> None:
    """The page as a notebook, which reads plain qrels only: without the diversity measures, none without qrels."""
    in_notebook = names
    if qrels is None:
        st.caption("No notebook download: a notebook reads plain qrels, not subtopic qrels.")
        return
    if datasets.subtopics_in_use(subtopics) is not None:
        in_notebook = subtopic_upload.without_subtopics(names)
        st.caption("The notebook leaves out the diversity measures: it reads no subtopic qrels.")
    if in_notebook:
        source = "sample" if _chosen("source", "sample", "yd_source") == "sample" else "upload"
        files = notebook_button.file_sources([(source, run), (source, qrels)], "yd_notebook_embed")
        nb = notebooks.evaluate_run(*files, in_notebook, complete=complete)
        notebook_button.button(nb, "ir-metrics-evaluate-run.ipynb", "yd_notebook")


st.title("Evaluate a run")
st.caption(
    "Score a run against its relevance judgments (qrels) with trec_eval's conventions: the numbers equal "
    "`python -m metrics QRELS RUN -q`. Start with the sample data, or upload your own files."
)


def render() -> None:
    """The page below the title. Its files live in this function's locals, not the page's globals: a widget callback
    defined on this page keeps the globals of the run that drew it, so a file held there would outlive its
    replacement (measured: the 7M-row run stayed in memory after a one-line file replaced it)."""
    cli = cli_args.parse(sys.argv[1:])
    for problem in cli.problems:
        st.warning(plain(f"Command line: {problem}"), icon=":material/terminal:")

    source = _choose_source(cli)
    if source == "sample":
        run, qrels = _sample_files()
    elif source == "upload":
        run, qrels = _uploaded_files()
    else:
        run, qrels = _command_line_files(cli)
    subtopics = subtopic_upload.upload("yd")

    st.subheader("Measures", anchor=False)
    diverse = subtopic_upload.measures("yd", subtopics)
    names = _choose_measures(diverse)
    alone = qrels is None and datasets.subtopics_in_use(subtopics) is not None and run is not None and run.ok
    if alone:  # no plain qrels: the diversity measures only
        picked = subtopic_upload.diversity_only(names or [])
        if picked:
            st.caption("No plain qrels: only the diversity measures are scored, from the subtopic qrels.")
            _results(run, None, picked, subtopics, diverse)
        else:
            st.info("Pick a diversity measure: without plain qrels, only those are scored.")
    elif run is None or qrels is None or not (run.ok and qrels.ok):
        if source == "sample":  # the bundled files always load; say so if they did not
            datasets.show_status(run)
            datasets.show_status(qrels)
        st.info("Load a run and its qrels to see the scores.", icon=":material/upload_file:")
    elif names:
        _results(run, qrels, names, subtopics, diverse)


render()
