"""trec_eval's gain measures beyond NDCG: binG and G (gain discounted by how far the ranking lags behind the ideal
one), Rndcg (NDCG averaged at the R levels) and ndcg_rel (NDCG averaged at the relevant documents), and the walk
machinery that NDCG with a gain map (``ndcg.1=3,2=9,4=4.5``, metrics.families.dcg) shares with them.

Each measure is a walk down the ranking beside the ideal ranking, written once here as a function of trec_eval's
relevance values (``metrics.judgments``: the grade, or -1 / -2 for unjudged documents) so that the engine's
kernels walk exactly the same steps. The experimental ones (G, Rndcg, ndcg_rel) follow ``m_G.c``, ``m_Rndcg.c``
and ``m_ndcg_rel.c`` step for step, including what happens at the edges.

The kernels are vectorized over queries. The ideal ranking is built per group of queries with the same number of
levels (trec_eval's level order depends only on that and the gain map). Running sums that the walks add one rank
after the other are added here the n-th row of every query at once (``_running``), so each query's sums stay
sequential. With a gain map holding fractions, G, Rndcg and ndcg_rel run the walk itself once per query
(``_walks``): their sums over ranks with no judged document decide the last bit there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from metrics._checks import checked, count_relevant
from metrics.conventions import TREC_EVAL, Conventions
from metrics.family import GAINS, Family
from metrics.judgments import (
    NOT_IN_POOL,
    POOL_UNJUDGED,
    Gains,
    LevelGain,
    gain_of,
    ideal_gains,
    ieee_divide,
    level,
    level_counts,
    level_gains,
)
from metrics.latex import aligned_block, decimal, elided_sum, whole
from metrics.lazy_numpy import np
from metrics.prepared import log2_discounts, position_within, ratio
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


def walk_values(ranking: Ranking, qrels: Judgments, k: int | None) -> tuple[Ranking, list[int]]:
    top = checked(ranking, qrels, k)
    return top, [level(qrels, doc) for doc in top]


def walk_breakdown(family: str, top: Ranking, qrels: Judgments, k, walk: Walk, conventions: Conventions) -> Breakdown:
    steps, running = [], 0.0
    for rank, (doc, contribution) in enumerate(zip(top, walk.contributions, strict=True), start=1):
        running += contribution
        grade = int(qrels.get(doc, 0))
        steps.append(RankStep(rank, doc, grade, grade >= conventions.threshold, contribution, running))
    return Breakdown(family, k, walk.value, tuple(steps), walk.terms, conventions)


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
    top, values = walk_values(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    return walk_breakdown("binG", top, qrels, k, binary_g_walk(values, conventions.threshold, R), conventions)


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
    top, values = walk_values(ranking, qrels, k)
    walk = g_walk(values, level_gains(level_counts(qrels), gains))
    return walk_breakdown("G", top, qrels, k, walk, conventions)


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
    top, values = walk_values(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    walk = rndcg_walk(values, level_gains(level_counts(qrels), gains), R)
    return walk_breakdown("Rndcg", top, qrels, k, walk, conventions)


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
    top, values = walk_values(ranking, qrels, k)
    walk = ndcg_rel_walk(values, level_gains(level_counts(qrels), gains))
    return walk_breakdown("ndcg_rel", top, qrels, k, walk, conventions)


# --- definitions and worked formulas (LaTeX) ---


def bing_definition(c: Conventions) -> str:
    return r"\mathrm{binG} = \frac{1}{R} \sum_{d_i \text{ relevant}} \frac{1}{\log_2(2 + n_i)}"


def bing_worked(b: Breakdown) -> str:
    R = whole(b.terms[Term.R])
    lines = [r"\mathrm{binG} &= \frac{1}{R} \sum_{d_i \text{ relevant}} \frac{1}{\log_2(2 + n_i)}"]
    if not b.terms[Term.HITS]:
        lines.append(r"&= 0 \quad \text{(no relevant document retrieved)}")
        return aligned_block(lines)
    hits, terms, values = 0, [], []
    for st in b.steps:
        if st.relevant:
            hits += 1
            terms.append(rf"\frac{{1}}{{\log_2 {2 + st.rank - hits}}}")
            values.append(st.contribution)
    lines.append(rf"&= \frac{{1}}{{{R}}} \Bigl( {elided_sum(terms, values)} \Bigr) = {decimal(b.value)}")
    return aligned_block(lines)


def g_definition(c: Conventions) -> str:
    return (
        r"\mathrm{G} = \frac{1}{\sum_i g^*_i} \sum_i \frac{g_i}{\log_2\bigl(2 + \sum_{j \leq i} \max(g^*_j, 1) - "
        r"\sum_{j \leq i} g_j\bigr)}"
    )


def g_worked(b: Breakdown) -> str:
    lines = [r"\mathrm{G} &= \frac{1}{\sum_i g^*_i} \sum_i \frac{g_i}{\log_2(2 + \mathrm{cost}_i - \mathrm{gain}_i)}"]
    best = b.terms[Term.IDEAL_GAIN]
    if not best:
        lines.append(r"&= 0 \quad \text{(no judged document with a positive gain)}")
        return aligned_block(lines)
    lines.append(rf"&= \frac{{{decimal(b.terms[Term.SUM])}}}{{{decimal(best)}}} = {decimal(b.value)}")
    return aligned_block(lines)


def rndcg_definition(c: Conventions) -> str:
    return (
        r"\mathrm{Rndcg} = \frac{1}{m} \sum_{j=1}^{m} \mathrm{NDCG@}r_j \quad "
        r"(r_j\text{: where the ideal gain drops})"
    )


def averaged_worked(symbol: str, b: Breakdown, what: str) -> str:
    points = whole(b.terms[Term.POINTS])
    lines = [rf"{symbol} &= \frac{{1}}{{m}} \sum_{{j=1}}^{{m}} \mathrm{{NDCG}}_j \quad \text{{({what})}}"]
    if not b.terms[Term.POINTS] or not b.value:
        lines.append(r"&= 0")
        return aligned_block(lines)
    lines.append(rf"&= \frac{{{decimal(b.terms[Term.SUM])}}}{{{points}}} = {decimal(b.value)}")
    return aligned_block(lines)


def rndcg_worked(b: Breakdown) -> str:
    return averaged_worked(r"\mathrm{Rndcg}", b, "NDCG where the ideal gain changes level, and at the list's end")


def ndcg_rel_definition(c: Conventions) -> str:
    return r"\mathrm{ndcg\_rel} = \frac{1}{R_g} \sum_{d \text{ with gain} > 0} \mathrm{NDCG@rank}(d)"


def ndcg_rel_worked(b: Breakdown) -> str:
    return averaged_worked(r"\mathrm{ndcg\_rel}", b, "NDCG at each document with a positive gain")


# --- engine kernels: one value per evaluated query (metrics.prepared), equal to the readable functions ---


def binary_g_kernel(data, measure) -> np.ndarray:
    slot, rank, grade = data.within(measure.k)
    relevant = grade >= data.conventions.threshold
    slot, rank = slot[relevant], rank[relevant]
    hits = position_within(slot)
    arguments, inverse = np.unique(3 + (rank - 1) - hits, return_inverse=True)
    logs = np.array([math.log2(a) for a in arguments.tolist()], dtype=np.float64)[inverse]
    return ratio(np.bincount(slot, weights=1.0 / logs, minlength=data.size), data.R)


def _level_counts(data) -> list[list[int]]:
    """Each query's judged documents per level 0, 1, ... (trec_eval's rel_levels), up to its highest level."""
    matrix = _level_matrix(data)
    top = _levels_present(matrix)
    return [row[:length] for row, length in zip(matrix.tolist(), top.tolist(), strict=True)]


def _level_matrix(data) -> np.ndarray:
    """counts[slot, level]: the query's judged documents at each level >= 0."""
    highest = int(data.ideal_grade.max()) if len(data.ideal_grade) else 0
    counts = np.zeros((data.size, highest + 1), dtype=np.int64)
    np.add.at(counts, (data.ideal_slot, data.ideal_grade), 1)
    below = np.bincount(data.ideal_slot[data.ideal_grade < data.conventions.threshold], minlength=data.size)
    counts[:, 0] = data.nonrel - below  # grade 0: judged non-relevant minus the positive grades below the threshold
    return counts


