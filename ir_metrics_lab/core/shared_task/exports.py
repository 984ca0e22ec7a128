"""What the class takes home from a shared task, read from one TaskStore snapshot: the qrels (TREC format), each run
(TREC run format) and all of them as one zip, the leaderboard (CSV, LaTeX), each run's judged share of its top 10, the
leave-one-run-out table, and a notebook that rebuilds the scores from the downloaded files. Pure (no Streamlit).

The scores are ``ir-metrics-compare -c`` on the downloaded files (metrics.compare.leaderboard: the same evaluation,
means, paired t-tests and Holm's correction as the Compare runs page): a judged topic a run left out counts 0, as
trec_eval ``-c`` and the leave-one-out table (ir_metrics_lab.core.shared_task.bias) score it. A topic nobody has
judged yet is in no score: it has no qrels line.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ir_metrics_lab.core.exports.notebook_cells import INSTALL, code_cell, literal, markdown_cell, notebook, to_text
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.shared_task.bias import RunBias, leave_one_out, mean_scores
from ir_metrics_lab.core.shared_task.judgments import build_qrels, qrels_text
from metrics.catalog import registry
from metrics.compare.leaderboard import MAX_RUNS, Leaderboard, evaluate_runs, from_evaluations

if TYPE_CHECKING:
    from ir_metrics_lab.core.classroom.task_store import Snapshot

MEASURES = registry.default_measures()  # the Compare runs page's and the CLI's default measures
JUDGED = "judged@10"  # the share of a run's top 10 that has a judgment
QRELS_FILE = "qrels.txt"
RUNS_FOLDER = "runs"
NOTEBOOK_FILE = "shared-task.ipynb"
RUNS_ZIP = "runs.zip"
TAKEAWAYS_ZIP = "shared-task.zip"
LEADERBOARD_CSV, LEADERBOARD_TEX = "leaderboard.csv", "leaderboard.tex"
BIAS_CSV = "leave-one-out.csv"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def qrels(snapshot: Snapshot) -> dict[str, dict[str, int]]:
    """Topic -> {document: grade}: the judgments so far with the teacher's settlements (judgments.build_qrels)."""
    return build_qrels(snapshot.grades, snapshot.settled)


def qrels_file(snapshot: Snapshot) -> str:
    """The qrels in TREC's format, the download ``qrels.txt``."""
    return qrels_text(qrels(snapshot))


def judged_topics(snapshot: Snapshot) -> list[str]:
    """The topics with at least one judgment: the ones every score averages over."""
    return sorted(t for t, docs in qrels(snapshot).items() if docs)


def run_files(snapshot: Snapshot) -> dict[str, str]:
    """Run name -> its file in the download (``runs/NAME.txt``): the name with anything but letters, digits, ``.``,
    ``_`` and ``-`` made ``_`` (a run's name is typed by a team; a file name must not climb out of its folder),
    numbered when two names end up alike.

    >>> from types import SimpleNamespace as S
    >>> run_files(S(runs={"bm25": 0, "our/best run": 0, "our best run": 0}))
    {'bm25': 'runs/bm25.txt', 'our/best run': 'runs/our_best_run.txt', 'our best run': 'runs/our_best_run-2.txt'}
    """
    taken: set[str] = set()
    files = {}
    for name in snapshot.runs:
        stem = _UNSAFE.sub("_", name).strip("._") or "run"
        candidate, n = stem, 1
        while candidate.lower() in taken:
            n += 1
            candidate = f"{stem}-{n}"
        taken.add(candidate.lower())
        files[name] = f"{RUNS_FOLDER}/{candidate}.txt"
    return files


def run_texts(snapshot: Snapshot) -> dict[str, str]:
    """Run name -> the run file as its team submitted it (a run built by hand: as ``runs.run_text`` wrote it)."""
    return {name: run.body for name, run in snapshot.runs.items()}


def runs_zip(snapshot: Snapshot) -> bytes:
    """Every run as ``runs/NAME.txt`` in one zip."""
    return _zip({run_files(snapshot)[name]: text for name, text in run_texts(snapshot).items()})


