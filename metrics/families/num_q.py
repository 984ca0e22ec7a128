"""Queries evaluated (NumQ). 1 per evaluated query; summed: how many were evaluated.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from metrics.catalog.family import Family
from metrics.core.checks import checked
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.types import Breakdown, Judgments, Ranking
from metrics.families._counting import count_definition, count_worked


def num_q(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """1 for every evaluated query (trec_eval ``num_q``, summed over queries: how many were evaluated).

    >>> num_q(["a"], {"a": 1}).value
    1.0
    """
    checked(ranking, qrels, k)
    return Breakdown("NumQ", k, 1.0, (), {}, conventions)


def num_q_kernel(data, measure) -> np.ndarray:
    return np.ones(data.size)


NUM_Q = Family(
    key="NumQ",
    title="Queries evaluated",
    function=num_q,
    kernel=num_q_kernel,
    kind="count",
    help="1 per evaluated query; summed: how many were evaluated.",
    definition=count_definition("NumQ"),
    worked=count_worked,
    terms=(),
    cutoff="none",
    trec_eval="num_q",
    ir_measures="NumQ",
    summary="queries",
    reads=("qrels", "qrels_jg", "prefs", "qrels_prefs"),  # a count of queries, whatever the judgments
    count=True,
    per_query=False,
    usually_cut=False,
    value_range=None,  # whole numbers, summed over queries
    order=110,
)
