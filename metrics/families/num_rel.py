"""Relevant documents (NumRel). R: judged relevant documents, retrieved or not.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, TrecEval, Values
from metrics.core.checks import check_qrels
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._counting import _counted, count_teaching

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def num_rel(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Judged relevant documents, retrieved or not: R.

    trec_eval ``num_rel``; ir_measures ``NumRel``. Summed over queries.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Cuts the steps at the top k; R, from the qrels alone, does not depend on it. None (the default): the whole
        list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).

    Returns
    -------
    Breakdown
        ``value`` is R, a whole number as a float; ``steps`` has one RankStep per retrieved rank of the top k, each
        contributing 0 (no rank adds to R); ``terms`` holds ``Term.R``.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    num_rel_ret : the relevant documents retrieved.

    Notes
    -----
    No rank adds to it: R comes from the qrels alone, so every step contributes 0.

    Examples
    --------
    >>> num_rel(["a"], {"a": 1, "b": 2, "c": 0, "d": -1}).value
    2.0
    """
    check_qrels(qrels)
    R = sum(1 for grade in qrels.values() if grade >= conventions.threshold)
    steps = _counted(ranking, qrels, k, conventions, lambda doc, grade, relevant: False)
    return Breakdown("NumRel", k, float(R), tuple(steps), {Term.R: R}, conventions)


def num_rel_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return data.R.astype(np.float64)


NUM_REL = Family(
    key="NumRel",
    title="Relevant documents",
    help="R: judged relevant documents, retrieved or not.",
    function=num_rel,
    kernel=num_rel_kernel,
    kind="count",
    teaching=count_teaching(
        r"\mathrm{num\_rel}",
        r"R = \text{judged relevant, retrieved or not}",
        (Term.R,),
        ranks=False,
        plain="is no score of the run: it counts the relevant documents the judges found",
    ),
    cutoff="optional",
    written="whole",
    names=Names(ir_measures="NumRel"),
    trec_eval=TrecEval("num_rel", per_query=True, counts_positive_judgments=True),
    values=Values(
        range=None,  # whole numbers, summed over queries
        summary="sum",
        count=True,
    ),
    order=130,
)
