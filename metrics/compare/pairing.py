"""Two runs' evaluations side by side for paired statistics: the queries both were evaluated on, each measure's
per-query values aligned on them, and how many queries were left out and why (trec_eval's query sets).

Pure (numpy, no Streamlit). The paired tests in metrics.compare.significance need ``a[i]`` and ``b[i]`` to be the same
query; two runs' Evaluations list different query sets, so this is where they are matched up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from metrics.evaluation.engine import Evaluation


@dataclass(frozen=True)
class LeftOut:
    """Queries of either run not in the pair's common set, by reason (counts)."""

    only_a: int  # evaluated in run A only: B retrieved nothing for a query with qrels
    only_b: int  # evaluated in run B only
    without_qrels: int  # retrieved by A or B but with no qrels line: trec_eval never scores those
    in_neither: int  # in the qrels, retrieved by neither run: trec_eval -c would score 0 in both


@dataclass(frozen=True)
class AlignedPair:
    queries: tuple[str, ...]  # evaluated in both runs, in run A's order
    values: dict[str, tuple[np.ndarray, np.ndarray]]  # measure -> (A's values, B's values), aligned with queries
    left_out: LeftOut


def align(a: Evaluation, b: Evaluation) -> AlignedPair:
    """The queries both runs were evaluated on (trec_eval's set per run, intersected) and every measure of A's
    evaluation as two aligned arrays over them.

    >>> from types import SimpleNamespace as E
    >>> a = E(queries=("q1", "q2", "q3"), per_query={"AP": np.array([0.1, 0.2, 0.3])}, only_in_run=(), only_in_qrels=())
    >>> b = E(queries=("q2", "q3", "q4"), per_query={"AP": np.array([0.5, 0.6, 0.7])}, only_in_run=("x",),
    ...       only_in_qrels=("q1",))
    >>> pair = align(a, b)
    >>> pair.queries, pair.values["AP"][0].tolist(), pair.values["AP"][1].tolist()
    (('q2', 'q3'), [0.2, 0.3], [0.5, 0.6])
    >>> pair.left_out
    LeftOut(only_a=1, only_b=1, without_qrels=1, in_neither=0)
    """
    in_a, in_b = set(a.queries), set(b.queries)
    common = tuple(q for q in a.queries if q in in_b)
    index_a = {q: i for i, q in enumerate(a.queries)}
    index_b = {q: i for i, q in enumerate(b.queries)}
    rows_a, rows_b = [index_a[q] for q in common], [index_b[q] for q in common]
    values = {m: (a.per_query[m][rows_a], b.per_query[m][rows_b]) for m in a.per_query}
    left_out = LeftOut(
        only_a=len(in_a - in_b),
        only_b=len(in_b - in_a),
        without_qrels=len(set(a.only_in_run) | set(b.only_in_run)),
        in_neither=len(set(a.only_in_qrels) & set(b.only_in_qrels)),
    )
    return AlignedPair(common, values, left_out)
