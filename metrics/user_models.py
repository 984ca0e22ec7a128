"""User models: rank-biased precision (a patient user who goes on to the next document with probability p) and
expected reciprocal rank (a cascade: the user stops at a document with a probability that grows with its grade)."""

from __future__ import annotations

from dataclasses import dataclass

from metrics._checks import checked
from metrics.conventions import TREC_EVAL, Conventions
from metrics.judgments import level, level_counts, level_gains
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term

ERR_MAX_GRADE = 4  # gdeval's MAX_JUDGMENT: a grade-4 document satisfies the user with probability 15/16


def rbp_gains(qrels: Judgments) -> dict[int, float]:
    """The gain of each judged level in trec_eval's ``rbp``: the level itself, scaled to [0, 1] by the query's
    highest level when that is above 1 (``m_rbp.c``, "normalize gains to [0,1]").

    >>> rbp_gains({"a": 3, "b": 1, "c": 0})
    {0: 0.0, 1: 0.3333333333333333, 2: 0.6666666666666666, 3: 1.0}
    """
    levels = level_gains(level_counts(qrels))
    if not levels:
        return {}
    low, high = min(e.gain for e in levels), max(e.gain for e in levels)
    scale = low < 0 or high > 1
    return {e.level: (e.gain - low) / (high - low) if scale else e.gain for e in levels}


def rank_biased_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, p: float = 0.9
) -> Breakdown:
    r"""Rank-biased precision (trec_eval ``rbp``, p = 0.9 by default; ir_measures ``RBP(p=0.8)``).

    .. math:: \mathrm{RBP} = (1 - p) \sum_{i=1}^{n} g_i \, p^{\,i-1}

    A user reads rank 1, then goes on to the next rank with probability p; RBP is the expected gain per document
    read. Conventions (trec_eval ``m_rbp.c``): g_i is the grade, divided by the query's highest judged grade when
    that is above 1 (so binary qrels give 0 or 1); unjudged documents gain 0; the relevance threshold is ignored;
    p^(i-1) is built by repeated multiplication, as trec_eval does. ir_measures' ``RBP`` defaults to p = 0.8: write
    ``RBP(p=0.8)`` for its number. k keeps the top k. Moffat and Zobel, TOIS 2008.

    >>> round(rank_biased_precision(["r", "x", "r2"], {"r": 1, "r2": 1}, p=0.5).value, 4)  # 0.5 * (1 + 0.25)
    0.625
    """
    top = checked(ranking, qrels, k)
    gains = rbp_gains(qrels)
    weight, total, running, steps = 1.0, 0.0, 0.0, []
    for rank, doc in enumerate(top, start=1):
        gain = gains.get(level(qrels, doc), 0.0)
        contribution = 0.0
        if gain != 0:
            total += gain * weight
            contribution = (1.0 - p) * gain * weight
        running += contribution
        weight = weight * p
        grade = int(qrels.get(doc, 0))
        steps.append(RankStep(rank, doc, grade, grade >= conventions.threshold, contribution, running))
    value = (1.0 - p) * total
    return Breakdown("RBP", k, value, tuple(steps), {Term.PATIENCE: p, Term.DISCOUNTED_SUM: total}, conventions)


def rbp_residual(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, p: float = 0.9
) -> Breakdown:
    r"""The residual of RBP (trec_eval ``rbp_resid``): how much RBP could still rise if every unjudged retrieved
    document, and everything below the list, had the highest gain.

    .. math:: \mathrm{RBP_{resid}} = p^{\,n} + (1 - p) \sum_{i \leq n,\ d_i \text{ unjudged}} p^{\,i-1}

    Conventions (trec_eval ``m_rbp_resid.c``): unjudged means no qrels line or a negative grade; **a list with no
    unjudged document gives 0**, although the tail p^n beyond the list is still unknown (trec_eval computes the
    residual only when it saw an unjudged document). RBP lies in [RBP, RBP + residual]. k keeps the top k.

    >>> rbp_residual(["r", "x"], {"r": 1}, p=0.5).value  # 0.5**2 + 0.5 * 0.5
    0.5
    """
    top = checked(ranking, qrels, k)
    weight, unjudged_weight, count, steps = 1.0, 0.0, 0, []
    for rank, doc in enumerate(top, start=1):
        is_unjudged = level(qrels, doc) < 0
        contribution = 0.0
        if is_unjudged:
            count += 1
            unjudged_weight += weight
            contribution = (1.0 - p) * weight
        weight = weight * p
        running = (steps[-1].running if steps else 0.0) + contribution
        grade = int(qrels.get(doc, 0))
        steps.append(RankStep(rank, doc, grade, grade >= conventions.threshold, contribution, running))
    value = weight + (1 - p) * unjudged_weight if count else 0.0
    if count:  # the tail beyond the list has no rank: the last rank carries it, so the contributions sum to the value
        last = steps[-1]
        steps[-1] = RankStep(last.rank, last.doc_id, last.grade, last.relevant, last.contribution + weight, value)
    terms = {Term.PATIENCE: p, Term.UNJUDGED: count, Term.TAIL: weight if count else 0.0}
    return Breakdown("RBP_resid", k, value, tuple(steps), terms, conventions)


