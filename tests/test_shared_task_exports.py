"""A shared task's takeaways (ir_metrics_lab.core.shared_task.exports), checked against tools that are not ours, on
the downloaded files alone: the leaderboard against ``ir-metrics-compare -c`` run on them (issue #48's done
criterion), the qrels as trec_eval reads them (TREC_EVAL_BIN), the leave-one-out table against pytrec_eval, the judged
shares by hand, and the notebook run top to bottom."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest
import pytrec_eval
from nbclient import NotebookClient

from ir_metrics_lab.core.classroom import store, task_store
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.shared_task import exports
from tests import shared_task_results_data as data

TREC_EVAL_BIN = os.environ.get("TREC_EVAL_BIN", "")


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory):
    database = f"sqlite+pysqlite:///{tmp_path_factory.mktemp('db') / store.SQLITE_FILE}"
    yield data.snapshot(database)
    store.dispose_engine(database)
    task_store._CREATED.discard(database)


@pytest.fixture(scope="module")
def folder(snapshot, tmp_path_factory) -> Path:
    """The takeaways zip, unzipped as a student would."""
    where = tmp_path_factory.mktemp("takeaways")
    zipfile.ZipFile(io.BytesIO(exports.takeaways_zip(snapshot))).extractall(where)
    return where


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    for line in path.read_text().splitlines():
        topic, _, doc, grade = line.split()
        qrels.setdefault(topic, {})[doc] = int(grade)
    return qrels


def read_run(path: Path) -> dict[str, dict[str, float]]:
    run: dict[str, dict[str, float]] = {}
    for line in path.read_text().splitlines():
        topic, _, doc, _, score, _ = line.split()
        run.setdefault(topic, {})[doc] = float(score)
    return run


def ranked(scores: dict[str, float]) -> list[str]:
    """trec_eval's order: score descending, ties by document id descending."""
    return sorted(scores, key=lambda d: (scores[d], d), reverse=True)


def ir_metrics_compare(folder: Path, files: dict[str, str], fmt: str) -> str:
    """``ir-metrics-compare -c`` in ``folder`` on qrels.txt and the run files (run name -> path), each run named."""
    names = [arg for name in files for arg in ("-n", name)]
    command = [sys.executable, "-m", "metrics.cli.ir_metrics_compare", "-c", "--quiet", "--format", fmt]
    command += [*names, "qrels.txt", *files.values()]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, check=True).stdout


def test_the_zip_holds_the_qrels_every_run_and_the_notebook(snapshot, folder):
    files = exports.run_files(snapshot)
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == sorted(
        [*files.values(), "qrels.txt", "shared-task.ipynb", "leaderboard.csv", "leaderboard.tex", "leave-one-out.csv"]
    )
    for name, run in snapshot.runs.items():
        assert (folder / files[name]).read_text() == run.body
    assert files["our/best *run*"] == "runs/our_best_run.txt"  # a typed name never leaves its folder
    # the qrels: every judged or settled item once, the settlement's grade winning over the judges'
    judged = {item for item, grades in snapshot.grades.items() if grades} | set(snapshot.settled)
    qrels = read_qrels(folder / "qrels.txt")
    assert {(t, d) for t, docs in qrels.items() for d in docs} == judged
    for (topic, doc), grade in snapshot.settled.items():
        assert qrels[topic][doc] == grade
    assert judged < set(snapshot.pool().items())  # some pooled documents are not judged yet: not in the qrels


def test_the_leaderboard_is_ir_metrics_compare_on_the_downloaded_files(snapshot, folder):
    files = exports.run_files(snapshot)
    board = exports.leaderboard(snapshot)
    assert board is not None and len(board.queries) == 6
    for fmt, ours in (("csv", exports.leaderboard_csv(board)), ("latex", exports.leaderboard_latex(board))):
        assert ir_metrics_compare(folder, files, fmt) == ours
    assert (folder / "leaderboard.csv").read_text() == exports.leaderboard_csv(board)


