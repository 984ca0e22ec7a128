"""trec_eval's gain measures beyond NDCG: NDCG with a gain map (``ndcg.1=3,2=9,4=4.5``), binG and G (gain
discounted by how far the ranking lags behind the ideal one), Rndcg (NDCG averaged at the R levels) and ndcg_rel
(NDCG averaged at the relevant documents).

Each measure is a walk down the ranking beside the ideal ranking, written once here as a function of trec_eval's
relevance values (``metrics.judgments``: the grade, or -1 / -2 for unjudged documents) so that the engine's
kernels walk exactly the same steps. The experimental ones (G, Rndcg, ndcg_rel) follow ``m_G.c``, ``m_Rndcg.c``
and ``m_ndcg_rel.c`` step for step, including what happens at the edges.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

from metrics._checks import checked, count_relevant
from metrics.conventions import TREC_EVAL, Conventions
from metrics.judgments import Gains, LevelGain, gain_of, ideal_gains, ieee_divide, level, level_counts, level_gains
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def _log2(x: float) -> float:
    """C's log2: -inf at 0 and nan below (math.log2 raises there)."""
    if x > 0:
        return math.log2(x)
    return -math.inf if x == 0 else math.nan


@dataclass(frozen=True, slots=True)
class Walk:
    """A gain walk's value, each rank's contribution (the values sum to it) and its named terms."""

    value: float
    contributions: tuple[float, ...]
    terms: dict[Term, float]


class _Ideal:
    """trec_eval's ideal ranking, one position at a time: the current ideal gain after each ``advance``."""

    def __init__(self, levels: Sequence[LevelGain]):
        self.levels = levels
        self.current = len(levels) - 1
        self.gain = levels[self.current].gain if self.current >= 0 else 0.0
        self.at_level = 0

    def advance(self) -> None:
        self.at_level += 1
        while self.current >= 0 and self.at_level > self.levels[self.current].count:
            self.at_level = 1
            self.current -= 1
            self.gain = self.levels[self.current].gain if self.current >= 0 else 0.0


def ndcg_walk(values: Sequence[int], levels: Sequence[LevelGain], k: int | None) -> Walk:
    """NDCG with the levels' gains (``m_ndcg.c``): DCG of the ranking / DCG of the ideal ranking, both cut at k."""
    ideal = list(ideal_gains(levels))
    ideal = ideal if k is None else ideal[:k]
    best = 0.0
    for i, gain in enumerate(ideal):
        best += gain / math.log2(i + 2)
    total, terms = 0.0, []
    for i, value in enumerate(values):
        gain = gain_of(value, levels)
        term = gain / math.log2(i + 2) if gain != 0 else 0.0
        if gain != 0:
            total += term
        terms.append(term / best if best > 0 else 0.0)
    value = total / best if best > 0.0 else 0.0
    return Walk(value, tuple(terms), {Term.DCG: total, Term.IDCG: best})


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
    value = total / best if best > 0.0 else 0.0
    shares = tuple(c / best if best > 0 else 0.0 for c in contributions)
    return Walk(value, shares, {Term.SUM: total, Term.IDEAL_GAIN: best})


def binary_g_walk(values: Sequence[int], threshold: int, R: int) -> Walk:
    """trec_eval's ``binG`` (``m_binG.c``): each relevant document adds 1 / log2(2 + non-relevant docs above it)."""
    hits, total, contributions = 0, 0.0, []
    for i, value in enumerate(values):
        term = 0.0
        if value >= threshold:
            hits += 1
            term = 1.0 / math.log2(3 + i - hits)
            total += term
        contributions.append(term / R if R else 0.0)
    value = total / R if hits else 0.0
    return Walk(value, tuple(contributions), {Term.SUM: total, Term.R: R, Term.HITS: hits})