def _levels_present(counts: np.ndarray) -> np.ndarray:
    """trec_eval's num_rel_levels: 1 + the highest level with a document, 0 if none."""
    present = counts > 0
    return np.where(present.any(axis=1), counts.shape[1] - np.argmax(present[:, ::-1], axis=1), 0)


def _gains_of(measure) -> tuple[tuple[int, float], ...]:
    return measure.param("gains")


def ideal_rows(data, gains) -> tuple[np.ndarray, np.ndarray]:
    """(slot, gain) of every query's ideal ranking, best first, as metrics.judgments.ideal_gains walks it: levels in
    trec_eval's order (which depends only on how many levels the query has), from the top down, stopping at the
    first level with documents whose gain is not positive."""
    counts = _level_matrix(data)
    present = _levels_present(counts)
    slots, values = [np.zeros(0, dtype=np.int64)], [np.zeros(0)]
    for levels_present in np.unique(present).tolist():
        group = np.flatnonzero(present == levels_present)
        order = level_gains([0] * levels_present, gains)[::-1]  # best first; the counts do not change the order
        if not order:
            continue
        level = np.array([e.level for e in order])
        gain = np.array([e.gain for e in order])
        inside = (level >= 0) & (level < counts.shape[1])
        at_level = np.zeros((len(group), len(order)), dtype=np.int64)
        at_level[:, inside] = counts[group][:, level[inside]]
        blocked = (at_level > 0) & (gain <= 0)  # the walk stops here
        blocked[:, 0] |= gain[0] <= 0  # ... or before it starts
        open_ = np.cumsum(blocked, axis=1) == 0
        repeats = np.where(open_, at_level, 0)
        slots.append(np.repeat(np.repeat(group, len(order)), repeats.ravel()))
        values.append(np.repeat(np.tile(gain, len(group)), repeats.ravel()))
    slot, value = np.concatenate(slots), np.concatenate(values)
    order = np.argsort(slot, kind="stable")
    return slot[order], value[order]


