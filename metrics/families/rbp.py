"""Rank-biased precision (RBP). RBP: expected gain per document read by a user who reads on with probability p
(trec_eval rbp, p = 0.9).

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import PATIENCE, Family, Names, Teaching, TrecEval
from metrics.core.checks import checked
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import level, level_counts, level_gains
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.families._rbp_powers import _powers
from metrics.teaching.latex import aligned_block, compact, decimal, elided_sum

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

DISCOUNTED_SUM = Term("sum of g_i p^(i-1)")


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
    r"""Rank-biased precision: the expected gain per document read by a user who reads on with probability p.

    trec_eval ``rbp`` (p = 0.9 by default); ir_measures ``RBP`` (p = 0.8 by default). Moffat and Zobel, TOIS 2008.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Keeps only the top k of the list (as trec_eval ``-M k``). None (the default) keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). None changes the value (the relevance
        threshold is ignored); ``threshold`` marks the steps' relevant docs (``RankStep.relevant``).
    p : float, optional
        The patience: the chance the user reads on to the next rank, 0 to 1 (0.9 by default, as trec_eval; a
        measure name checks the range, this function does not).

    Returns
    -------
    Breakdown
        ``value`` is RBP, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, contributing
        (1 - p) g_i p^(i-1); ``terms`` holds p (``Term.PATIENCE``) and the discounted sum (``"sum of g_i p^(i-1)"``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    rbp_residual : how much RBP could still rise on the unjudged documents.

    Notes
    -----
    .. math:: \mathrm{RBP} = (1 - p) \sum_{i=1}^{n} g_i \, p^{\,i-1}

    A user reads rank 1, then goes on to the next rank with probability p; RBP is the expected gain per document
    read. Conventions (trec_eval ``m_rbp.c``): g_i is the grade, divided by the query's highest judged grade when
    that is above 1 (so binary qrels give 0 or 1); unjudged documents gain 0; the relevance threshold is ignored;
    p^(i-1) is built by repeated multiplication, as trec_eval does. ir_measures' ``RBP`` defaults to p = 0.8: write
    ``RBP(p=0.8)`` for its number. k keeps the top k.

    Examples
    --------
    >>> round(rank_biased_precision(["r", "x", "r2"], {"r": 1, "r2": 1}, p=0.5).value, 4)  # 0.5 * (1 + 0.25)
    0.625
    >>> round(rank_biased_precision(["r", "x", "r2"], {"r": 3, "r2": 1}, p=0.5).value, 4)  # 0.5 * (3/3 + 0.25 * 1/3)
    0.5417
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
    return Breakdown("RBP", k, value, tuple(steps), {Term.PATIENCE: p, DISCOUNTED_SUM: total}, conventions)


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


def rbp_definition(c: Conventions) -> str:
    return r"\mathrm{RBP} = (1 - p) \sum_{i=1}^{n} g_i \, p^{\,i-1}"


def rbp_worked(b: Breakdown) -> str:
    p = b.terms[Term.PATIENCE]
    lines = [rf"\mathrm{{RBP}} &= (1 - p) \sum_i g_i \, p^{{\,i-1}} \quad (p = {compact(p)})"]
    gained = [st for st in b.steps if st.contribution]
    terms = [rf"{decimal(st.contribution / (1 - p))}" for st in gained] if p != 1 else []
    if terms:
        written = elided_sum(terms, [st.contribution for st in gained])
        lines.append(rf"&= {compact(1 - p)} \cdot \Bigl( {written} \Bigr)")
    lines.append(rf"&= {compact(1 - p)} \cdot {decimal(b.terms[DISCOUNTED_SUM])} = {decimal(b.value)}")
    return aligned_block(lines)


def rank_biased_precision_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    p = float(measure.number("p"))
    slot, rank, grade = data.within(measure.k)
    top_grade = np.zeros(data.size, dtype=np.int64)
    np.maximum.at(top_grade, data.ideal_slot, data.ideal_grade)  # the highest judged grade (trec_eval's levels)
    positive = grade > 0
    slot, rank, grade = slot[positive], rank[positive], grade[positive]
    highest = top_grade[slot]
    gain = np.where(highest > 1, grade.astype(np.float64) / highest.astype(np.float64), grade.astype(np.float64))
    weights = _powers(p, int(rank.max()) if len(rank) else 0)
    total = np.bincount(slot, weights=gain * weights[rank - 1], minlength=data.size)
    return (1.0 - p) * total


RANK_BIASED_PRECISION = Family(
    key="RBP",
    title="Rank-biased precision",
    help="RBP: expected gain per document read by a user who reads on with probability p (trec_eval rbp, p = 0.9).",
    function=rank_biased_precision,
    kernel=rank_biased_precision_kernel,
    kind="order",
    teaching=Teaching(
        rbp_definition,
        rbp_worked,
        terms=(Term.PATIENCE, DISCOUNTED_SUM),
        plain=(
            "rewards relevant documents early, for a reader who goes on to the next result with a "
            "fixed chance (0.9 unless set): the first ranks count most, and the list never quite ends"
        ),
    ),
    written="whole",
    params=(PATIENCE,),
    names=Names(ir_measures="RBP"),
    trec_eval=TrecEval("rbp"),
    order=300,
)
