"""Engine kernels of metrics.gain_measures (NDCG with a gain map, binG, G, Rndcg, ndcg_rel), equal bit for bit to
the readable functions.

All are vectorized over queries. The ideal ranking is built per group of queries with the same number of levels
(trec_eval's level order depends only on that and the gain map). Running sums that the walks add one rank after
the other are added here the n-th row of every query at once (``_running``), so each query's sums stay sequential.
With a gain map holding fractions, G, Rndcg and ndcg_rel run metrics.gain_measures' walk itself once per query
(``_walks``): their sums over ranks with no judged document decide the last bit there.
"""

from __future__ import annotations

import math

import numpy as np

from metrics import gain_measures
from metrics.engine import _position_within, _ratio
from metrics.judgments import NOT_IN_POOL, POOL_UNJUDGED, level_gains
from metrics.kernels_unjudged import shown, within


def binary_g(data, measure) -> np.ndarray:
    slot, rank, grade = within(data, measure.k)
    relevant = grade >= data.conventions.threshold
    slot, rank = slot[relevant], rank[relevant]
    hits = _position_within(slot)
    arguments, inverse = np.unique(3 + (rank - 1) - hits, return_inverse=True)
    logs = np.array([math.log2(a) for a in arguments.tolist()], dtype=np.float64)[inverse]
    return _ratio(np.bincount(slot, weights=1.0 / logs, minlength=data.size), data.R)


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
    return measure.param("gains") if _has_gains(measure) else ()


def _ideal(data, gains) -> tuple[np.ndarray, np.ndarray]:
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


def _row_gains(grade: np.ndarray, gains) -> np.ndarray:
    """trec_eval's get_gain for each judged retrieved row: the map's gain, else the level itself; 0 below 0."""
    out = np.where(grade >= 0, grade, 0).astype(np.float64)
    for level, gain in gains:
        out[grade == level] = gain
    return out


def _discounts(positions: np.ndarray) -> np.ndarray:
    """log2(position + 1) with math.log2, as the walks compute it."""
    unique, inverse = np.unique(positions, return_inverse=True)
    return np.array([math.log2(p + 1) for p in unique.tolist()], dtype=np.float64)[inverse]


def _integer(gains) -> bool:
    return all(float(g).is_integer() for _, g in gains)


def _walks(data, measure, walk) -> np.ndarray:
    """``walk(values, levels, slot)`` for every query, on its relevance values within k."""
    gains = _gains_of(measure)
    slot, rank, grade = within(data, measure.k)
    n = shown(data, measure.k).tolist()
    values: list[list[int]] = [[NOT_IN_POOL] * length for length in n]
    for s, r, g in zip(slot.tolist(), rank.tolist(), grade.tolist(), strict=True):
        values[s][r - 1] = g if g >= 0 else POOL_UNJUDGED
    counts = _level_counts(data)
    out = np.zeros(data.size)
    for s in range(data.size):
        out[s] = walk(values[s], level_gains(counts[s], gains), s).value
    return out


def _has_gains(measure) -> bool:
    from metrics import registry

    return any(p.gains for p in registry.family(measure.family).params)


def ndcg_with_gains(data, measure) -> np.ndarray:
    gains = _gains_of(measure)
    slot, rank, grade = within(data, measure.k)
    gain = _row_gains(grade, gains)
    nonzero = gain != 0
    dcg = np.bincount(slot[nonzero], weights=gain[nonzero] / _discounts(rank[nonzero]), minlength=data.size)
    ideal_slot, ideal_gain = _ideal(data, gains)
    position = _position_within(ideal_slot)
    if measure.k is not None:
        keep = position <= measure.k
        ideal_slot, ideal_gain, position = ideal_slot[keep], ideal_gain[keep], position[keep]
    best = np.bincount(ideal_slot, weights=ideal_gain / _discounts(position), minlength=data.size)
    return _ratio(dcg, np.where(best > 0, best, 0.0))


def normalized_gain(data, measure) -> np.ndarray:
    gains = _gains_of(measure)
    if not _integer(gains):  # sums of fractions: walk each query, in its own order
        return _walks(data, measure, lambda values, levels, _: gain_measures.g_walk(values, levels))
    # Whole gains: every running sum is a whole number, exact in any grouping, so it can be read off cumsums.
    slot, rank, grade = within(data, measure.k)
    gain = _row_gains(grade, gains)
    gained = np.cumsum(gain)
    starts = np.flatnonzero(_position_within(slot) == 1)
    gained -= np.repeat(gained[starts] - gain[starts], np.diff(np.append(starts, len(slot))))
    ideal_slot, ideal_gain = _ideal(data, gains)
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
    return _ratio(total, np.where(best > 0, best, 0.0))


def _running(slot: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """Each row's running total within its query, added one row after the other as the walks add them: the n-th
    row of every query at once, so the sums are sequential per query."""
    out = np.empty(len(slot))
    totals = np.zeros(size)
    position = _position_within(slot)
    for nth in range(1, int(position.max()) + 1 if len(position) else 1):
        rows = position == nth
        totals[slot[rows]] += weights[rows]
        out[rows] = totals[slot[rows]]
    return out


class _Sums:
    """The running DCG of the ranking (judged rows with a gain) and of the ideal ranking, looked up at any rank."""

    def __init__(self, data, measure):
        gains = _gains_of(measure)
        slot, rank, grade = within(data, measure.k)
        gain = _row_gains(grade, gains)
        nonzero = gain != 0
        self.size, self.n = data.size, shown(data, measure.k)
        self.slot, self.rank, self.gain = slot[nonzero], rank[nonzero], gain[nonzero]
        self.dcg = _running(self.slot, self.gain / _discounts(self.rank), data.size)
        self.ideal_slot, self.ideal_gain = _ideal(data, gains)
        position = _position_within(self.ideal_slot)
        self.idcg = _running(self.ideal_slot, self.ideal_gain / _discounts(position), data.size)
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


def rndcg(data, measure) -> np.ndarray:
    if not _integer(_gains_of(measure)):
        R = data.R.tolist()
        return _walks(data, measure, lambda values, levels, s: gain_measures.rndcg_walk(values, levels, R[s]))
    sums = _Sums(data, measure)
    # the NDCG points: each ideal position i (1..L) where the ideal gain changes (at L it drops to the end), then
    # the end of a ranking longer than L + 1
    slot, gain = sums.ideal_slot, sums.ideal_gain
    position = _position_within(slot)
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
    with np.errstate(invalid="ignore"):  # no point: trec_eval's 0/0 (metrics.gain_measures.rndcg_walk)
        return np.where(data.R > 0, total / points, 0.0)


def ndcg_rel(data, measure) -> np.ndarray:
    if not _integer(_gains_of(measure)):
        return _walks(data, measure, lambda values, levels, _: gain_measures.ndcg_rel_walk(values, levels))
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
