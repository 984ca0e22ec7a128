"""Relevant documents retrieved (NumRelRet). How many relevant documents the run retrieved.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, TrecEval, Values
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._counting import _counted, count_teaching

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def num_rel_ret(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Relevant documents retrieved: the hits over the list (or its top k).

    trec_eval ``num_rel_ret``; ir_measures ``NumRelRet``. Summed over queries.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Counts in the top k of the list only (as trec_eval ``-M k``). None (the default) counts the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).

    Returns
    -------
    Breakdown
        ``value`` is the count, a whole number as a float; ``steps`` has one RankStep per retrieved rank, each
        relevant one contributing 1; ``terms`` holds ``Term.HITS``.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    Examples
    --------
    >>> num_rel_ret(["a", "b", "c"], {"a": 1, "c": 2, "z": 1}).value
    2.0
    """
    steps = _counted(ranking, qrels, k, conventions, lambda doc, grade, relevant: relevant)
    hits = int(sum(s.contribution for s in steps))
    return Breakdown("NumRelRet", k, float(hits), tuple(steps), {Term.HITS: hits}, conventions)


def num_rel_ret_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return data.hits(measure.k).astype(np.float64)


NUM_REL_RET = Family(
    key="NumRelRet",
    title="Relevant documents retrieved",
    help="How many relevant documents the run retrieved.",
    function=num_rel_ret,
    kernel=num_rel_ret_kernel,
    kind="count",
    teaching=count_teaching(
        r"\mathrm{num\_rel\_ret}",
        r"\text{relevant documents retrieved}",
        (Term.HITS,),
        plain="is a count of the relevant documents retrieved anywhere in the list, not a share",
    ),
    cutoff="optional",
    written="whole",
    names=Names(ir_measures="NumRelRet"),
    trec_eval=TrecEval("num_rel_ret", per_query=True, zero_when_missing=True),
    values=Values(
        range=None,  # whole numbers, summed over queries
        summary="sum",
        count=True,
    ),
    order=140,
)
