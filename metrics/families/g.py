"""Normalised gain G (G). G (experimental): each gain discounted by how far the ranking's total gain lags behind the
ideal one.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from metrics.catalog.family import GAINS, Family, Teaching, TrecEval
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import Gains, LevelGain, gain_of, ideal_gains, ieee_divide, level_counts, level_gains
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, position_within, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._gain_walks import (
    Walk,
    _gains_of,
    _integer,
    _walks,
    ideal_rows,
    row_gains,
    walk_breakdown,
    walk_values,
)
from metrics.teaching.latex import aligned_block, decimal

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

IDEAL_GAIN = Term("ideal gain")


def _log2(x: float) -> float:
    """C's log2: -inf at 0 and nan below (math.log2 raises there)."""
    if x > 0:
        return math.log2(x)
    return -math.inf if x == 0 else math.nan


def g_walk(values: Sequence[int], levels: Sequence[LevelGain]) -> Walk:
    """trec_eval's ``G`` (``m_G.c``): each gain divided by log2(2 + cost so far - gain so far), where the cost adds
    the ideal gain at each rank (at least 1), then normalised by the ideal ranking's total gain."""
    ideal = list(ideal_gains(levels))
    gained = cost = total = 0.0
    contributions = []
    for i, value in enumerate(values):
        gain = gain_of(value, levels)
        gained += gain
        ideal_gain = ideal[i] if i < len(ideal) else 0.0
        cost += ideal_gain if ideal_gain >= 1.0 else 1.0
        term = ieee_divide(gain, _log2(2 + cost - gained)) if gain != 0 else 0.0
        if gain != 0:
            total += term
        contributions.append(term)
    best = 0.0
    for gain in ideal:
        best += gain
    score = total / best if best > 0.0 else 0.0
    shares = tuple(c / best if best > 0 else 0.0 for c in contributions)
    return Walk(score, shares, {Term.SUM: total, IDEAL_GAIN: best})


def normalized_gain(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""G: gain discounted by how far the ranking lags behind the ideal one.

    trec_eval ``G`` (experimental).

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
    gains : tuple of (int, float) pairs, optional
        A gain per relevance level, e.g. ``((1, 3.0), (2, 9.0))`` (trec_eval's ``NAME.1=3,2=9``); other levels gain
        their own number. Empty (the default): every level gains its number (its grade).

    Returns
    -------
    Breakdown
        ``value`` is G, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, contributing its
        discounted gain divided by the ideal gain; ``terms`` holds the sum (``Term.SUM``) and the ideal gain
        (``"ideal gain"``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    ndcg, binary_g

    Notes
    -----
    .. math:: G = \frac{1}{\sum_i g^*_i} \sum_i \frac{g_i}{\log_2\left(2 + \sum_{j \leq i} \max(g^*_j, 1)
        - \sum_{j \leq i} g_j\right)}

    Conventions (``m_G.c``): gains as in NDCG with a gain map; g*_j is the ideal gain at rank j (0 past the ideal
    ranking); no positive gain gives 0; k keeps the top k.

    Examples
    --------
    >>> normalized_gain(["a"], {"a": 1}).value
    1.0
    >>> round(normalized_gain(["a", "b"], {"a": 1, "b": 2}).value, 4)
    0.877
    """
    top, values = walk_values(ranking, qrels, k)
    walk = g_walk(values, level_gains(level_counts(qrels), gains))
    return walk_breakdown("G", top, qrels, k, walk, conventions)


def g_definition(c: Conventions) -> str:
    return (
        r"\mathrm{G} = \frac{1}{\sum_i g^*_i} \sum_i \frac{g_i}{\log_2\bigl(2 + \sum_{j \leq i} \max(g^*_j, 1) - "
        r"\sum_{j \leq i} g_j\bigr)}"
    )


def g_worked(b: Breakdown) -> str:
    lines = [r"\mathrm{G} &= \frac{1}{\sum_i g^*_i} \sum_i \frac{g_i}{\log_2(2 + \mathrm{cost}_i - \mathrm{gain}_i)}"]
    best = b.terms[IDEAL_GAIN]
    if not best:
        lines.append(r"&= 0 \quad \text{(no judged document with a positive gain)}")
        return aligned_block(lines)
    lines.append(rf"&= \frac{{{decimal(b.terms[Term.SUM])}}}{{{decimal(best)}}} = {decimal(b.value)}")
    return aligned_block(lines)


def normalized_gain_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    gains = _gains_of(measure)
    if not _integer(gains):  # sums of fractions: walk each query, in its own order
        return _walks(data, measure, lambda values, levels, _: g_walk(values, levels))
    # Whole gains: every running sum is a whole number, exact in any grouping, so it can be read off cumsums.
    slot, rank, grade = data.within(measure.k)
    gain = row_gains(grade, gains)
    gained = np.cumsum(gain)
    starts = np.flatnonzero(position_within(slot) == 1)
    gained -= np.repeat(gained[starts] - gain[starts], np.diff(np.append(starts, len(slot))))
    ideal_slot, ideal_gain = ideal_rows(data, gains)
    length = np.bincount(ideal_slot, minlength=data.size)
    ideal_starts = np.cumsum(length) - length
    prefix = np.concatenate([[0.0], np.cumsum(ideal_gain)])  # ideal gains are >= 1 here: cost = the ideal gain
    within_ideal = np.minimum(rank, length[slot])
    cost = prefix[ideal_starts[slot] + within_ideal] - prefix[ideal_starts[slot]] + (rank - within_ideal)
    nonzero = gain != 0
    arguments = 2 + cost[nonzero] - gained[nonzero]
    unique, inverse = np.unique(arguments, return_inverse=True)
    logs = np.array([math.log2(a) for a in unique.tolist()], dtype=np.float64)[inverse]
    total = np.bincount(slot[nonzero], weights=gain[nonzero] / logs, minlength=data.size)
    best = np.bincount(ideal_slot, weights=ideal_gain, minlength=data.size)
    return ratio(total, np.where(best > 0, best, 0.0))


NORMALIZED_GAIN = Family(
    key="G",
    title="Normalised gain G",
    help="G (experimental): each gain discounted by how far the ranking's total gain lags behind the ideal one.",
    function=normalized_gain,
    kernel=normalized_gain_kernel,
    kind="order",
    teaching=Teaching(
        g_definition,
        g_worked,
        terms=(Term.SUM, IDEAL_GAIN),
        plain=(
            "rewards a ranking whose gain keeps up with the best possible ranking's, rank by rank (an"
            " experimental measure)"
        ),
    ),
    cutoff="none",
    written="whole",
    params=(GAINS,),
    trec_eval=TrecEval("G"),
    order=340,
)
