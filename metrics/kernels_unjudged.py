"""Engine kernels of metrics.unjudged (bpref, gm_bpref, infAP, Judged@k, unj@k): one value per evaluated query,
equal bit for bit to the readable functions. The interface (``data``) is metrics.engine._Prepared."""

from __future__ import annotations

import numpy as np

from metrics.engine import _position_within, _ratio
from metrics.unjudged import INFAP_EPSILON


def within(data, k: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(slot, rank, grade) of the judged retrieved rows (any grade) in the top k of each query."""
    if k is None:
        return data.slot, data.rank, data.grade
    keep = data.rank <= k
    return data.slot[keep], data.rank[keep], data.grade[keep]


def shown(data, k: int | None) -> np.ndarray:
    """How many documents each query shows within k."""
    return data.n if k is None else np.minimum(data.n, k)


def count_before(slot: np.ndarray, flag: np.ndarray) -> np.ndarray:
    """For each row, how many earlier rows of its query have ``flag`` (rows sorted by slot, then rank)."""
    flag = flag.astype(np.int64)
    seen = np.cumsum(flag) - flag
    first = _position_within(slot) == 1
    starts = seen[first]
    return seen - np.repeat(starts, np.diff(np.append(np.flatnonzero(first), len(slot))))


def bpref(data, measure) -> np.ndarray:
    slot, _, grade = within(data, measure.k)
    threshold = data.conventions.threshold
    relevant = grade >= threshold
    above = count_before(slot, (grade >= 0) & ~relevant)[relevant]
    slot = slot[relevant]
    R, N = data.R[slot], data.nonrel[slot]
    share = np.ones(len(slot))
    some = above > 0
    share[some] = 1.0 - np.minimum(above[some], R[some]) / np.minimum(N[some], R[some])
    return _ratio(np.bincount(slot, weights=share, minlength=data.size), data.R)


def inferred_average_precision(data, measure) -> np.ndarray:
    slot, rank, grade = within(data, measure.k)
    threshold = data.conventions.threshold
    relevant = grade >= threshold
    relevant_above = count_before(slot, relevant)[relevant]
    nonrelevant_above = count_before(slot, (grade >= 0) & ~relevant)[relevant]
    unjudged_above = count_before(slot, grade < 0)[relevant]
    above = rank[relevant] - 1
    estimate = np.ones(len(above))
    some = above > 0
    fj = above[some].astype(np.float64)
    ra, na, ua = relevant_above[some], nonrelevant_above[some], unjudged_above[some]
    estimate[some] = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((ra + na + ua) / fj) * (
        (ra + INFAP_EPSILON) / (ra + na + 2 * INFAP_EPSILON)
    )
    return _ratio(np.bincount(slot[relevant], weights=estimate, minlength=data.size), data.R)


def judged(data, measure) -> np.ndarray:
    slot, _, _ = within(data, measure.k)
    return _ratio(np.bincount(slot, minlength=data.size), shown(data, measure.k))


def unjudged(data, measure) -> np.ndarray:
    slot, _, grade = within(data, measure.k)
    judged_count = np.bincount(slot[grade >= 0], minlength=data.size)
    divisor = data.n if measure.k is None else np.full(data.size, measure.k, dtype=np.int64)
    return _ratio(shown(data, measure.k) - judged_count, divisor)
