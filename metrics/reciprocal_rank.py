"""Reciprocal rank: only the first relevant doc counts. MRR is its mean over queries."""

from __future__ import annotations

from metrics._checks import checked, judged
from metrics.conventions import TREC_EVAL, Conventions
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def reciprocal_rank(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Reciprocal rank (trec_eval ``recip_rank``; with k, ranx ``mrr@k`` / ir_measures ``RR@k``).

    .. math:: RR@k = \frac{1}{\mathrm{rank}_1} \text{ if } \mathrm{rank}_1 \leq k \text{, else } 0

    where rank_1 is the rank of the first doc with grade >= threshold.
    Conventions (trec_eval): no relevant doc in the list (or within k) gives 0.0. trec_eval's ``recip_rank`` has
    no cutoff; RR@k equals ``recip_rank`` on the run truncated to its top k.

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
