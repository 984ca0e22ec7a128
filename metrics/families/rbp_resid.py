"""Rank-biased precision residual (RBP_resid). RBP residual: how much RBP could still rise if the unjudged documents and
the rest of the list were relevant.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import PATIENCE, Family, Teaching, TrecEval
from metrics.core.checks import checked
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import level
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.families._rbp_powers import _powers
from metrics.teaching.latex import aligned_block, compact, decimal

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

TAIL = Term("p^n")


def rbp_residual(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, p: float = 0.9
) -> Breakdown:
    r"""The residual of RBP: how much it could still rise if every unjudged retrieved document, and everything below the
    list, had the highest gain.

    trec_eval ``rbp_resid``.

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
        ``value`` is the residual, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, an
        unjudged one contributing (1 - p) p^(i-1), and the last rank also the tail p^n; ``terms`` holds p
        (``Term.PATIENCE``), the unjudged docs (``Term.UNJUDGED``) and the tail (``"p^n"``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    rank_biased_precision

    Notes
    -----
    .. math:: \mathrm{RBP_{resid}} = p^{\,n} + (1 - p) \sum_{i \leq n,\ d_i \text{ unjudged}} p^{\,i-1}

    Conventions (trec_eval ``m_rbp_resid.c``): unjudged means no qrels line or a negative grade; **a list with no
    unjudged document gives 0**, although the tail p^n beyond the list is still unknown (trec_eval computes the
    residual only when it saw an unjudged document). RBP lies in [RBP, RBP + residual]. k keeps the top k.

    Examples
    --------
    >>> rbp_residual(["r", "x"], {"r": 1}, p=0.5).value  # 0.5**2 + 0.5 * 0.5
    0.5
    >>> rbp_residual(["r"], {"r": 1}, p=0.5).value  # no unjudged document
    0.0
    """
    top = checked(ranking, qrels, k)
    weight, unjudged_weight, count = 1.0, 0.0, 0
    steps: list[RankStep] = []
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
    terms = {Term.PATIENCE: p, Term.UNJUDGED: count, TAIL: weight if count else 0.0}
    return Breakdown("RBP_resid", k, value, tuple(steps), terms, conventions)


def rbp_resid_definition(c: Conventions) -> str:
    return r"\mathrm{RBP_{resid}} = p^{\,n} + (1 - p) \sum_{i \leq n,\ d_i \text{ unjudged}} p^{\,i-1}"


def rbp_resid_worked(b: Breakdown) -> str:
    p = b.terms[Term.PATIENCE]
    unjudged_sum = r"\sum_{d_i \text{ unjudged}} p^{\,i-1}"
    lines = [rf"\mathrm{{RBP_{{resid}}}} &= p^{{\,n}} + (1 - p) {unjudged_sum} \quad (p = {compact(p)})"]
    if not b.terms[Term.UNJUDGED]:
        lines.append(r"&= 0 \quad \text{(no unjudged document in the list: trec\_eval reports 0)}")
        return aligned_block(lines)
    unjudged = sum(st.contribution for st in b.steps) - b.terms[TAIL]  # the last rank's step carries the tail
    lines.append(rf"&= {decimal(b.terms[TAIL])} + {decimal(unjudged)} = {decimal(b.value)}")
    return aligned_block(lines)


def rbp_residual_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    p = float(measure.number("p"))
    n = data.retrieved(measure.k)
    slot, rank, grade = data.within(measure.k)
    judged_rows = grade >= 0
    slot, rank = slot[judged_rows], rank[judged_rows]
    weights = _powers(p, int(n.max()) if data.size else 0)
    count = n - np.bincount(slot, minlength=data.size)  # unjudged ranks
    longest = int(n.max()) if data.size else 0
    if longest * data.size <= _RANK_STEPS_PER_RANK * int(n.sum()):
        unjudged_weight = _unjudged_weight_by_rank(data.size, n, slot, rank, weights, longest)
    else:  # a few very long lists: expand every rank instead (memory: 30 bytes per rank)
        unjudged_weight = _unjudged_weight_expanded(data.size, n, slot, rank, weights)
    return np.where(count > 0, weights[n] + (1 - p) * unjudged_weight, 0.0)


_RANK_STEPS_PER_RANK = 4  # lists of about equal length: a step per rank; else (a few very long lists) expand them


def _unjudged_weight_by_rank(size, n, slot, rank, weights, longest) -> np.ndarray:
    """Each query's sum of weights[r - 1] over its unjudged ranks r, added rank after rank (as the readable loop adds;
    adding 0.0 for a judged rank changes no sum): one step per rank for every query at once, in memory of one
    bit per (query, rank), where expanding every rank of every list costs 30 bytes per rank (70 MB at 2M ranks)."""
    judged = np.zeros((longest, size), dtype=bool)  # rank-major: each step reads one contiguous row
    judged[rank - 1, slot] = True
    total = np.zeros(size)
    unjudged = np.empty(size, dtype=bool)
    for r in range(longest):
        np.less(r, n, out=unjudged)
        unjudged &= ~judged[r]
        total += np.where(unjudged, weights[r], 0.0)
    return total


def _unjudged_weight_expanded(size, n, slot, rank, weights) -> np.ndarray:
    all_slots = np.repeat(np.arange(size), n)
    starts = np.cumsum(n) - n
    all_ranks = np.arange(len(all_slots)) - np.repeat(starts, n) + 1
    unjudged = np.ones(len(all_slots), dtype=bool)
    unjudged[starts[slot] + rank - 1] = False
    return np.bincount(all_slots[unjudged], weights=weights[all_ranks[unjudged] - 1], minlength=size)


RBP_RESIDUAL = Family(
    key="RBP_resid",
    title="Rank-biased precision residual",
    help=(
        "RBP residual: how much RBP could still rise if the unjudged documents and the rest of the list were relevant."
    ),
    function=rbp_residual,
    kernel=rbp_residual_kernel,
    kind="order",
    teaching=Teaching(
        rbp_resid_definition,
        rbp_resid_worked,
        terms=(Term.PATIENCE, Term.UNJUDGED, TAIL),
        plain=(
            "is no score: it is how much RBP could still rise if the unjudged documents were "
            "relevant; a large value means RBP is unsure"
        ),
    ),
    written="whole",
    params=(PATIENCE,),
    trec_eval=TrecEval("rbp_resid", zero_when_missing=True),
    order=310,
)