def board_problem(snapshot: Snapshot) -> str | None:
    """Why there is no leaderboard yet (in words for the page), or None when there is one."""
    if len(snapshot.runs) < 2:
        return "A leaderboard needs at least two runs."
    if len(snapshot.runs) > MAX_RUNS:
        return f"The leaderboard names each run by a letter, so it takes at most {MAX_RUNS} runs."
    if not judged_topics(snapshot):
        return "No document is judged yet: the scores start with the first judgment."
    return None


def leaderboard(snapshot: Snapshot, measures: Sequence[str] = MEASURES) -> Leaderboard | None:
    """The leaderboard of every run on the qrels so far: ``ir-metrics-compare -c`` on the downloaded files (paired
    t-test, Holm); None when ``board_problem`` says why not."""
    if board_problem(snapshot):
        return None
    return leaderboard_of(run_texts(snapshot), qrels_file(snapshot), measures)


def leaderboard_of(runs: Mapping[str, str], qrels: str, measures: Sequence[str] = MEASURES) -> Leaderboard:
    """The leaderboard of run files (name -> TREC run text) on a qrels text, as ``ir-metrics-compare -c`` scores
    them: what ``leaderboard`` computes, from the texts alone (a page caches it by them)."""
    sources = [(name, text.encode("utf-8")) for name, text in runs.items()]
    evaluations = evaluate_runs(sources, qrels.encode("utf-8"), list(measures), complete=True)
    return from_evaluations(evaluations, test="t-test", correction="holm")


def leaderboard_csv(board: Leaderboard) -> str:
    return board.to_csv()


def leaderboard_latex(board: Leaderboard) -> str:
    return board.to_latex()


def judged_share(snapshot: Snapshot) -> dict[str, float]:
    """Run -> the mean over the judged topics of the share of its top 10 that is judged (Judged@10; a topic it left
    out counts 0, a list shorter than 10 divides by its length)."""
    given, topics = qrels(snapshot), judged_topics(snapshot)
    return {name: mean_scores(run.rankings, given, topics, [JUDGED])[JUDGED] for name, run in snapshot.runs.items()}


def bias(snapshot: Snapshot) -> list[RunBias]:
    """The leave-one-run-out table (bias.leave_one_out: AP, bpref, infAP) on the qrels so far; empty before a
    judgment or with fewer than two runs."""
    if len(snapshot.runs) < 2 or not judged_topics(snapshot):
        return []
    rankings = {name: run.rankings for name, run in snapshot.runs.items()}
    return leave_one_out(rankings, snapshot.pool(), qrels(snapshot))


def by_run(biases: Sequence[RunBias]) -> dict[str, list[RunBias]]:
    """The leave-one-out rows grouped by run (each run's measures in the table's order)."""
    grouped: dict[str, list[RunBias]] = {}
    for b in biases:
        grouped.setdefault(b.run, []).append(b)
    return grouped


def bias_csv(biases: Sequence[RunBias]) -> str:
    """The leave-one-out table as CSV: one row per run and measure."""
    import csv

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["run", "measure", "score", "score without", "rank", "rank without", "unique", "unique relevant"])
    for b in biases:
        numbers = (f"{b.score:.4f}", f"{b.score_without:.4f}", b.rank, b.rank_without, b.unique, b.unique_relevant)
        writer.writerow([b.run, b.measure, *numbers])
    return buffer.getvalue()


# --- the notebook ---