def test_the_qrels_are_read_by_trec_eval_as_written(snapshot, folder):
    """trec_eval -c on the downloaded qrels and a run: its relevant counts are the qrels' and its MAP the board's."""
    if not TREC_EVAL_BIN:
        pytest.skip("TREC_EVAL_BIN is not set: point it at a trec_eval 10.0 binary")
    qrels = read_qrels(folder / "qrels.txt")
    board = exports.leaderboard(snapshot)
    assert board is not None
    for name, file in exports.run_files(snapshot).items():
        command = [TREC_EVAL_BIN, "-q", "-c", "-m", "num_rel", "-m", "map", "qrels.txt", file]
        out = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=True).stdout
        rows = {(m, q): v for m, q, v in (line.split() for line in out.splitlines())}
        for topic, docs in qrels.items():
            assert int(rows["num_rel", topic]) == sum(g >= 1 for g in docs.values())
        assert float(rows["map", "all"]) == pytest.approx(board.means["AP"][name], abs=5e-5)


def test_the_judged_share_is_the_judged_part_of_each_top_10(snapshot, folder):
    qrels = read_qrels(folder / "qrels.txt")
    shares = exports.judged_share(snapshot)
    for name, file in exports.run_files(snapshot).items():
        run = read_run(folder / file)
        per_topic = []
        for topic in qrels:  # by hand: judged documents in the top 10 over the documents there; none ranked: 0
            top = ranked(run.get(topic, {}))[:10]
            per_topic.append(sum(d in qrels[topic] for d in top) / len(top) if top else 0.0)
        assert shares[name] == pytest.approx(sum(per_topic) / len(per_topic))


LOO_MEASURES = {"AP": "map", "bpref": "bpref", "infAP": "infAP"}  # the table's measures, as pytrec_eval names them


def leave_one_out_by_hand(
    qrels: dict[str, dict[str, int]], runs: dict[str, dict[str, dict[str, float]]], depth: int
) -> dict[tuple[str, str], tuple[int, float, float, int, int]]:
    """(run, measure) -> (unique documents, score, score without them, rank, rank without), from the files alone: the
    pool rebuilt from the runs (each run's top ``depth``), each run's unique documents taken out of the qrels, every
    score by pytrec_eval (a judged topic a run lacks counts 0), ranks by counting the runs above. Also used by the
    end-to-end browser test (tests/browser/test_shared_task_browser.py) on the files its page downloads."""
    pooled: dict[tuple[str, str], set[str]] = {}
    for name, run in runs.items():
        for topic, scores in run.items():
            for doc in ranked(scores)[:depth]:
                pooled.setdefault((topic, doc), set()).add(name)

    def means(run: dict, judged: dict) -> dict[str, float]:
        per_topic = pytrec_eval.RelevanceEvaluator(judged, set(LOO_MEASURES.values())).evaluate(run)
        return {m: sum(per_topic.get(t, {}).get(n, 0.0) for t in qrels) / len(qrels) for m, n in LOO_MEASURES.items()}

    full = {name: means(run, qrels) for name, run in runs.items()}
    table = {}
    for name, run in runs.items():
        unique = {item for item, found in pooled.items() if found == {name}}
        without = {t: {d: g for d, g in docs.items() if (t, d) not in unique} for t, docs in qrels.items()}
        again = means(run, without)
        for m in LOO_MEASURES:
            others = [full[o][m] for o in runs if o != name]
            rank = 1 + sum(o > full[name][m] + 1e-12 for o in others)
            table[name, m] = (len(unique), full[name][m], again[m], rank, 1 + sum(o > again[m] + 1e-12 for o in others))
    return table


def test_leave_one_out_equals_pytrec_eval_on_the_downloaded_files(snapshot, folder):
    qrels = read_qrels(folder / "qrels.txt")
    runs = {name: read_run(folder / file) for name, file in exports.run_files(snapshot).items()}
    expected = leave_one_out_by_hand(qrels, runs, snapshot.task.depth)
    rows = {(b.run, b.measure): b for b in exports.bias(snapshot)}
    assert rows.keys() == expected.keys() and len(rows) == len(runs) * 3
    for key, (unique, score, score_without, rank, rank_without) in expected.items():
        b = rows[key]
        assert b.unique == unique
        assert b.score == pytest.approx(score, abs=1e-9)
        assert b.score_without == pytest.approx(score_without, abs=1e-9)
        assert (b.rank, b.rank_without) == (rank, rank_without)
    assert any(b.places_lost > 0 for b in rows.values())  # the table has a bias to show


