"""The engine's join for a small file read in plain Python (metrics.io.text.plain): the same QuerySlots, so the same
kernels give the same numbers, bit for bit, as the Arrow join (metrics.evaluation.arrow_join), with no pyarrow loaded.
The CLI takes this path for a run and qrels both under metrics.io.text.plain.SMALL_FILE_BYTES."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from metrics.catalog.family import Measure
from metrics.evaluation.engine import Joined, joined_by
from metrics.evaluation.options import EvaluationOptions
from metrics.evaluation.slots import QuerySlots
from metrics.io.text.plain import PlainQrels, PlainRun


def plain_join(
    run: PlainRun, qrels: PlainQrels, measures: Iterable[str | Measure], options: EvaluationOptions
) -> Joined:
    """metrics.evaluation.engine.join for a PlainRun and PlainQrels."""
    grade = np.array(qrels.grade, dtype=np.int64)
    return joined_by(lambda at: PlainSlots(run, qrels, grade, at), grade, measures, options)


class PlainSlots(QuerySlots):
    """QuerySlots from Python lists and dicts (ArrowSlots does the same with Arrow columns)."""

    def __init__(self, run: PlainRun, qrels: PlainQrels, grade: np.ndarray, options: EvaluationOptions):
        judged = set(qrels.query)
        in_run = run.rankings.keys()
        counted = sorted(judged if options.complete else judged & in_run)  # ASCII ids: str order is strcmp order
        slot_of = {query: slot for slot, query in enumerate(counted)}
        only_in_run = tuple(sorted(query for query in in_run if query not in judged))
        only = (only_in_run, tuple(sorted(judged - in_run)), len(only_in_run))
        ranking_slot = np.array([slot_of.get(query, -1) for query in run.rankings], dtype=np.int64)
        lengths = np.array([len(docs) for docs in run.rankings.values()], dtype=np.int64)
        line_slot = np.array([slot_of.get(query, -1) for query in qrels.query], dtype=np.int64)

        def judged_retrieved(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            grade_of = {(qrels.query[line], qrels.doc[line]): qrels.grade[line] for line in lines.tolist()}
            found: list[tuple[int, int, int]] = []  # (slot, rank, grade), by slot then rank
            for slot, query in enumerate(counted):
                for rank, doc in enumerate(run.rankings.get(query, ()), start=1):
                    if (judgment := grade_of.get((query, doc))) is not None:
                        found.append((slot, rank, judgment))
            columns = np.array(found, dtype=np.int64).reshape(-1, 3).T
            return columns[0].copy(), columns[1].copy(), columns[2].copy()

        super().__init__(options, tuple(counted), only, ranking_slot, lengths, line_slot, grade, judged_retrieved)
