"""Queries evaluated (NumQ). 1 per evaluated query; summed: how many were evaluated.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, TrecEval, Values
from metrics.core.checks import checked
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking
from metrics.families._counting import count_teaching

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def num_q(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """1 for every evaluated query: summed over queries, how many were evaluated.

    trec_eval ``num_q``, which prints only the summary.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Checked, not read: a cutoff changes nothing. None by default.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``); not read, but kept on the Breakdown.

    Returns
    -------
    Breakdown
        ``value`` is 1.0; no steps, no terms.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    Examples
    --------
    >>> num_q(["a"], {"a": 1}).value
    1.0
    """
    checked(ranking, qrels, k)
    return Breakdown("NumQ", k, 1.0, (), {}, conventions)


def num_q_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return np.ones(data.size)


NUM_Q = Family(
    key="NumQ",
    title="Queries evaluated",
    help="1 per evaluated query; summed: how many were evaluated.",
    function=num_q,
    kernel=num_q_kernel,
    kind="count",
    teaching=count_teaching(
        r"\mathrm{num\_q}",
        r"\text{1 per evaluated query, summed}",
        (),
        ranks=False,
        plain="is no score: it counts the queries evaluated",
    ),
    cutoff="none",
    written="whole",
    names=Names(ir_measures="NumQ"),
    # a count of queries, whatever the judgments
    trec_eval=TrecEval("num_q", per_query=False, reads=("qrels", "qrels_jg", "prefs", "qrels_prefs")),
    values=Values(
        range=None,  # whole numbers; over queries, how many were evaluated
        summary="queries",
        count=True,
    ),
    order=110,
)
