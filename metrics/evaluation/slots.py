"""What both joins of a run with its qrels produce, at one relevance threshold: the kernels' Prepared arrays
(metrics.core.prepared) with trec_eval's -M and -J applied, and the query counts. The joins themselves find the
evaluated queries and the judged retrieved rows: metrics.evaluation.arrow_join for Arrow columns (metrics.io),
metrics.evaluation.plain_join for a small file read in plain Python."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from metrics.core.prepared import Prepared, position_within

if TYPE_CHECKING:
    from metrics.evaluation.options import EvaluationOptions


@dataclass(frozen=True)
class QueryCounts:
    """How many queries were scored, and how many were left out (or scored 0 with ``complete``)."""

    evaluated: int  # the queries in the means
    only_in_run: int  # never scored: trec_eval only knows queries with qrels lines
    only_in_qrels: int  # skipped, or scored 0 with complete=True (trec_eval -c)
    no_relevant: int  # evaluated queries with R = 0 (every measure 0 but IDCG/NDCG of grades below threshold)


class QuerySlots(Prepared):
    """A run joined with its qrels (metrics.core.prepared.Prepared documents the arrays), with trec_eval's -M and -J;
    ``options`` at one relevance threshold. The joins (metrics.evaluation.arrow_join, plain_join) find the evaluated
    queries, each ranking's and each qrels line's slot and the judged retrieved rows; the rest is here.

    ``queries``: the evaluated queries in trec_eval's order; ``ranking_slot``: each ranking's slot among them (-1:
    not evaluated), ``lengths``: its number of documents; ``line_slot``, ``grade``: each qrels line's slot and grade;
    ``judged_retrieved(lines)``: (slot, rank, grade) of the retrieved docs with one of those qrels lines, sorted by
    (slot, rank); ``run_only``: how many of the run's queries have no judgment."""

    def __init__(
        self,
        options: EvaluationOptions,
        queries: tuple[str, ...],
        only: tuple[tuple[str, ...], tuple[str, ...], int],
        ranking_slot: np.ndarray,
        lengths: np.ndarray,
        line_slot: np.ndarray,
        grade: np.ndarray,
        judged_retrieved: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]],
    ):
        conventions = options.conventions  # at this one threshold
        self.conventions = conventions
        self.judged_only = options.judged_only
        self.queries = queries
        size = len(queries)
        self.size = size
        self.only_in_run, self.only_in_qrels, run_only = only
        self.in_run = np.zeros(size, dtype=bool)  # with complete, queries missing from the run are not
        self.in_run[ranking_slot[ranking_slot >= 0]] = True
        self.n = np.zeros(size, dtype=np.int64)
        self.n[ranking_slot[ranking_slot >= 0]] = lengths[ranking_slot >= 0]
        evaluated = line_slot >= 0
        self.R = np.bincount(line_slot[evaluated & (grade >= conventions.threshold)], minlength=size)
        judged_nonrelevant = evaluated & (grade >= 0) & (grade < conventions.threshold)
        self.nonrel = np.bincount(line_slot[judged_nonrelevant], minlength=size)

        # Ideal gains from the qrels: every judged doc with a positive grade (trec_eval's IDCG).
        positive = np.flatnonzero(evaluated & (grade > 0))
        self.ideal_slot, self.ideal_grade = line_slot[positive], grade[positive]
        lines = np.flatnonzero(evaluated)
        del positive, evaluated, judged_nonrelevant  # the join is the peak of a large evaluation: free what we can
        self.slot, self.rank, self.grade = judged_retrieved(lines)
        if options.max_docs is not None:  # trec_eval -M: the top max_docs after sorting, before -J
            np.minimum(self.n, options.max_docs, out=self.n)
            self._keep(self.rank <= options.max_docs)
        if options.judged_only:  # trec_eval -J: unjudged (and pool-unjudged, grade < 0) documents leave the ranking
            self._keep(self.grade >= 0)
            self.rank = position_within(self.slot)
            self.n = np.bincount(self.slot, minlength=size)
        self.counts = QueryCounts(size, run_only, len(self.only_in_qrels), int((self.R == 0).sum()))

    def _keep(self, rows: np.ndarray) -> None:
        self.slot, self.rank, self.grade = self.slot[rows], self.rank[rows], self.grade[rows]
