"""Compare runs: a leaderboard of two or more runs on one qrels (means, the best per column, ranx-style letters for
significant wins under the chosen test and correction), where the runs differ query by query, and the pair view of any
two runs (per-query waterfall, wins/ties/losses, bootstrap CI, paired tests), from which a query opens on Retriever A vs
B with both real rankings, or in the playground. Numbers come from metrics.evaluation.engine,
metrics.compare.leaderboard and metrics.compare.significance (through ir_metrics_lab.session.datasets,
ir_metrics_lab.core.figures.leaderboard and the pair view's ir_metrics_lab.parts.run_pair); this page renders."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import streamlit as st

from ir_metrics_lab.core import cli_args, family_display
from ir_metrics_lab.core.exports import notebooks
from ir_metrics_lab.core.figures import heatmaps, leaderboard
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.parts import brief_download, notebook_button, run_pair, subtopic_upload, teaching
from ir_metrics_lab.session import dataset_state, datasets, widget_state
from ir_metrics_lab.shell import first_paint
from metrics.catalog import measure_lists, registry
from metrics.compare.leaderboard import CORRECTIONS, TESTS, query_order, run_name, unique_names

PAGE = "cmp"
DEFAULT_MEASURES = list(registry.default_measures())
CHOICES = list(family_display.suggested_measures())
SOURCES = {"sample": "Sample data", "upload": "Upload files", "cli": "Files given on the command line"}
SAMPLE_ORDER = ["bm25", "dense", "rrf"]  # the baseline first, as a paper's table lists it
ALPHA = 0.05
HEATMAP_QUERIES = 100
ORDERS = {"disagreement": "Disagreement", "mean": "Hardest first", "query": "Query id"}
ORDER_SAYS = {  # for the caption under the heatmap
    "disagreement": "the runs' largest disagreement first",
    "mean": "the lowest mean over the runs first",
    "query": "by query id",
}
# The heights of the pickers and buttons that a new visitor's first run leaves for the next
# (ir_metrics_lab.shell.first_paint.later: each kind of widget is one more chunk of code to fetch before the numbers
# show), measured in Chromium with the bundled samples' defaults. The grids' rooms follow their rows
# (ir_metrics_lab.shell.first_paint.grid_room).
ROOMS = {
    "source": first_paint.LABELLED_WIDGET,
    "sample_runs": first_paint.Room(wide=68, phone=101, presenter=89),
    "measures": first_paint.Room(wide=68, phone=101, presenter=89),
    "board_settings": first_paint.Room(wide=60, phone=152, presenter=79),
    "board_exports": first_paint.Room(wide=40, phone=96, presenter=53),
    "view_settings": first_paint.Room(wide=68, phone=160, presenter=89),
    "pair_pickers": first_paint.Room(wide=68, phone=168, presenter=89),
}


# --- loading (ir_metrics_lab.session.datasets parses and caches; this page only picks the files) ---


def load_inputs() -> tuple[str, list[datasets.RunSource], datasets.Loaded | None]:
    """(source, the runs that can be compared, the qrels or None). Problems are shown here."""
    cli = cli_args.parse(sys.argv[1:])
    for problem in cli.problems:
        st.warning(plain(f"Command line: {problem}"), icon=":material/terminal:")
    options = [s for s in SOURCES if s != "cli" or cli.given]
    default = "cli" if cli.given else "sample"
    dataset_state.keep_valid_setting(f"{PAGE}_source", options, default)
    first_paint.later(
        f"{PAGE}_source_picker",
        lambda: st.radio(
            "Data",
            options,
            format_func=SOURCES.get,
            horizontal=True,
            **dataset_state.kept_widget(f"{PAGE}_source", default, options=options),
        ),
        ROOMS["source"],
    )
    source = dataset_state.shown_setting(f"{PAGE}_source", default)
    if source == "sample":
        loaded, qrels = sample_inputs()
    elif source == "upload":
        loaded, qrels = uploaded_inputs()
    else:
        sources, qrels = command_line_inputs(cli)
        return source, sources, qrels if qrels is not None and qrels.ok else _show_bad(qrels)
    for _, loaded_run in loaded:
        if not loaded_run.ok:
            datasets.show_status(loaded_run)
    sources = [datasets.loaded_source(name, run) for name, run in loaded if run.ok]
    return source, sources, qrels if qrels is not None and qrels.ok else _show_bad(qrels)


def sample_inputs() -> tuple[list[tuple[str, datasets.Loaded]], datasets.Loaded]:
    """The bundled sample runs picked (each with its name) and the sample qrels."""
    systems = [s for s in SAMPLE_ORDER if s in datasets.SAMPLE_RUNS] + [
        s for s in datasets.SAMPLE_RUNS if s not in SAMPLE_ORDER
    ]
    first_paint.later(
        f"{PAGE}_runs_picker",
        lambda: st.multiselect(
            "Runs (the first is run a)",
            systems,
            format_func=lambda s: f"{s} ({datasets.SAMPLE_ROLES.get(s, 'sample')})",
            **dataset_state.kept_widget(f"{PAGE}_sample_runs", systems),
        ),
        ROOMS["sample_runs"],
    )
    st.caption(datasets.SAMPLE_DESCRIPTION)
    loaded = [
        (name, datasets.load_path("run", datasets.SAMPLE_RUNS[name]))
        for name in dataset_state.shown_setting(f"{PAGE}_sample_runs", systems)
    ]
    return loaded, datasets.load_path("qrels", datasets.SAMPLE_QRELS)


def uploaded_inputs() -> tuple[list[tuple[str, datasets.Loaded]], datasets.Loaded | None]:
    """The uploaded runs (each with a name of its own, from its file's) and the uploaded qrels, if any."""
    st.caption(
        f"{datasets.FORMATS_HELP} Up to **{datasets.upload_limit_mb()} MB** per file. Many large runs load "
        "faster from disk: `streamlit run app.py -- --run RUN RUN ... --qrels QRELS`."
    )
    runs_col, qrels_col = st.columns([2, 1], gap="medium")
    with runs_col:
        files = datasets.upload_runs(f"{PAGE}_runs", "Runs (two or more)", key=f"{PAGE}_runs_upload")
    with qrels_col:
        qrels = datasets.upload_input(f"{PAGE}_qrels", "qrels", "Qrels", key=f"{PAGE}_qrels_upload")
    return list(zip(unique_names(run_name(item.name) for item in files), files, strict=True)), qrels


def command_line_inputs(cli: cli_args.CliFiles) -> tuple[list[datasets.RunSource], datasets.Loaded | None]:
    """The runs given on the command line, read one at a time when evaluated, and the qrels given there, if any."""
    names = unique_names(run_name(path) for path in cli.runs)
    st.caption(
        f"{len(cli.runs)} run file{'s' * (len(cli.runs) != 1)} from the command line, read one at a time: only "
        "their per-query values are kept, and a run is read again when one of its queries is opened."
    )
    qrels = datasets.path_input(f"{PAGE}_cli_qrels", "qrels", cli.qrels) if cli.qrels else None
    if qrels is None:
        st.info("No qrels were given: add `--qrels PATH` after `--` on the command line.")
    return [datasets.path_source(name, path) for name, path in zip(names, cli.runs, strict=True)], qrels


def _show_bad(qrels: datasets.Loaded | None) -> None:
    if qrels is not None:
        datasets.show_status(qrels)


# --- the leaderboard and where the runs differ ---


def leaderboard_section(mode: str, sources, qrels, measures: list[str], subtopics=None):
    """The table, its caption and exports; returns the Leaderboard (None when it cannot be built). The diversity
    measures read ``subtopics`` when loaded."""
    st.subheader("Leaderboard", anchor=False)

    def settings() -> None:
        test_col, correction_col = st.columns(2, gap="medium")
        with test_col:
            st.segmented_control(
                "Significance test",
                list(TESTS),
                format_func=TESTS.get,
                required=True,
                **dataset_state.kept_widget(f"{PAGE}_test", "t-test"),
            )
        with correction_col:
            st.segmented_control(
                "Correction over all pairs of runs",
                list(CORRECTIONS),
                format_func=CORRECTIONS.get,
                required=True,
                **dataset_state.kept_widget(f"{PAGE}_correction", "holm"),
            )

    first_paint.later(f"{PAGE}_board_settings", settings, ROOMS["board_settings"])
    test, correction = (
        dataset_state.shown_setting(f"{PAGE}_test", "t-test"),
        dataset_state.shown_setting(f"{PAGE}_correction", "holm"),
    )
    try:
        evaluations, skipped = datasets.evaluate_sources(sources, qrels, measures, subtopics)
        for message in skipped.values():
            st.error(plain(f"Skipped: {message}"), icon=":material/error:")
        if len(evaluations) < 2:
            st.info("Fewer than two runs could be read: fix the files above to compare them.", icon=":material/info:")
            return None, {}
        read = [source for source in sources if source.name in evaluations]
        with st.spinner("Testing every pair of runs ...", show_time=True):
            board = datasets.leaderboard_of(read, qrels, evaluations, test or "t-test", correction or "holm", subtopics)
    except ValueError as error:
        st.error(plain(str(error).splitlines()[0]), icon=":material/error:")
        return None, {}
    if not board.queries:
        st.warning("No query is evaluated in every run, so there is nothing to compare. Are these the right files?")
        return None, {}
    st.markdown(leaderboard.markdown(board))
    st.caption(board.caption())
    if datasets.subtopics_in_use(subtopics) is not None:
        st.caption(
            f"{subtopic_upload.ORDER_NOTE} A query the subtopic qrels lack scores 0 on them (ndeval's row for it)."
        )
    if board.left_out:
        st.caption(
            f"{board.left_out:,} quer{'y is' if board.left_out == 1 else 'ies are'} evaluated in some runs but not "
            "all, and left out of the means and tests."
        )
    first_paint.later(f"{PAGE}_board_exports", lambda: exports(board, read, qrels), ROOMS["board_exports"])
    return board, evaluations


def exports(board, read, qrels) -> None:
    """The leaderboard's download buttons, in a row."""
    stem = "leaderboard"
    with st.container(horizontal=True, gap="small"):
        for label, data, suffix, mime in (
            ("CSV", board.to_csv(), "csv", "text/csv"),
            ("Markdown", board.to_markdown(), "md", "text/markdown"),
            ("LaTeX", board.to_latex(), "tex", "application/x-tex"),
        ):
            st.download_button(
                label,
                data.encode("utf-8"),
                file_name=f"{stem}.{suffix}",
                mime=mime,
                icon=":material/download:",
                on_click="ignore",
                key=f"{PAGE}_export_{suffix}",
                help="LaTeX: a booktabs table (\\usepackage{booktabs}), best in bold, letters as superscripts."
                if suffix == "tex"
                else None,
            )
        brief_download.leaderboard(board, read, qrels, key=f"{PAGE}_brief_board")


def notebook_of(
    mode: str, sources, qrels, board, heatmap: tuple[str, str], pair: tuple[str, str, str] | None, measures: list[str]
):
    """The page as a notebook: the leaderboard of ``measures``, the heatmap and win/tie/loss table of ``heatmap``
    (measure, order), and the pair view of ``pair`` (run A, run B, the metric looked at); each run by its file's name
    (a bundled sample, a file beside the notebook, or an upload it carries)."""
    kind = "sample" if mode == "sample" else "upload"
    read = [s for s in sources if s.name in board.runs]
    loaded = [s.loaded if s.loaded is not None else _Named(Path(s.path).name) for s in read]
    *run_files, qrels_file = notebook_button.file_sources(
        [*((kind, item) for item in loaded), (kind, qrels)], f"{PAGE}_notebook_embed"
    )
    runs = {s.name: source for s, source in zip(read, run_files, strict=True)}
    return notebooks.compare_runs(
        runs,
        qrels_file,
        measures,
        test=board.test,
        correction=board.correction,
        heatmap=(*heatmap, HEATMAP_QUERIES),
        pair=pair,
    )


@dataclasses.dataclass(frozen=True)
class _Named:
    """A run given on the command line: its name, and no bytes to carry."""

    name: str
    embeddable: None = None


def choose_pair_from_matrix(board) -> None:
    """The win/tie/loss matrix's on_select: a clicked cell picks the pair view's runs (A = column, B = row)."""
    event = widget_state.widget_value(f"{PAGE}_wtl")
    cells = event.selection.cells if event is not None else []
    if not cells:
        return
    row, column = cells[0]
    pair = leaderboard.pair_from_cell(board, int(row), str(column))
    if pair:
        dataset_state.set_dataset_setting(f"{PAGE}_pair_a", pair[0])
        dataset_state.set_dataset_setting(f"{PAGE}_pair_b", pair[1])


def differ_section(board) -> tuple[str, str]:
    """The heatmap and the win/tie/loss matrix; returns the measure and order they show."""
    st.subheader("Where the runs differ", anchor=False)
    dataset_state.keep_valid_setting(f"{PAGE}_view_measure", list(board.measures), board.measures[0])

    def settings() -> None:
        measure_col, order_col = st.columns([1, 2], gap="medium")
        measure_col.selectbox(
            "Measure",
            list(board.measures),
            **dataset_state.kept_widget(f"{PAGE}_view_measure", board.measures[0], options=list(board.measures)),
        )
        with order_col:
            st.segmented_control(
                "Order queries by",
                list(ORDERS),
                format_func=ORDERS.get,
                required=True,
                **dataset_state.kept_widget(f"{PAGE}_order", "disagreement"),
            )

    first_paint.later(f"{PAGE}_view_settings", settings, ROOMS["view_settings"])
    measure, order_by = (
        dataset_state.shown_setting(f"{PAGE}_view_measure", board.measures[0]),
        dataset_state.shown_setting(f"{PAGE}_order", "disagreement"),
    )
    order = query_order(board.queries, board.per_query[measure], by=order_by or "disagreement")
    queries, values = leaderboard.heatmap_rows(board, measure, order, HEATMAP_QUERIES)
    unit = leaderboard.on_unit_scale(measure)
    labels = [leaderboard.run_label(board, run) for run in board.runs]
    teaching.chart(heatmaps.runs_heatmap(queries, labels, values, measure, unit=unit), key=f"{PAGE}_heatmap")
    shown = (
        f"the first {len(queries)} of {len(board.queries):,} queries"
        if len(queries) < len(board.queries)
        else (f"all {len(board.queries):,} queries")
    )
    st.caption(
        f"One row per run, one column per query ({shown}, {ORDER_SAYS[order_by or 'disagreement']}); "
        f"darker is a higher {measure}. Disagreement is the spread (highest minus lowest run) on a query."
    )
    st.markdown(
        f"**Wins / ties / losses on {measure}**: the row's run against the column's run, query by query. "
        "Click a cell to compare those two runs below."
    )
    first_paint.later(
        f"{PAGE}_win_tie_loss",
        lambda: st.dataframe(
            leaderboard.win_tie_loss_table(board, measure),
            hide_index=True,
            key=f"{PAGE}_wtl",
            on_select=lambda: choose_pair_from_matrix(board),
            selection_mode="single-cell",
        ),
        first_paint.grid_room(len(board.runs)),
    )
    return measure, order_by or "disagreement"


# --- the pair view ---


def pair_section(board, sources: dict, evaluations: dict, qrels) -> tuple[str, str, str] | None:
    """Two runs side by side; returns (run A, run B, the metric looked at), None when they share no query."""
    st.subheader("Two runs, query by query", anchor=False)
    names = list(board.runs)
    dataset_state.keep_valid_setting(f"{PAGE}_pair_a", names, names[0])
    dataset_state.keep_valid_setting(f"{PAGE}_pair_b", names, names[1])

    def pickers() -> None:
        col_a, col_b = st.columns(2, gap="medium")
        col_a.selectbox(
            "Run A",
            names,
            format_func=lambda r: leaderboard.run_label(board, r),
            **dataset_state.kept_widget(f"{PAGE}_pair_a", names[0], options=names),
        )
        col_b.selectbox(
            "Run B",
            names,
            format_func=lambda r: leaderboard.run_label(board, r),
            **dataset_state.kept_widget(f"{PAGE}_pair_b", names[1], options=names),
        )

    first_paint.later(f"{PAGE}_pair_pickers", pickers, ROOMS["pair_pickers"])
    name_a, name_b = (
        dataset_state.shown_setting(f"{PAGE}_pair_a", names[0]),
        dataset_state.shown_setting(f"{PAGE}_pair_b", names[1]),
    )
    metric = run_pair.pair_view(
        PAGE, evaluations[name_a], evaluations[name_b], sources[name_a], sources[name_b], qrels, name_a, name_b
    )
    return None if metric is None else (name_a, name_b, metric)


# --- the page ---

st.title("Compare runs")
st.caption(
    "Which of your runs is best, and is the lead real or luck of the query sample? Every query is scored in every "
    "run (trec_eval's conventions); the leaderboard tests every pair of runs, and any two can be looked at query by "
    "query."
)


def render() -> None:
    """The page below the title. It returns early, never st.stop(): a run cut short by st.stop() skips Streamlit's
    stale-widget cleanup, so a widget it did not draw keeps its value on the server while the browser forgets it,
    and the box redrawn later shows nothing while the old value is used (issue 11, item 1)."""
    source, sources, qrels = load_inputs()
    subtopics = subtopic_upload.upload(PAGE)
    first_paint.later(
        f"{PAGE}_measures_picker",
        lambda: st.multiselect(
            "Metrics to compare",
            widget_state.options_with(CHOICES, dataset_state.shown_setting(f"{PAGE}_measures", DEFAULT_MEASURES)),
            **dataset_state.kept_widget(f"{PAGE}_measures", DEFAULT_MEASURES),
            accept_new_options=True,
            help="Any measure name the engine knows (nDCG@10, map, P_5, recip_rank ...). RR and AP look at the whole "
            "list.",
        ),
        ROOMS["measures"],
    )
    measures = [
        *dataset_state.shown_setting(f"{PAGE}_measures", DEFAULT_MEASURES),
        *subtopic_upload.measures(PAGE, subtopics),
    ]
    if len(sources) < 2 or qrels is None:
        wanted = "two or more runs and the qrels" if source == "upload" else "at least two runs"
        st.info(f"Choose {wanted} to compare them.", icon=":material/upload_file:")
        return
    names, errors = datasets.parse_measures(measures, "")  # trec_eval's bare names expand as in the CLI
    for error in errors:
        st.error(plain(error), icon=":material/error:")
    names, strings = measure_lists.without_text_measures(names)
    if strings:
        st.caption(plain(f"Left out: {', '.join(strings)} (a string per query, no number to compare)."))
    if not names:
        st.info("Pick at least one metric.")
        return
    board, evaluations = leaderboard_section(source, sources, qrels, names, subtopics)
    if board is None:
        return
    heatmap = differ_section(board)
    pair = pair_section(board, {source.name: source for source in sources}, evaluations, qrels)

    in_notebook = list(board.measures)
    if datasets.subtopics_in_use(subtopics) is not None:  # the notebook reads no subtopic qrels
        in_notebook = subtopic_upload.without_subtopics(in_notebook)
        looked_at = [heatmap[0], *(pair[2:] if pair is not None else ())]
        if not in_notebook or any(name not in in_notebook for name in looked_at):
            st.caption(
                "The notebook reads no subtopic qrels: to download it, pick a measure other than a diversity one "
                "in the heatmap and the pair view (and keep one in the leaderboard)."
            )
            return
        st.caption("The notebook leaves out the diversity measures: it reads no subtopic qrels.")

    def notebook() -> None:
        built = notebook_of(source, sources, qrels, board, heatmap, pair, in_notebook)
        notebook_button.button(built, "ir-metrics-compare-runs.ipynb", f"{PAGE}_notebook")

    first_paint.later(f"{PAGE}_notebook_button", notebook)  # the page's end


render()