def row_gains(grade: np.ndarray, gains) -> np.ndarray:
    """trec_eval's get_gain for each judged retrieved row: the map's gain, else the level itself; 0 below 0."""
    out = np.where(grade >= 0, grade, 0).astype(np.float64)
    for mapped, gain in gains:
        out[grade == mapped] = gain
    return out


def _integer(gains) -> bool:
    return all(float(g).is_integer() for _, g in gains)


def _walks(data, measure, walk) -> np.ndarray:
    """``walk(values, levels, slot)`` for every query, on its relevance values within k."""
    gains = _gains_of(measure)
    slot, rank, grade = data.within(measure.k)
    n = data.retrieved(measure.k).tolist()
    values: list[list[int]] = [[NOT_IN_POOL] * length for length in n]
    for s, r, g in zip(slot.tolist(), rank.tolist(), grade.tolist(), strict=True):
        values[s][r - 1] = g if g >= 0 else POOL_UNJUDGED
    counts = _level_counts(data)
    out = np.zeros(data.size)
    for s in range(data.size):
        out[s] = walk(values[s], level_gains(counts[s], gains), s).value
    return out


def normalized_gain_kernel(data, measure) -> np.ndarray:
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


def _running(slot: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """Each row's running total within its query, added one row after the other as the walks add them: the n-th
    row of every query at once, so the sums are sequential per query."""
    out = np.empty(len(slot))
    totals = np.zeros(size)
    position = position_within(slot)
    # The rows grouped by position once (a stable sort), rather than every row compared with each position in
    # turn (1,000 positions x 200k rows under all_trec); each slot still adds its rows in position order.
    by_position = np.argsort(position, kind="stable")
    bounds = np.searchsorted(position[by_position], np.arange(1, int(position.max(initial=0)) + 2))
    for first, stop in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        rows = by_position[first:stop]
        totals[slot[rows]] += weights[rows]
        out[rows] = totals[slot[rows]]
    return out


class _Sums:
    """The running DCG of the ranking (judged rows with a gain) and of the ideal ranking, looked up at any rank."""

    def __init__(self, data, measure):
        gains = _gains_of(measure)
        slot, rank, grade = data.within(measure.k)
        gain = row_gains(grade, gains)
        nonzero = gain != 0
        self.size, self.n = data.size, data.retrieved(measure.k)
        self.slot, self.rank, self.gain = slot[nonzero], rank[nonzero], gain[nonzero]
        self.dcg = _running(self.slot, self.gain / log2_discounts(self.rank), data.size)
        self.ideal_slot, self.ideal_gain = ideal_rows(data, gains)
        position = position_within(self.ideal_slot)
        self.idcg = _running(self.ideal_slot, self.ideal_gain / log2_discounts(position), data.size)
        self.length = np.bincount(self.ideal_slot, minlength=data.size)
        self.ideal_start = np.cumsum(self.length) - self.length
        self._width = int(max(self.rank.max(initial=0), self.n.max(initial=0))) + 1

    def dcg_at(self, slot: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """The DCG of ranks 1..rank of each query."""
        keys = self.slot * self._width + self.rank
        at = np.searchsorted(keys, slot * self._width + rank, side="right") - 1
        found = (at >= 0) & (self.slot[np.maximum(at, 0)] == slot) if len(keys) else np.zeros(len(slot), dtype=bool)
        return np.where(found, self.dcg[np.maximum(at, 0)] if len(keys) else 0.0, 0.0)

    def idcg_at(self, slot: np.ndarray, position: np.ndarray) -> np.ndarray:
        """The ideal DCG of positions 1..position (0 for position 0)."""
        index = self.ideal_start[slot] + position - 1
        return np.where(position > 0, self.idcg[np.maximum(index, 0)] if len(self.idcg) else 0.0, 0.0)


def rndcg_kernel(data, measure) -> np.ndarray:
    if not _integer(_gains_of(measure)):
        R = data.R.tolist()
        return _walks(data, measure, lambda values, levels, s: rndcg_walk(values, levels, R[s]))
    sums = _Sums(data, measure)
    # the NDCG points: each ideal position i (1..L) where the ideal gain changes (at L it drops to the end), then
    # the end of a ranking longer than L + 1
    slot, gain = sums.ideal_slot, sums.ideal_gain
    position = position_within(slot)
    last = position == sums.length[slot]
    changes = np.zeros(len(slot), dtype=bool)
    changes[1:] = (slot[1:] == slot[:-1]) & (gain[1:] != gain[:-1])
    at_change = np.concatenate([position[changes] - 1, position[last]])  # i: the point sees ranks 1..i
    change_slot = np.concatenate([slot[changes], slot[last]])
    keep = at_change > 0
    at_change, change_slot = at_change[keep], change_slot[keep]
    ends = np.flatnonzero((sums.length > 0) & (sums.length + 1 < sums.n))
    point_slot = np.concatenate([change_slot, ends])
    seen = np.minimum(np.concatenate([at_change, sums.n[ends]]), sums.n[point_slot])
    ideal_at = np.concatenate([at_change, sums.length[ends]])
    order = np.lexsort((np.arange(len(point_slot)), point_slot))  # by query, then changes in order, then the end
    point_slot, seen, ideal_at = point_slot[order], seen[order], ideal_at[order]
    with np.errstate(divide="ignore", invalid="ignore"):
        values = sums.dcg_at(point_slot, seen) / sums.idcg_at(point_slot, ideal_at)
    total = np.bincount(point_slot, weights=values, minlength=data.size)
    points = np.bincount(point_slot, minlength=data.size)
    with np.errstate(invalid="ignore"):  # no point: trec_eval's 0/0 (rndcg_walk)
        return np.where(data.R > 0, total / points, 0.0)


def ndcg_rel_kernel(data, measure) -> np.ndarray:
    if not _integer(_gains_of(measure)):
        return _walks(data, measure, lambda values, levels, _: ndcg_rel_walk(values, levels))
    sums = _Sums(data, measure)
    positive = sums.gain > 0
    slot, rank = sums.slot[positive], sums.rank[positive]
    with np.errstate(divide="ignore", invalid="ignore"):
        at_rows = sums.dcg[positive] / sums.idcg_at(slot, np.minimum(rank, sums.length[slot]))
        total = np.bincount(slot, weights=at_rows, minlength=data.size)
        everything = np.arange(data.size)
        final = sums.dcg_at(everything, sums.n)
        missed = (sums.length - np.bincount(slot, minlength=data.size)).astype(np.float64) * final
        total = total + missed / sums.idcg_at(everything, sums.length)
        return np.where(total > 0.0, total / sums.length, 0.0)


# --- the families' declarations (metrics.registry collects them) ---

BINARY_G = Family(
    "binG",
    "Binary G",
    binary_g,
    binary_g_kernel,
    "order",
    "binG (experimental): each relevant document counts 1 / log2(2 + non-relevant ones above it), divided by R.",
    bing_definition,
    bing_worked,
    (Term.SUM, Term.R, Term.HITS),
    usually_cut=False,
    cutoff="none",
    trec_eval="binG",
)

NORMALIZED_GAIN = Family(
    "G",
    "Normalised gain G",
    normalized_gain,
    normalized_gain_kernel,
    "order",
    "G (experimental): each gain discounted by how far the ranking's total gain lags behind the ideal one.",
    g_definition,
    g_worked,
    (Term.SUM, Term.IDEAL_GAIN),
    usually_cut=False,
    cutoff="none",
    trec_eval="G",
    params=(GAINS,),
)

RNDCG = Family(
    "Rndcg",
    "NDCG averaged at the R levels",
    rndcg,
    rndcg_kernel,
    "order",
    "Rndcg (experimental): NDCG taken wherever the ideal gain drops a level, and at the list's end, averaged.",
    rndcg_definition,
    rndcg_worked,
    (Term.SUM, Term.POINTS),
    usually_cut=False,
    cutoff="none",
    trec_eval="Rndcg",
    params=(GAINS,),
)

NDCG_REL = Family(
    "ndcg_rel",
    "NDCG averaged over relevant documents",
    ndcg_rel,
    ndcg_rel_kernel,
    "order",
    "ndcg_rel (experimental): NDCG at each document with a positive gain (missed ones at the end), averaged.",
    ndcg_rel_definition,
    ndcg_rel_worked,
    (Term.SUM, Term.POINTS),
    usually_cut=False,
    cutoff="none",
    trec_eval="ndcg_rel",
    params=(GAINS,),
)
