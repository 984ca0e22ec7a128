"""What the class sees of a shared task once the pool is drawn: the pool (sizes, each run's unique documents, the
runs' overlap), the leaderboard on the qrels so far with each run's judged share of its top 10, the pooling bias
(leave one run out) and the takeaways to download. Each panel takes a TaskStore snapshot (the page reads it, and
refreshes it as judgments arrive); the numbers come from ir_metrics_lab.core.shared_task.exports, this module only
draws them. User text (run names, topic ids, the title) goes through plain() and chart_label().
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from ir_metrics_lab.core.classroom.task_store import Snapshot
from ir_metrics_lab.core.figures import leaderboard as board_tables
from ir_metrics_lab.core.figures.pool_charts import overlap_heatmap
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.paths import COMPARE_PAGE, EVALUATE_PAGE
from ir_metrics_lab.core.shared_task import exports
from ir_metrics_lab.core.shared_task.bias import RunBias, sentence
from ir_metrics_lab.core.words import count
from ir_metrics_lab.parts import brief_download, teaching
from ir_metrics_lab.session import dataset_state
from metrics.compare.leaderboard import Leaderboard

KEY = "task_results"


def _table(header: Sequence[str], rows: Sequence[Sequence[object]], right: int = 1) -> str:
    """A Markdown table of literal cells, the columns from ``right`` on aligned right (numbers)."""
    align = ["|:--" if i < right else "|--:" for i in range(len(header))]
    lines = ["| " + " | ".join(plain(h, one_line=True) for h in header) + " |", "".join(align) + "|"]
    lines += ["| " + " | ".join(plain(c, one_line=True) or " " for c in row) + " |" for row in rows]
    return "\n".join(lines)


# --- the pool ---


def pool_panel(snapshot: Snapshot) -> None:
    """Pool size per topic, each run's documents no other run pooled, and the runs' overlap (a chart with its text)."""
    summary = exports.pool_summary(snapshot)
    depth = snapshot.task.depth
    st.subheader("The pool", anchor=False)
    total = sum(summary.sizes.values())
    st.markdown(
        f"The top {depth} of every run, per topic: **{count(total, 'document')}** to judge over "
        f"{count(len(summary.sizes), 'topic')}."
    )
    titles = {t.id: t.title for t in snapshot.task.topics}
    sizes_col, unique_col = st.columns(2, gap="medium")
    with sizes_col:
        rows = [(topic, titles.get(topic, ""), n) for topic, n in summary.sizes.items()]
        st.markdown(_table(("topic", "title", "pooled documents"), rows, right=2))
    with unique_col:
        rows = [(run, n) for run, n in summary.unique.items()]
        st.markdown(_table(("run", "found by no other run"), rows))
        st.caption("A run's unique documents are the ones judged only because it took part.")
    if len(snapshot.runs) >= 2:
        runs = list(snapshot.runs)
        teaching.chart(overlap_heatmap(runs, summary.overlaps), key=f"{KEY}_overlap")
        st.caption(
            "Overlap of two runs: the pooled documents both found, over the pooled documents either found "
            "(1 = the same documents, 0 = none in common)."
        )


# --- the leaderboard ---


@st.cache_data(max_entries=64, show_spinner=False)
def _board(runs: tuple[tuple[str, str], ...], qrels: str) -> Leaderboard:
    """The leaderboard of these run texts on this qrels text: each refresh without a new judgment reuses it."""
    return exports.leaderboard_of(dict(runs), qrels)


def board_of(snapshot: Snapshot) -> Leaderboard | None:
    if exports.board_problem(snapshot):
        return None
    return _board(tuple(exports.run_texts(snapshot).items()), exports.qrels_file(snapshot))


@st.cache_data(max_entries=64, show_spinner=False)
def _bias(key: tuple, _snapshot: Snapshot) -> list[RunBias]:
    """The leave-one-out table, by the run texts, the qrels text and the depth that decide it (``key``)."""
    return exports.bias(_snapshot)


def biases_of(snapshot: Snapshot) -> list[RunBias]:
    """exports.bias, computed once per set of judgments: its readable scoring takes about a second for 26 runs."""
    key = (tuple(exports.run_texts(snapshot).items()), exports.qrels_file(snapshot), snapshot.task.depth)
    return _bias(key, snapshot)


def leaderboard_panel(snapshot: Snapshot) -> None:
    """The leaderboard of every run on the qrels so far (Compare runs' table: means, letters, Holm) and each run's
    judged share of its top 10; buttons open the runs in Compare runs and Evaluate a run."""
    st.subheader("Leaderboard", anchor=False)
    problem = exports.board_problem(snapshot)
    if problem:
        st.info(problem, icon=":material/info:")
        return
    board = board_of(snapshot)
    assert board is not None
    topics = exports.judged_topics(snapshot)
    st.markdown(board_tables.markdown(board))
    st.caption(
        f"{board.caption()} Scored on the judgments so far: {len(topics)} of {len(snapshot.task.topics)} topics "
        "have one; a topic a run left out counts 0 (`trec_eval -c`), as `ir-metrics-compare -c` on the downloaded "
        "files scores it."
    )
    shares = exports.judged_share(snapshot)
    rows = [(board_tables.run_label(board, run), f"{shares[run]:.0%}") for run in board.runs]
    st.markdown(_table(("run", "judged in its top 10"), rows))
    st.caption(
        "The share of each run's top 10 that has a judgment, averaged over the judged topics: a run scored on few "
        "judged documents is scored mostly on what nobody looked at."
    )
    _open_buttons(snapshot, board)


def _open_buttons(snapshot: Snapshot, board: Leaderboard) -> None:
    """Open the runs, with the qrels so far, in Compare runs, or one run in Evaluate a run."""
    run_col, open_col = st.columns([2, 3], vertical_alignment="bottom", gap="small")
    with run_col:
        run = st.selectbox(
            "Run to evaluate", list(board.runs), format_func=lambda r: board_tables.run_label(board, r),
            key=f"{KEY}_open_run",
        )  # fmt: skip
    with open_col, st.container(horizontal=True, gap="small"):
        if st.button("Open in Evaluate a run", icon=":material/upload_file:", key=f"{KEY}_open_evaluate"):
            _hand_over(snapshot, [run], "yd")
            st.switch_page(EVALUATE_PAGE)
        if st.button("Open all in Compare runs", icon=":material/difference:", key=f"{KEY}_open_compare"):
            _hand_over(snapshot, list(board.runs), "cmp")
            st.switch_page(COMPARE_PAGE)
    st.caption(
        "Opens the runs and the qrels so far as if uploaded there. Compare runs compares the topics every run "
        "ranked; a run that skipped a judged topic scores lower here, where that topic counts 0."
    )


def _hand_over(snapshot: Snapshot, runs: Sequence[str], page: str) -> None:
    """Put the runs and the qrels in the data pages' upload slots (ir_metrics_lab.session.dataset_state), as if
    uploaded there: Evaluate a run's (``yd``, one run, -c on) or Compare runs' (``cmp``)."""
    from ir_metrics_lab.session import datasets

    files, texts = exports.run_files(snapshot), exports.run_texts(snapshot)
    loaded = [datasets.load_bytes("run", files[r].rsplit("/", 1)[-1], texts[r].encode("utf-8")) for r in runs]
    qrels = datasets.load_bytes("qrels", exports.QRELS_FILE, exports.qrels_file(snapshot).encode("utf-8"))
    if page == "yd":
        dataset_state.set_loaded_file("yd_run", loaded[0])
        dataset_state.set_loaded_file("yd_qrels", qrels)
        dataset_state.set_dataset_setting("source", "upload")
        dataset_state.set_dataset_setting("complete", True)
    else:
        dataset_state.set_loaded_file("cmp_runs", tuple(loaded))
        dataset_state.set_loaded_file("cmp_qrels", qrels)
        dataset_state.set_dataset_setting("cmp_source", "upload")


# --- pooling bias ---


def bias_rows(biases: Sequence[RunBias]) -> list[tuple[str, ...]]:
    """The leave-one-out table's rows, as the panel shows them (one per run and measure)."""
    return [
        (
            b.run,
            b.measure,
            str(b.unique),
            f"{b.score:.4f}",
            f"{b.score_without:.4f}",
            f"{-b.drop:+.4f}",
            str(b.rank),
            str(b.rank_without),
        )
        for b in biases
    ]


BIAS_HEADER = ("run", "measure", "unique documents", "score", "without them", "change", "rank", "rank without")


def bias_panel(snapshot: Snapshot) -> None:
    """Leave one run out: each run scored again without the documents only it found (AP, bpref, infAP), and a
    sentence per run saying what moved."""
    st.subheader("Pooling bias: leave one run out", anchor=False)
    st.markdown(
        "Had a run not taken part, the documents only it found would never have been judged. Each run is scored "
        "again on the qrels without them (Zobel, SIGIR 1998); the other runs keep their scores. AP reads an "
        "unjudged document as not relevant; bpref and infAP were built to hold up when judgments are missing."
    )
    biases = biases_of(snapshot)
    if not biases:
        st.info("This needs at least two runs and one judgment.", icon=":material/info:")
        return
    grouped: Mapping[str, list[RunBias]] = exports.by_run(biases)
    for run_biases in grouped.values():
        st.markdown(plain(sentence(run_biases)))
    st.markdown(_table(BIAS_HEADER, bias_rows(biases), right=2))
    st.caption(
        "Scores are means over the judged topics; ranks are among every run's scores on the full qrels "
        "(1 + the runs strictly above)."
    )


# --- the takeaways ---


def downloads_panel(snapshot: Snapshot) -> None:
    """A download button for each takeaway: qrels, runs, leaderboard (CSV, LaTeX), the leave-one-out table, the
    notebook, everything in one zip, and the brief. The zips, the notebook and the brief are built when their button
    is clicked (Streamlit calls the function then), so a refresh as judgments arrive does not pay for them."""
    st.subheader("Take it home", anchor=False)
    board = board_of(snapshot)
    files: list[tuple[str, object, str, str, str | None]] = [
        ("Qrels (TREC)", exports.qrels_file(snapshot), exports.QRELS_FILE, "text/plain", "topic 0 document grade"),
        ("All runs (zip)", lambda: exports.runs_zip(snapshot), exports.RUNS_ZIP, "application/zip", None),
    ]
    if board is not None:
        files += [
            ("Leaderboard (CSV)", exports.leaderboard_csv(board), exports.LEADERBOARD_CSV, "text/csv", None),
            (
                "Leaderboard (LaTeX)",
                exports.leaderboard_latex(board),
                exports.LEADERBOARD_TEX,
                "application/x-tex",
                "A booktabs table (\\usepackage{booktabs}), best in bold, letters as superscripts.",
            ),
        ]
    biases = biases_of(snapshot)
    if biases:
        files.append(("Leave one out (CSV)", exports.bias_csv(biases), exports.BIAS_CSV, "text/csv", None))
    files += [
        (
            "Notebook",
            lambda: exports.notebook_text(snapshot),
            exports.NOTEBOOK_FILE,
            "application/x-ipynb+json",
            "Rebuilds every score from qrels.txt and runs/ beside it, with the metrics library.",
        ),
        (
            "Everything (zip)",
            lambda: exports.takeaways_zip(snapshot, board),
            exports.TAKEAWAYS_ZIP,
            "application/zip",
            "The qrels, the runs, the leaderboard, the leave-one-out table and the notebook, ready to run.",
        ),
    ]
    with st.container(horizontal=True, gap="small"):
        for label, data, name, mime, help_text in files:
            st.download_button(
                label,
                _encoded(data),
                file_name=name,
                mime=mime,
                icon=":material/download:",
                on_click="ignore",
                key=f"{KEY}_download_{name}",
                help=help_text,
            )
    if board is None:
        st.caption("The leaderboard's files and the brief come with the leaderboard: two runs and a first judgment.")
    else:
        brief_download.task(snapshot, key=f"{KEY}_brief")


def _encoded(data: object):
    """Text as UTF-8 bytes; a function (built on click) returning text, wrapped to do the same."""
    if callable(data):
        return lambda: _encoded(data())
    return data.encode("utf-8") if isinstance(data, str) else data
