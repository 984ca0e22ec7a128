"""Engine kernels of the cards' families and trec_eval's counts, set measures, R-precision and interpolated
precision: one value per evaluated query (``data`` is a metrics.prepared.Prepared), equal bit for bit to the
readable functions."""

from __future__ import annotations

from metrics.dcg import gain
from metrics.lazy_numpy import np
from metrics.prepared import log2_discounts, position_within, ratio, suffix_max


def reciprocal_rank(data, measure) -> np.ndarray:
    k = measure.k
    relevant = np.flatnonzero(data.relevant())
    slots, first = np.unique(data.slot[relevant], return_index=True)  # rows are in rank order
    first_rank = data.rank[relevant][first]
    values = np.zeros(data.size)
    hit = first_rank <= k if k is not None else np.ones(len(first_rank), dtype=bool)
    values[slots[hit]] = 1 / first_rank[hit]
    return values


def average_precision(data, measure) -> np.ndarray:
    k = measure.k
    relevant = np.flatnonzero(data.relevant())
    slot, rank = data.slot[relevant], data.rank[relevant]
    hits_so_far = position_within(slot)
    keep = rank <= k if k is not None else np.ones(len(rank), dtype=bool)
    precision_sum = np.bincount(slot[keep], weights=hits_so_far[keep] / rank[keep], minlength=data.size)
    denominator = data.R if data.conventions.ap_denominator == "all" else data.hits(k)
    return ratio(precision_sum, denominator)


def _gains(grades: np.ndarray, kind: str) -> np.ndarray:
    """metrics.dcg.gain itself, applied to each distinct grade (2**g - 1 with Python ints for exp)."""
    unique, inverse = np.unique(grades, return_inverse=True)
    return np.array([gain(g, kind) for g in unique.tolist()], dtype=np.float64)[inverse]


def _dcg(data, slot: np.ndarray, position: np.ndarray, grades: np.ndarray, k: int | None, kind: str):
    keep = position <= k if k is not None else np.ones(len(position), dtype=bool)
    terms = _gains(grades[keep], kind) / log2_discounts(position[keep])
    return np.bincount(slot[keep], weights=terms, minlength=data.size)  # sequential, in rank order


def _idcg(data, k: int | None, kind: str) -> np.ndarray:
    if data.conventions.idcg == "all":
        slot, grades = data.ideal_slot, data.ideal_grade
    else:
        positive = data.grade > 0
        slot, grades = data.slot[positive], data.grade[positive]
    order = np.lexsort((-grades, slot))  # by query, grade descending: the ideal ranking
    slot, grades = slot[order], grades[order]
    return _dcg(data, slot, position_within(slot), grades, k, kind)


def dcg(data, measure) -> np.ndarray:
    return _dcg(data, data.slot, data.rank, data.grade, measure.k, measure.gain_under(data.conventions))


def idcg(data, measure) -> np.ndarray:
    return _idcg(data, measure.k, measure.gain_under(data.conventions))


def ndcg(data, measure) -> np.ndarray:
    if measure.param("gains"):  # trec_eval's ndcg.1=3,2=9: its own walk (metrics.kernels_gains)
        from metrics.kernels_gains import ndcg_with_gains

        return ndcg_with_gains(data, measure)
    return ratio(dcg(data, measure), idcg(data, measure))


# -- trec_eval's counts, set measures, R-precision and interpolated precision ------------------------------


def num_ret(data, measure) -> np.ndarray:
    return data.retrieved(measure.k).astype(np.float64)


def num_rel(data, measure) -> np.ndarray:
    return data.R.astype(np.float64)


def num_rel_ret(data, measure) -> np.ndarray:
    return data.hits(measure.k).astype(np.float64)


def num_nonrel_judged_ret(data, measure) -> np.ndarray:
    nonrelevant = (data.grade >= 0) & ~data.relevant() & data.in_top(measure.k)
    return np.bincount(data.slot[nonrelevant], minlength=data.size).astype(np.float64)


def num_q(data, measure) -> np.ndarray:
    return np.ones(data.size)


def set_precision(data, measure) -> np.ndarray:
    return ratio(data.hits(measure.k), data.retrieved(measure.k))


def set_recall(data, measure) -> np.ndarray:
    return ratio(data.hits(measure.k), data.R)


def set_f(data, measure) -> np.ndarray:
    hits, beta = data.hits(measure.k), measure.param("beta")
    p, r = ratio(hits, data.retrieved(measure.k)), ratio(hits, data.R)
    scored = (hits > 0) & (data.retrieved(measure.k) > 0) & (data.R > 0)
    values = np.zeros(data.size)
    values[scored] = (beta + 1.0) * p[scored] * r[scored] / (beta * p[scored] + r[scored])
    return values


def set_average_precision(data, measure) -> np.ndarray:
    hits = data.hits(measure.k)
    return ratio(hits, data.retrieved(measure.k)) * ratio(hits, data.R)


def _precision_at_rank(data, cut: np.ndarray, k: int | None) -> np.ndarray:
    """hits in the top cut[q] (and the top k) / cut[q], per query; 0 where cut is 0."""
    counted = data.relevant() & data.in_top(k) & (data.rank <= cut[data.slot])
    return ratio(np.bincount(data.slot[counted], minlength=data.size), cut)


def r_precision(data, measure) -> np.ndarray:
    return _precision_at_rank(data, data.R, measure.k)


def r_precision_multiple(data, measure) -> np.ndarray:
    cut = (measure.param("multiple") * data.R + 0.9).astype(np.int64)  # C's (long)(x * R + 0.9)
    return _precision_at_rank(data, cut, measure.k)


def _interpolated(data, level: float, k: int | None) -> np.ndarray:
    """Interpolated precision at one recall level, per query (metrics.interpolated, vectorized)."""
    relevant = np.flatnonzero(data.relevant() & data.in_top(k))
    slot, rank = data.slot[relevant], data.rank[relevant]
    corners = position_within(slot) / rank
    best_after = suffix_max(slot, corners, data.size)
    hits = np.bincount(slot, minlength=data.size)
    first_row = np.concatenate([[0], np.cumsum(hits)[:-1]])
    needed = (level * data.R + 0.9).astype(np.int64)  # metrics.interpolated.relevant_needed
    answered = (needed <= hits) & (hits > 0)
    values = np.zeros(data.size)
    values[answered] = best_after[first_row[answered] + np.maximum(needed[answered], 1) - 1]
    return values


def interpolated_precision(data, measure) -> np.ndarray:
    return _interpolated(data, measure.param("level"), measure.k)


def eleven_point_average(data, measure) -> np.ndarray:
    levels = measure.param("levels")
    total = np.zeros(data.size)
    for level in reversed(levels):  # the readable function's order of additions
        total += _interpolated(data, level, measure.k)
    return total / len(levels)