def test_the_notebook_rebuilds_the_leaderboard_shares_and_table(snapshot, folder):
    nb = nbformat.reads((folder / "shared-task.ipynb").read_text(), as_version=4)
    nbformat.validate(nb)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(folder)}}).execute()
    printed = [
        "".join(out.get("text", "") for out in cell.outputs if out.output_type == "stream")
        for cell in nb.cells
        if cell.cell_type == "code"
    ]
    board = exports.leaderboard(snapshot)
    assert board is not None
    assert exports.leaderboard_csv(board) in printed[2]
    shares = exports.judged_share(snapshot)
    assert printed[3].splitlines() == [f"{name}\t{share:.4f}" for name, share in shares.items()]
    table = [
        f"{b.run}\t{b.measure}\t{b.score:.4f}\t{b.score_without:.4f}\t{b.rank}\t{b.rank_without}"
        for b in exports.bias(snapshot)
    ]
    assert printed[4].splitlines()[1:] == table


def test_the_notebook_carries_typed_text_only_as_data(snapshot):
    nb = nbformat.reads(exports.notebook_text(snapshot), as_version=4)
    assert nb.cells[0].source.startswith("# Shared task: " + plain("Cycling <b>class</b>", one_line=True) + "\n")
    assert "'our/best *run*': 'runs/our_best_run.txt'" in nb.cells[2].source


def test_no_leaderboard_before_two_runs_and_a_judgment(tmp_path):
    from ir_metrics_lab.core.classroom.store import Store
    from ir_metrics_lab.core.classroom.task_store import TaskStore

    database = f"sqlite+pysqlite:///{tmp_path / store.SQLITE_FILE}"
    tasks = TaskStore(Store(database))
    created = tasks.create_task("T", data.TOPICS, data.DOCS, depth=2, per_item=1)
    code = created.task.code
    tasks.join(code, "s1", "red")
    tasks.submit_run(code, "s1", "one", "t1 Q0 d01 1 2 x\n")
    one = tasks.snapshot(code)
    assert exports.board_problem(one) == "A leaderboard needs at least two runs."
    tasks.submit_run(code, "s1", "two", "t1 Q0 d02 1 2 x\n")
    two = tasks.snapshot(code)
    assert exports.board_problem(two) == "No document is judged yet: the scores start with the first judgment."
    assert exports.leaderboard(two) is None and exports.bias(two) == []
    assert zipfile.ZipFile(io.BytesIO(exports.takeaways_zip(two))).namelist()[:2] == ["qrels.txt", "shared-task.ipynb"]
    store.dispose_engine(database)
    task_store._CREATED.discard(database)


def test_the_brief_tells_the_task_its_pool_leaderboard_and_bias(snapshot):
    from ir_metrics_lab.core.brief import html_page
    from ir_metrics_lab.core.brief.shared_task import brief

    made = brief(snapshot)
    board = exports.leaderboard(snapshot)
    assert made is not None and board is not None
    assert made.title == "Shared task: Cycling <b>class</b>" and made.file_name == "brief-shared-task.html"
    pool = snapshot.pool()
    assert made.story[0].startswith(f"4 runs pooled to depth 5: {len(pool.items())} documents over 6 topics")
    assert made.table is not None and [row[1] for row in made.table.rows] == list(board.runs)
    (table,) = made.tables
    assert [(r[0], r[1], r[3], r[4]) for r in table.rows] == [
        (b.run, b.measure, f"{b.score:.4f}", f"{b.score_without:.4f}") for b in exports.bias(snapshot)
    ]
    command = dict(made.made)["Same numbers from the command line"]
    assert command.startswith("ir-metrics-compare -c qrels.txt runs/bm25.txt")
    page = html_page.render(made)
    assert "Cycling &lt;b&gt;class&lt;/b&gt;" in page and "<b>class" not in page
    assert page.count('id="table-h"') == 1 and page.count('id="table-2-h"') == 1