def rndcg_walk(values: Sequence[int], levels: Sequence[LevelGain], R: int) -> Walk:
    """trec_eval's ``Rndcg`` (``m_Rndcg.c``): NDCG taken where the ideal gain changes (the R levels) and at the end of
    the ranking, then averaged. R = 0 gives 0; R > 0 with no point gives NaN, as trec_eval's 0/0."""
    n = len(values)
    if R == 0:
        return Walk(0.0, (0.0,) * n, {Term.SUM: 0.0, Term.POINTS: 0})
    ideal = _Ideal(levels)
    previous = ideal.gain
    dcg = best = total = 0.0
    points: list[tuple[int, float]] = []  # (rank the point is shown at, NDCG there)

    def point(at_rank: int) -> None:
        nonlocal total
        if best > 0.0:
            total += dcg / best
            points.append((at_rank, dcg / best))

    i = 0
    while i < n and ideal.gain > 0.0:
        gain = gain_of(values[i], levels)
        ideal.advance()
        if previous != ideal.gain:
            point(max(i, 1))
            previous = ideal.gain
        if gain != 0:
            dcg += gain / math.log2(i + 2)
        if ideal.gain > 0.0:
            best += ideal.gain / math.log2(i + 2)
        i += 1
    if i < n:
        while i < n:
            gain = gain_of(values[i], levels)
            if gain != 0:
                dcg += gain / math.log2(i + 2)
            i += 1
        point(n)
    while ideal.gain > 0.0:
        ideal.advance()
        if previous != ideal.gain:
            point(n)
            previous = ideal.gain
        if ideal.gain > 0.0:
            best += ideal.gain / math.log2(i + 2)
        i += 1
    # trec_eval divides by the number of points even when there is none (R > 0 but no positive ideal gain, as at
    # -l 0 with only grade-0 judgments): 0/0, NaN, printed -nan
    value = total / len(points) if points else math.nan
    contributions = [0.0] * n
    for rank, ndcg_there in points:
        if n:
            contributions[rank - 1] += ndcg_there / len(points)
    return Walk(value, tuple(contributions), {Term.SUM: total, Term.POINTS: len(points)})


def ndcg_rel_walk(values: Sequence[int], levels: Sequence[LevelGain]) -> Walk:
    """trec_eval's ``ndcg_rel`` (``m_ndcg_rel.c``): NDCG at each retrieved document with a positive gain, plus the
    final NDCG for each positive-gain document not retrieved, averaged over the positive-gain documents."""
    n = len(values)
    ideal = _Ideal(levels)
    dcg = best = total = 0.0
    positive = retrieved_positive = 0
    contributions = [0.0] * n
    i = 0
    while i < n and ideal.gain > 0.0:
        gain = gain_of(values[i], levels)
        if gain != 0:
            dcg += gain / math.log2(i + 2)
        ideal.advance()
        if ideal.gain > 0.0:
            positive += 1
            best += ideal.gain / math.log2(i + 2)
        if gain > 0:
            contributions[i] = ieee_divide(dcg, best)
            total += contributions[i]
            retrieved_positive += 1
        i += 1
    while i < n:
        gain = gain_of(values[i], levels)
        if gain != 0:
            dcg += gain / math.log2(i + 2)
        if gain > 0:
            contributions[i] = ieee_divide(dcg, best)
            total += contributions[i]
            retrieved_positive += 1
        i += 1
    while ideal.gain > 0.0:
        ideal.advance()
        if ideal.gain > 0.0:
            positive += 1
            best += ideal.gain / math.log2(i + 2)
        i += 1
    missed = ieee_divide(float(positive - retrieved_positive) * dcg, best)
    total += missed
    value = ieee_divide(total, positive) if total > 0.0 else 0.0
    if n and not math.isnan(missed):
        contributions[-1] += missed
    shares = tuple(ieee_divide(c, positive) if value else 0.0 for c in contributions)
    return Walk(value, shares, {Term.SUM: total, Term.POINTS: positive})


# --- the readable functions: ranking and qrels in, Breakdown out -----------------------------------------------


def _values(ranking: Ranking, qrels: Judgments, k: int | None) -> tuple[Ranking, list[int]]:
    top = checked(ranking, qrels, k)
    return top, [level(qrels, doc) for doc in top]


def _breakdown(family: str, top: Ranking, qrels: Judgments, k, walk: Walk, conventions: Conventions) -> Breakdown:
    steps, running = [], 0.0
    for rank, (doc, contribution) in enumerate(zip(top, walk.contributions, strict=True), start=1):
        running += contribution
        grade = int(qrels.get(doc, 0))
        steps.append(RankStep(rank, doc, grade, grade >= conventions.threshold, contribution, running))
    return Breakdown(family, k, walk.value, tuple(steps), walk.terms, conventions)


