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
    """Documents retrieved (trec_eval ``num_ret``; ir_measures ``NumRet``): the length of the list (or of its top k).

    >>> num_ret(["a", "b", "c"], {"a": 1}).value
    3.0
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
