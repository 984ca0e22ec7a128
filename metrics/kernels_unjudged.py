"""Engine kernels of metrics.unjudged (bpref, gm_bpref, infAP, Judged@k, unj@k): one value per evaluated query,
equal bit for bit to the readable functions. The interface (``data``) is metrics.prepared.Prepared."""

from __future__ import annotations

from metrics.lazy_numpy import np
from metrics.prepared import count_before, ratio
from metrics.unjudged import INFAP_EPSILON


def bpref(data, measure) -> np.ndarray:
    slot, _, grade = data.within(measure.k)
    threshold = data.conventions.threshold
    relevant = grade >= threshold
    above = count_before(slot, (grade >= 0) & ~relevant)[relevant]
    slot = slot[relevant]
    R, N = data.R[slot], data.nonrel[slot]
    share = np.ones(len(slot))
    some = above > 0
    share[some] = 1.0 - np.minimum(above[some], R[some]) / np.minimum(N[some], R[some])
    return ratio(np.bincount(slot, weights=share, minlength=data.size), data.R)


def inferred_average_precision(data, measure) -> np.ndarray:
    slot, rank, grade = data.within(measure.k)
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
    return ratio(np.bincount(slot[relevant], weights=estimate, minlength=data.size), data.R)


def judged(data, measure) -> np.ndarray:
    slot, _, _ = data.within(measure.k)
    return ratio(np.bincount(slot, minlength=data.size), data.retrieved(measure.k))


def unjudged(data, measure) -> np.ndarray:
    slot, _, grade = data.within(measure.k)
    judged_count = np.bincount(slot[grade >= 0], minlength=data.size)
    divisor = data.n if measure.k is None else np.full(data.size, measure.k, dtype=np.int64)
    return ratio(data.retrieved(measure.k) - judged_count, divisor)