def ndcg_with_gains(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""NDCG with a gain per relevance level (trec_eval ``ndcg.1=3,2=9,4=4.5``; ir_measures ``nDCG(gains=...)``).

    .. math:: \mathrm{NDCG} = \frac{\sum_i g(\ell_i) / \log_2(i+1)}{\sum_i g(\ell^*_i) / \log_2(i+1)}

    Conventions (trec_eval ``m_ndcg.c``, ``gain_init.c``): a level not in the map gains its own number; gains may be
    0 or negative, level 0 may gain; unjudged documents gain 0. The ideal ranking takes the levels by decreasing
    gain and stops at the first gain <= 0 (trec_eval orders gains less than 1 apart as equal: see
    metrics.judgments). k cuts both rankings (trec_eval's ``ndcg`` has no cutoff). IDCG = 0 gives 0.

    >>> b = ndcg_with_gains(["a", "b"], {"a": 1, "b": 2}, gains=((1, 3.0), (2, 9.0)))
    >>> b.value == (3 + 9 / math.log2(3)) / (9 + 3 / math.log2(3))
    True
    """
    top, values = _values(ranking, qrels, k)
    walk = ndcg_walk(values, level_gains(level_counts(qrels), gains), k)
    return dataclasses.replace(_breakdown("NDCG", top, qrels, k, walk, conventions), gains=tuple(gains))


def binary_g(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Binary G (trec_eval ``binG``, experimental): like AP, but each relevant document is discounted by the
    non-relevant (or unjudged) documents above it, logarithmically.

    .. math:: \mathrm{binG} = \frac{1}{R} \sum_{d_i \text{ relevant}} \frac{1}{\log_2(2 + n_i)}

    where n_i counts the documents above d_i that are not relevant. Conventions (``m_binG.c``): R = 0, or no
    relevant document retrieved, gives 0; k keeps the top k.

    >>> binary_g(["r", "x", "r2"], {"r": 1, "r2": 1}).value == (1 + 1 / math.log2(3)) / 2
    True
    """
    top, values = _values(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    return _breakdown("binG", top, qrels, k, binary_g_walk(values, conventions.threshold, R), conventions)


def normalized_gain(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""G (trec_eval ``G``, experimental): gain discounted by how far the ranking lags behind the ideal one.

    .. math:: G = \frac{1}{\sum_i g^*_i} \sum_i \frac{g_i}{\log_2\left(2 + \sum_{j \leq i} \max(g^*_j, 1)
        - \sum_{j \leq i} g_j\right)}

    Conventions (``m_G.c``): gains as in NDCG with a gain map; g*_j is the ideal gain at rank j (0 past the ideal
    ranking); no positive gain gives 0; k keeps the top k.

    >>> normalized_gain(["a"], {"a": 1}).value
    1.0
    """
    top, values = _values(ranking, qrels, k)
    walk = g_walk(values, level_gains(level_counts(qrels), gains))
    return _breakdown("G", top, qrels, k, walk, conventions)


def rndcg(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""NDCG averaged at the R levels (trec_eval ``Rndcg``, experimental).

    .. math:: \mathrm{Rndcg} = \frac{1}{m} \sum_{j=1}^{m} \mathrm{NDCG@}r_j

    where r_1 < r_2 < ... are the ranks where the ideal gain drops to the next level (5 grade-3, 3 grade-2 docs:
    r = 5, 8, ...) and the list length. Conventions (``m_Rndcg.c``): R = 0 (at the threshold) gives 0; gains as in
    NDCG with a gain map; k keeps the top k.

    >>> rndcg(["a", "b"], {"a": 2, "b": 1}).value
    1.0
    """
    top, values = _values(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    walk = rndcg_walk(values, level_gains(level_counts(qrels), gains), R)
    return _breakdown("Rndcg", top, qrels, k, walk, conventions)


def ndcg_rel(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""NDCG averaged over the relevant documents (trec_eval ``ndcg_rel``, experimental).

    .. math:: \mathrm{ndcg\_rel} = \frac{1}{R_g} \Bigl( \sum_{d_i \text{ retrieved},\ g_i > 0} \mathrm{NDCG@}i
        + (R_g - r_g) \cdot \mathrm{NDCG@}n \Bigr)

    R_g counts the judged documents with a positive gain, r_g those retrieved. Conventions (``m_ndcg_rel.c``):
    gains as in NDCG with a gain map; no positive gain gives 0; k keeps the top k.

    >>> ndcg_rel(["a", "b"], {"a": 2, "b": 1}).value
    1.0
    """
    top, values = _values(ranking, qrels, k)
    walk = ndcg_rel_walk(values, level_gains(level_counts(qrels), gains))
    return _breakdown("ndcg_rel", top, qrels, k, walk, conventions)