def notebook_text(snapshot: Snapshot, measures: Sequence[str] = MEASURES) -> str:
    """The .ipynb that rebuilds the leaderboard, the judged shares and the leave-one-out table from ``qrels.txt``
    and ``runs/`` beside it. User text reaches a code cell only inside a ``literal``, a Markdown cell only through
    ``plain``."""
    files = run_files(snapshot)
    cells = [
        markdown_cell(
            f"# Shared task: {plain(snapshot.task.title, one_line=True)}\n\n"
            f"Put this notebook in one folder with `{QRELS_FILE}` and the `{RUNS_FOLDER}/` folder of `{RUNS_ZIP}` "
            "(all three are in the task's zip), then run every cell from the top. Each number is the class "
            "leaderboard's, computed by the `metrics` library from those files."
        ),
        code_cell(INSTALL),
        code_cell(
            f"QRELS = {literal(QRELS_FILE)}\n"
            f"RUN_FILES = {literal(files)}  # run name -> its file\n"
            f"MEASURES = {literal(list(measures))}\n"
            f"DEPTH = {snapshot.task.depth!r}  # the pool depth k"
        ),
        markdown_cell(
            "## The leaderboard\n\nThe means over the judged topics (a topic a run left out counts 0, as "
            "`trec_eval -c`), best per column, and the runs each one beats significantly (paired t-test, Holm's "
            "correction over every pair of runs). The same as `ir-metrics-compare -c qrels.txt runs/*.txt`."
        ),
        code_cell(
            "from metrics.compare.leaderboard import evaluate_runs, from_evaluations\n\n"
            "evaluations = evaluate_runs(list(RUN_FILES.items()), QRELS, MEASURES, complete=True)\n"
            "board = from_evaluations(evaluations, test='t-test', correction='holm')\n"
            "print(board.to_csv())\n"
            "board"
        ),
        markdown_cell(
            "## How much of each run's top 10 is judged\n\nJudged@10 per topic, averaged over the judged topics: "
            "a low share means the run is scored mostly on documents nobody looked at."
        ),
        code_cell(
            "from metrics import evaluate\n\n"
            f"judged = {{name: evaluate(path, QRELS, [{JUDGED!r}], complete=True).means[{JUDGED!r}] "
            "for name, path in RUN_FILES.items()}\n"
            "for name, share in judged.items():\n"
            "    print(f'{name}\\t{share:.4f}')"
        ),
        markdown_cell(
            "## Leave one run out\n\nEach run scored again on the qrels without the pooled documents only it "
            "found (Zobel, SIGIR 1998): how far its score and rank move, by AP, bpref and infAP."
        ),
        code_cell(
            "from metrics.io import read_qrels, read_run\n"
            "from ir_metrics_lab.core.shared_task.bias import leave_one_out\n"
            "from ir_metrics_lab.core.shared_task.pooling import build_pool\n\n"
            "rankings = {name: read_run(path).to_rankings() for name, path in RUN_FILES.items()}\n"
            "qrels = {topic: dict(docs) for topic, docs in read_qrels(QRELS).to_dict().items()}\n"
            "pool = build_pool(rankings, DEPTH)\n"
            "print('run\\tmeasure\\tscore\\twithout\\trank\\trank without')\n"
            "for b in leave_one_out(rankings, pool, qrels):\n"
            "    print(f'{b.run}\\t{b.measure}\\t{b.score:.4f}\\t{b.score_without:.4f}\\t{b.rank}\\t{b.rank_without}')"
        ),
    ]
    return to_text(notebook(cells))


# --- the zip of everything ---


def takeaways_zip(snapshot: Snapshot, board: Leaderboard | None = None) -> bytes:
    """qrels, runs, leaderboard (when there is one; ``board``: already computed), leave-one-out table and the
    notebook, in one zip: unzipped, the notebook runs as it is."""
    files = {QRELS_FILE: qrels_file(snapshot), NOTEBOOK_FILE: notebook_text(snapshot)}
    files |= {run_files(snapshot)[name]: text for name, text in run_texts(snapshot).items()}
    board = board or leaderboard(snapshot)
    if board is not None:
        files |= {LEADERBOARD_CSV: leaderboard_csv(board), LEADERBOARD_TEX: leaderboard_latex(board)}
    table = bias(snapshot)
    if table:
        files[BIAS_CSV] = bias_csv(table)
    return _zip(files)


def _zip(files: Mapping[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))  # the same task gives the same bytes
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()


@dataclass(frozen=True)
class PoolSummary:
    """What the pool panel shows: pooled documents per topic, each run's unique contributions, the overlaps."""

    sizes: dict[str, int]
    unique: dict[str, int]
    overlaps: dict[tuple[str, str], float]  # Jaccard of two runs' pooled items


def pool_summary(snapshot: Snapshot) -> PoolSummary:
    pool = snapshot.pool()
    sizes = {t.id: 0 for t in snapshot.task.topics} | pool.sizes()
    overlaps = {pair: o.jaccard for pair, o in pool.overlaps().items()}
    return PoolSummary(sizes, pool.unique_counts(), overlaps)
