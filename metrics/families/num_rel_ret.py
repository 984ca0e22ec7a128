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
    """Relevant documents retrieved (trec_eval ``num_rel_ret``; ir_measures ``NumRelRet``): hits over the list.

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
