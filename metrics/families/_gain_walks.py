"""The walk machinery of trec_eval's gain measures, shared by binG, G, Rndcg, ndcg_rel and NDCG with a gain map
(``ndcg.1=3,2=9,4=4.5``): a walk down the ranking beside the ideal ranking.

Each measure is such a walk, written once here as a function of trec_eval's relevance values
(``metrics.core.judgments``: the grade, or -1 / -2 for unjudged documents) so that the engine's kernels walk exactly the
same steps. The experimental ones (G, Rndcg, ndcg_rel) follow ``m_G.c``, ``m_Rndcg.c`` and ``m_ndcg_rel.c`` step for
step, including what happens at the edges.

The kernels are vectorized over queries. The ideal ranking is built per group of queries with the same number of
levels (trec_eval's level order depends only on that and the gain map). Running sums that the walks add one rank
after the other are added here the n-th row of every query at once (``_running``), so each query's sums stay
sequential. With a gain map holding fractions, G, Rndcg and ndcg_rel run the walk itself once per query
(``_walks``): their sums over ranks with no judged document decide the last bit there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from metrics.core.checks import checked
from metrics.core.conventions import Conventions
from metrics.core.judgments import NOT_IN_POOL, POOL_UNJUDGED, LevelGain, level, level_gains
from metrics.core.lazy_numpy import np
from metrics.core.prepared import log2_discounts, position_within
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.teaching.latex import aligned_block, decimal, whole


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


def averaged_worked(symbol: str, b: Breakdown, what: str) -> str:
    points = whole(b.terms[Term.POINTS])
    lines = [rf"{symbol} &= \frac{{1}}{{m}} \sum_{{j=1}}^{{m}} \mathrm{{NDCG}}_j \quad \text{{({what})}}"]
    if not b.terms[Term.POINTS] or not b.value:
        lines.append(r"&= 0")
        return aligned_block(lines)
    lines.append(rf"&= \frac{{{decimal(b.terms[Term.SUM])}}}{{{points}}} = {decimal(b.value)}")
    return aligned_block(lines)


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
    """(slot, gain) of every query's ideal ranking, best first, as metrics.core.judgments.ideal_gains walks it: levels
    in trec_eval's order (which depends only on how many levels the query has), from the top down, stopping at the
    first level with documents whose gain is not positive."""
    counts = _level_matrix(data)
    present = _levels_present(counts)
    slots, values = [np.zeros(0, dtype=np.int64)], [np.zeros(0)]
    for levels_present in np.flatnonzero(np.bincount(present, minlength=1)).tolist():  # (np.unique loads numpy.ma)
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
    by_slot = np.argsort(slot, kind="stable")
    return slot[by_slot], value[by_slot]


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
