"""Documents retrieved (NumRet). How many documents the run retrieved.

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


def num_ret(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Documents retrieved: the length of the list (or of its top k).

    trec_eval ``num_ret``; ir_measures ``NumRet``. Summed over queries.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Counts in the top k of the list only (as trec_eval ``-M k``). None (the default) counts the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). None changes the value; ``threshold``
        marks the steps' relevant docs (``RankStep.relevant``).

    Returns
    -------
    Breakdown
        ``value`` is the count, a whole number as a float; ``steps`` has one RankStep per retrieved rank, each
        contributing 1; ``terms`` holds ``Term.RETRIEVED``.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    Examples
    --------
    >>> num_ret(["a", "b", "c"], {"a": 1}).value
    3.0
    >>> num_ret(["a", "b", "c"], {"a": 1}, k=2).value
    2.0
    """
    steps = _counted(ranking, qrels, k, conventions, lambda doc, grade, relevant: True)
    return Breakdown("NumRet", k, float(len(steps)), tuple(steps), {Term.RETRIEVED: len(steps)}, conventions)


def num_ret_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return data.retrieved(measure.k).astype(np.float64)


NUM_RET = Family(
    key="NumRet",
    title="Documents retrieved",
    help="How many documents the run retrieved.",
    function=num_ret,
    kernel=num_ret_kernel,
    kind="count",
    teaching=count_teaching(
        r"\mathrm{num\_ret}",
        r"\text{documents retrieved}",
        (Term.RETRIEVED,),
        plain="is no score: it counts the documents retrieved",
    ),
    cutoff="optional",
    written="whole",
    names=Names(ir_measures="NumRet"),
    trec_eval=TrecEval("num_ret", per_query=True, zero_when_missing=True),
    values=Values(
        range=None,  # whole numbers, summed over queries
        summary="sum",
        count=True,
    ),
    order=120,
)
