"""Engine kernels of metrics.user_models (RBP, its residual, ERR@k), equal bit for bit to the readable functions:
p^(i-1) by repeated multiplication and every sum in rank order, as the readable loops compute them."""

from __future__ import annotations

from metrics.lazy_numpy import np
from metrics.prepared import position_within
from metrics.user_models import ERR_MAX_GRADE


def _powers(p: float, length: int) -> np.ndarray:
    """1, p, p*p, (p*p)*p, ...: ``length`` + 1 values, multiplied one after the other (np.multiply.accumulate is
    sequential)."""
    out = np.ones(length + 1)
    if length:
        out[1:] = np.multiply.accumulate(np.full(length, p))
    return out


def rank_biased_precision(data, measure) -> np.ndarray:
    p = float(measure.param("p"))
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


def rbp_residual(data, measure) -> np.ndarray:
    p = float(measure.param("p"))
    n = data.retrieved(measure.k)
    slot, rank, grade = data.within(measure.k)
    # every rank of every list, unjudged unless a row with a grade >= 0 sits there
    all_slots = np.repeat(np.arange(data.size), n)
    starts = np.cumsum(n) - n
    all_ranks = np.arange(len(all_slots)) - np.repeat(starts, n) + 1
    unjudged = np.ones(len(all_slots), dtype=bool)
    judged_rows = grade >= 0
    unjudged[starts[slot[judged_rows]] + rank[judged_rows] - 1] = False
    weights = _powers(p, int(n.max()) if data.size else 0)
    unjudged_weight = np.bincount(all_slots[unjudged], weights=weights[all_ranks[unjudged] - 1], minlength=data.size)
    count = np.bincount(all_slots[unjudged], minlength=data.size)
    return np.where(count > 0, weights[n] + (1 - p) * unjudged_weight, 0.0)


def expected_reciprocal_rank(data, measure) -> np.ndarray:
    slot, rank, grade = data.within(measure.k)
    positive = grade > 0
    slot, rank, grade = slot[positive], rank[positive], grade[positive]
    satisfied = np.array([(2 ** min(g, ERR_MAX_GRADE) - 1) / 2**ERR_MAX_GRADE for g in range(ERR_MAX_GRADE + 1)])
    chance = satisfied[np.minimum(grade, ERR_MAX_GRADE)]
    total, still_reading = np.zeros(data.size), np.ones(data.size)
    position = position_within(slot) - 1
    for nth in range(int(position.max()) + 1 if len(position) else 0):  # the nth positive row of every query at once
        rows = position == nth
        at = slot[rows]
        total[at] += chance[rows] * still_reading[at] / rank[rows]
        still_reading[at] *= 1 - chance[rows]
    return total
