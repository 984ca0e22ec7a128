"""Judged non-relevant documents retrieved (NumNonRelJudgedRet). Retrieved documents judged below the relevance
threshold (0 or more).

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

JUDGED_NONRELEVANT = Term("judged non-relevant")


def num_nonrel_judged_ret(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Judged non-relevant documents retrieved: grade 0 up to the threshold.

    trec_eval ``num_nonrel_judged_ret``. Summed over queries.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Counts in the top k of the list only (as trec_eval ``-M k``). None (the default) counts the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``: a judged doc
        with 0 <= grade < threshold is non-relevant.

    Returns
    -------
    Breakdown
        ``value`` is the count, a whole number as a float; ``steps`` has one RankStep per retrieved rank, each judged
        non-relevant one contributing 1; ``terms`` holds it (``"judged non-relevant"``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    Notes
    -----
    An unjudged document, or one with a negative grade (in the pool, not judged), does not count.

    Examples
    --------
    >>> num_nonrel_judged_ret(["a", "b", "c", "d"], {"a": 1, "b": 0, "d": -1}).value
    1.0
    """
    steps = _counted(
        ranking, qrels, k, conventions, lambda doc, grade, relevant: doc in qrels and 0 <= grade < conventions.threshold
    )
    judged_nonrelevant = int(sum(s.contribution for s in steps))
    terms = {JUDGED_NONRELEVANT: judged_nonrelevant}
    return Breakdown("NumNonRelJudgedRet", k, float(judged_nonrelevant), tuple(steps), terms, conventions)


def num_nonrel_judged_ret_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    nonrelevant = (data.grade >= 0) & ~data.relevant() & data.in_top(measure.k)
    return np.bincount(data.slot[nonrelevant], minlength=data.size).astype(np.float64)


NUM_NONREL_JUDGED_RET = Family(
    key="NumNonRelJudgedRet",
    title="Judged non-relevant documents retrieved",
    help="Retrieved documents judged below the relevance threshold (0 or more).",
    function=num_nonrel_judged_ret,
    kernel=num_nonrel_judged_ret_kernel,
    kind="count",
    teaching=count_teaching(
        r"\mathrm{num\_nonrel\_judged\_ret}",
        r"\text{judged non-relevant documents retrieved}",
        (JUDGED_NONRELEVANT,),
        plain="is a count of the retrieved documents judged not relevant",
    ),
    cutoff="optional",
    written="whole",
    names=Names(ir_measures=None),
    trec_eval=TrecEval("num_nonrel_judged_ret", per_query=True, zero_when_missing=True),
    values=Values(
        range=None,  # whole numbers, summed over queries
        summary="sum",
        count=True,
    ),
    order=150,
)
