"""The shared task's results panels (ir_metrics_lab.classroom.task_results) in AppTest, on a task part-way through
judging (tests/shared_task_results_data.py): the pool's numbers, the leaderboard of the qrels so far, each run's
plain-words sentence true of the leave-one-out table shown beside it, the downloads, and a run opened in Compare
runs and Evaluate a run. The numbers themselves are checked against ir-metrics-compare, trec_eval and pytrec_eval in
tests/test_shared_task_exports.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.classroom import task_results
from ir_metrics_lab.core.classroom import store, task_store
from ir_metrics_lab.core.figures import leaderboard as board_tables
from ir_metrics_lab.core.shared_task import exports
from ir_metrics_lab.core.shared_task.bias import ordinal
from ir_metrics_lab.session import dataset_state
from tests import shared_task_results_data as data
from tests.markdown_text import shown, table_rows

PAGE = str(Path(__file__).parent / "task_results_page.py")


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    database = f"sqlite+pysqlite:///{tmp_path_factory.mktemp('db') / store.SQLITE_FILE}"
    tasks, code, _ = data.build(database)
    yield database, code, tasks.snapshot(code)
    store.dispose_engine(database)
    task_store._CREATED.discard(database)


@pytest.fixture
def page(task, monkeypatch) -> AppTest:
    database, code, _ = task
    monkeypatch.setenv("TASK_RESULTS_DB", database)
    monkeypatch.setenv("TASK_RESULTS_CODE", code)
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception
    return at


def _markdown(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def _table(at: AppTest, *header: str) -> list[list[str]]:
    """The rows of the Markdown table with this header, as a reader sees its cells."""
    (rows,) = [rows[1:] for rows in map(table_rows, _markdown(at)) if rows and tuple(rows[0]) == header]
    return rows


def test_the_pool_panel_shows_sizes_unique_documents_and_the_overlap(page, task):
    snapshot = task[2]
    pool = snapshot.pool()
    text = "\n".join(shown(m, ("strong",)) for m in _markdown(page) if not m.startswith("|"))
    assert f"{len(pool.items())} documents to judge over 6 topics" in text
    sizes = _table(page, "topic", "title", "pooled documents")
    assert sizes == [[topic, f"Topic {topic[1:]}", str(size)] for topic, size in pool.sizes().items()]
    unique = _table(page, "run", "found by no other run")
    assert unique == [[run, str(n)] for run, n in pool.unique_counts().items()]
    assert unique[2][0] == "our/best *run*"  # a typed name shows as typed
    assert page.get("plotly_chart")  # the overlap chart, with its text one click away
    assert (
        "Heatmap, Overlap of the runs' pooled documents: overlap for each run (rows) and run (columns), 4 by 4." in text
    )
    overlap = _table(page, "run", *snapshot.runs)
    assert overlap[0] == [
        "bm25",
        "1.0000",
        *(f"{o.jaccard:.4f}" for (a, _), o in pool.overlaps().items() if a == "bm25"),
    ]


def test_the_leaderboard_panel_is_the_compare_table_on_the_qrels_so_far(page, task):
    snapshot = task[2]
    board = exports.leaderboard(snapshot)
    assert board is not None
    assert board_tables.markdown(board) in _markdown(page)
    shares = exports.judged_share(snapshot)
    assert _table(page, "run", "judged in its top 10") == [
        [board_tables.run_label(board, run), f"{shares[run]:.0%}"] for run in board.runs
    ]
    assert any("6 of 6 topics have one" in c.value for c in page.caption)


def _bias_rows(at: AppTest) -> dict[tuple[str, str], list[str]]:
    """The leave-one-out table as the page shows it: (run, measure) -> the other cells."""
    return {(row[0], row[1]): row[2:] for row in _table(at, *task_results.BIAS_HEADER)}


def test_each_run_s_sentence_is_true_of_the_table_shown(page, task):
    """Every number a sentence names is the table's (to 3 decimals), its ranks are the table's, and the measure it
    says holds up best moved least."""
    snapshot = task[2]
    rows = _bias_rows(page)
    sentences = [shown(m) for m in _markdown(page) if " alone found " in m and not m.startswith("|")]
    assert len(sentences) == len(snapshot.runs)
    for run, said in zip(snapshot.runs, sentences, strict=True):
        assert said.startswith(f"{run} alone found ")
        unique, score, without, change, rank, rank_without = rows[run, "AP"]
        assert f"alone found {unique} pooled documents" in said
        for measure in ("AP", "bpref", "infAP"):
            _, score, without, change, _, _ = rows[run, measure]
            verb = "falls" if float(change) < 0 else "rises"
            moved = f"{measure} {verb} from {float(score):.3f} to {float(without):.3f}"
            if float(change) == 0:
                moved = f"{measure} stays at {float(score):.3f}"
            assert moved in said
        _, _, _, _, rank, rank_without = rows[run, "AP"]
        place = (
            f"keeps its place ({ordinal(int(rank))})"
            if rank == rank_without
            else f"from {ordinal(int(rank))} to {ordinal(int(rank_without))}"
        )
        assert f"by AP, it {place}" in said or f"by AP, it drops {place}" in said or f"by AP, it climbs {place}" in said
        best = re.search(r"(\w+) holds up best", said)
        if best:
            changes = {m: abs(float(rows[run, m][3])) for m in ("AP", "bpref", "infAP")}
            assert changes[best[1]] == min(changes.values()) and sorted(changes.values())[1] > changes[best[1]]


def test_every_takeaway_has_a_download_button(page, task):
    labels = [b.proto.label for b in page.get("download_button")]
    assert labels == [
        "Qrels (TREC)",
        "All runs (zip)",
        "Leaderboard (CSV)",
        "Leaderboard (LaTeX)",
        "Leave one out (CSV)",
        "Notebook",
        "Everything (zip)",
        "Download the brief",
        "Download as PDF",
    ]


def test_a_run_opens_in_evaluate_and_all_in_compare(task, monkeypatch):
    """The hand-over fills the data pages' upload slots with the task's files, as if uploaded there."""
    database, code, snapshot = task
    monkeypatch.setenv("TASK_RESULTS_DB", database)
    monkeypatch.setenv("TASK_RESULTS_CODE", code)
    slots = {}
    monkeypatch.setattr(dataset_state, "set_loaded_file", lambda slot, loaded: slots.__setitem__(slot, loaded))
    monkeypatch.setattr(task_results.st, "switch_page", lambda page: slots.__setitem__("page", page))
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.selectbox(key="task_results_open_run").set_value("dense").run()
    at.button(key="task_results_open_evaluate").click().run()
    assert not at.exception
    assert slots["page"].name == "your_data.py"
    assert slots["yd_run"].value.to_rankings() == {t: list(d) for t, d in snapshot.runs["dense"].rankings.items()}
    assert slots["yd_qrels"].value.to_dict() == exports.qrels(snapshot)
    at.button(key="task_results_open_compare").click().run()
    assert slots["page"].name == "compare_runs.py"
    assert [loaded.name for loaded in slots["cmp_runs"]] == [Path(f).name for f in exports.run_files(snapshot).values()]


def test_the_leaderboard_follows_a_new_judgment(tmp_path, monkeypatch):
    """A judgment made while the page is open shows at its next run: the cached leaderboard is keyed by the qrels."""
    database = f"sqlite+pysqlite:///{tmp_path / store.SQLITE_FILE}"
    tasks, code, _ = data.build(database)
    monkeypatch.setenv("TASK_RESULTS_DB", database)
    monkeypatch.setenv("TASK_RESULTS_CODE", code)
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    before = tasks.snapshot(code)
    assert before is not None
    waiting = sorted(item for item, judges in before.assigned.items() if item not in before.grades)
    topic, doc = waiting[0]
    for judge in before.assigned[topic, doc]:
        tasks.judge(code, judge, topic, doc, 3)  # a relevant document nobody had judged
    after = tasks.snapshot(code)
    assert after is not None
    old, new = exports.leaderboard(before), exports.leaderboard(after)
    assert old is not None and new is not None and old.means != new.means
    assert board_tables.markdown(old) in _markdown(at)
    at.run()
    assert not at.exception
    assert board_tables.markdown(new) in _markdown(at) and board_tables.markdown(old) not in _markdown(at)
    store.dispose_engine(database)
    task_store._CREATED.discard(database)