def rbp_weights(n: int, p: float) -> tuple[list[float], float]:
    """RBP's weight of ranks 1..n, (1 - p) p^(i-1), built by repeated multiplication as trec_eval does, and p^n,
    the weight of every rank below n together: the chance the user reads past rank n. They sum to 1.

    >>> rbp_weights(3, 0.5)
    ([0.5, 0.25, 0.125], 0.125)
    """
    weight, weights = 1.0, []
    for _ in range(n):
        weights.append((1.0 - p) * weight)
        weight = weight * p
    return weights, weight


@dataclass(frozen=True, slots=True)
class CascadeStep:
    """One rank of ERR's cascade."""

    rank: int
    doc_id: str
    grade: int
    reach: float  # the chance the user reads this far: the product of (1 - R_j) above
    stop: float  # R_i = (2^g - 1) / 2^4: the chance a reader stops here, satisfied
    contribution: float  # reach * stop / rank


def err_cascade(ranking: Ranking, qrels: Judgments, k: int | None = None) -> list[CascadeStep]:
    """ERR's cascade rank by rank (gdeval's conventions, see :func:`expected_reciprocal_rank`, which sums it).

    >>> [(s.reach, s.stop, s.contribution) for s in err_cascade(["a", "b"], {"a": 4, "b": 1})]
    [(1.0, 0.9375, 0.9375), (0.0625, 0.0625, 0.001953125)]
    """
    still_reading, steps = 1.0, []
    for rank, doc in enumerate(checked(ranking, qrels, k), start=1):
        grade = int(qrels.get(doc, 0))
        satisfied = (2 ** min(max(grade, 0), ERR_MAX_GRADE) - 1) / 2**ERR_MAX_GRADE
        steps.append(CascadeStep(rank, doc, grade, still_reading, satisfied, satisfied * still_reading / rank))
        still_reading *= 1 - satisfied
    return steps


def expected_reciprocal_rank(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Expected reciprocal rank at k (ir_measures ``ERR@k``, computed there by gdeval).

    .. math:: \mathrm{ERR@}k = \sum_{i=1}^{k} \frac{R_i}{i} \prod_{j < i} (1 - R_j),
        \qquad R_i = \frac{2^{g_i} - 1}{2^{4}}

    A cascade: the user stops at rank i, satisfied, with probability R_i, else reads on. Conventions (gdeval, as
    ir_measures runs it): the highest grade is 4, so a grade-4 document stops the user with probability 15/16;
    grades above 4, which gdeval refuses, count as 4; unjudged documents and grades <= 0 have R = 0; the relevance
    threshold is ignored. gdeval prints 5 decimals. Chapelle et al., CIKM 2009.

    >>> expected_reciprocal_rank(["a", "b"], {"a": 1, "b": 4}, k=10).value == 1 / 16 + (15 / 16) * (15 / 16) / 2
    True
    """
    total, still_reading, steps = 0.0, 1.0, []
    for s in err_cascade(ranking, qrels, k):
        total += s.contribution
        still_reading = s.reach * (1 - s.stop)
        steps.append(RankStep(s.rank, s.doc_id, s.grade, s.grade >= conventions.threshold, s.contribution, total))
    return Breakdown("ERR", k, total, tuple(steps), {Term.STILL_READING: still_reading}, conventions)

