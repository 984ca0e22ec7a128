"""The brief of a shared task (ir_metrics_lab.core.shared_task): the task and its pool, the leaderboard's story and
table as Compare runs' brief tells them (``many_runs``), each run's judged share of its top 10, and the pooling bias:
a sentence per run and the leave-one-run-out table. Pure; the numbers are ir_metrics_lab.core.shared_task.exports'.
"""

from __future__ import annotations

import dataclasses
import shlex
from typing import TYPE_CHECKING

from ir_metrics_lab.core.brief import many_runs
from ir_metrics_lab.core.brief.model import Brief, Inputs, Table
from ir_metrics_lab.core.brief.wording import setting_words
from ir_metrics_lab.core.shared_task import exports
from ir_metrics_lab.core.shared_task.bias import RunBias, sentence
from ir_metrics_lab.core.words import count
from metrics.tools.settings import TREC_EVAL_SETTING

if TYPE_CHECKING:
    from ir_metrics_lab.core.classroom.task_store import Snapshot

COMMAND_LINE = "Same numbers from the command line"
BIAS_HEADER = ("run", "measure", "unique documents", "score", "without them", "rank", "rank without")


def _numbers(b: RunBias) -> tuple[str, ...]:
    return f"{b.score:.4f}", f"{b.score_without:.4f}", str(b.rank), str(b.rank_without)


def brief(snapshot: Snapshot, inputs: Inputs | None = None) -> Brief | None:
    """The task's brief; None while there is no leaderboard (exports.board_problem says why)."""
    board = exports.leaderboard(snapshot)
    if board is None:
        return None
    files = exports.run_files(snapshot)
    inputs = dataclasses.replace(inputs or Inputs(), qrels=exports.QRELS_FILE, runs=files)
    base = many_runs.brief(board, inputs=inputs)
    summary = exports.pool_summary(snapshot)
    pooled = sum(summary.sizes.values())
    judged = sum(len(docs) for docs in exports.qrels(snapshot).values())
    shares = exports.judged_share(snapshot)
    biases = exports.bias(snapshot)
    story = (
        f"{count(len(snapshot.runs), 'run')} pooled to depth {snapshot.task.depth}: {count(pooled, 'document')} over "
        f"{count(len(summary.sizes), 'topic')} ({', '.join(f'{t} {n}' for t, n in summary.sizes.items())}).",
        f"{judged} of the {pooled} pooled documents judged, each by up to {snapshot.task.per_item} students; "
        f"{count(len(snapshot.settled), 'disagreement')} settled by the teacher.",
        "Judged share of each run's top 10: " + ", ".join(f"{run} {share:.0%}" for run, share in shares.items()) + ".",
        *(sentence(rows) for rows in exports.by_run(biases).values()),
    )
    table = Table(
        "Each run scored again without the pooled documents only it found (Zobel, SIGIR 1998); the other runs keep "
        "their scores. Means over the judged topics; ranks among every run's scores on the full qrels.",
        BIAS_HEADER,
        tuple((b.run, b.measure, str(b.unique), *_numbers(b)) for b in biases),
        numeric=frozenset(range(2, len(BIAS_HEADER))),
        title="Pooling bias: leave one run out",
    )
    command = ["ir-metrics-compare", "-c", exports.QRELS_FILE, *files.values()]
    command += [arg for run in board.runs for arg in ("-n", run)]
    said = {
        "Conventions": f"trec_eval's: {setting_words(dataclasses.replace(TREC_EVAL_SETTING, queries='complete'))}",
        COMMAND_LINE: shlex.join(command),
    }
    made = tuple((what, said.get(what, how)) for what, how in base.made)
    return dataclasses.replace(
        base,
        kind="task",
        title=f"Shared task: {snapshot.task.title}",
        story=story,
        tables=(table,) if biases else (),
        made=made,
        links=(),
    )
