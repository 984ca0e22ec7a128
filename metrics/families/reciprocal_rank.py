"""Reciprocal rank: only the first relevant doc counts. MRR is its mean over queries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Default, Family, Names, Teaching, TrecEval
from metrics.core.checks import checked, judged
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.teaching.latex import aligned_block, decimal, defined, measure_symbol, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def reciprocal_rank(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Reciprocal rank: 1 / the rank of the first relevant doc; MRR is its mean over queries.

    trec_eval ``recip_rank``; with k, ranx ``mrr@k`` / ir_measures ``RR@k``.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff: a first relevant doc below rank k scores 0. None (the default) looks at the whole list
        (trec_eval ``recip_rank``).
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).

    Returns
    -------
    Breakdown
        ``value`` is RR@k, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, the first
        relevant one contributing the whole value; ``terms`` holds ``Term.FIRST_RELEVANT_RANK`` when a relevant doc
        was found, and is empty otherwise.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    mean_over_queries : MRR, the mean of RR over the queries of a run.

    Notes
    -----
    .. math:: RR@k = \frac{1}{\mathrm{rank}_1} \text{ if } \mathrm{rank}_1 \leq k \text{, else } 0

    where rank_1 is the rank of the first doc with grade >= threshold.
    Conventions (trec_eval): no relevant doc in the list (or within k) gives 0.0. trec_eval's ``recip_rank`` has
    no cutoff; RR@k equals ``recip_rank`` on the run truncated to its top k.

    Examples
    --------
    >>> round(reciprocal_rank(["x", "a", "b"], {"a": 1, "b": 1}).value, 4)
    0.5
    >>> reciprocal_rank(["x", "y", "a"], {"a": 1}, k=2).value
    0.0
    """
    top = checked(ranking, qrels, k)
    value, first_rank, steps = 0.0, None, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = 0.0
        if relevant and first_rank is None:
            first_rank, contribution = rank, 1 / rank
            value = contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, value))
    terms = {Term.FIRST_RELEVANT_RANK: first_rank} if first_rank is not None else {}
    return Breakdown("RR", k, value, tuple(steps), terms, conventions)


def reciprocal_rank_definition(c: Conventions) -> str:
    return (
        rf"{defined('RR')} = \frac{{1}}{{\mathrm{{rank}}_1}} \quad "
        r"(0 \text{ if no relevant document in the top } k)"
    )


def reciprocal_rank_worked(b: Breakdown) -> str:
    s = measure_symbol("RR", b.k)
    first = b.terms.get(Term.FIRST_RELEVANT_RANK)
    if first is None:
        where = f"top {b.k}" if b.k is not None else "list"
        return aligned_block(
            [
                rf"{s} &= \frac{{1}}{{\mathrm{{rank}}_1}}",
                rf"&= 0 \quad \text{{(no relevant document in the {where})}}",
            ]
        )
    return aligned_block(
        [rf"{s} &= \frac{{1}}{{\mathrm{{rank}}_1}}", rf"&= \frac{{1}}{{{whole(first)}}} = {decimal(b.value)}"]
    )


def reciprocal_rank_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    k = measure.k
    relevant = np.flatnonzero(data.relevant())
    slots, first = np.unique(data.slot[relevant], return_index=True)  # rows are in rank order
    first_rank = data.rank[relevant][first]
    values = np.zeros(data.size)
    hit = first_rank <= k if k is not None else np.ones(len(first_rank), dtype=bool)
    values[slots[hit]] = 1 / first_rank[hit]
    return values


RECIPROCAL_RANK = Family(
    key="RR",
    title="Reciprocal rank",
    help="Reciprocal rank: 1 / rank of the first relevant doc; 0 if none was retrieved.",
    function=reciprocal_rank,
    kernel=reciprocal_rank_kernel,
    kind="order",
    teaching=Teaching(
        reciprocal_rank_definition,
        reciprocal_rank_worked,
        terms=(Term.FIRST_RELEVANT_RANK,),
        plain=(
            "rewards showing the first relevant document early in {top}: 1 at rank 1, 1/2 at rank 2, "
            "1/3 at rank 3; the relevant documents after the first do not count"
        ),
    ),
    written="both",
    names=Names(spellings=("mrr", "recip_rank"), ir_measures="RR", tools={"ranx": "mrr@k", "BEIR": "MRR@k"}),
    trec_eval=TrecEval("recip_rank"),
    default=Default(3, cutoff=10),
    order=60,
)
