"""Engine kernels of metrics.utility and metrics.relstring, equal to the readable functions."""

from __future__ import annotations

from metrics.judgments import POOL_UNJUDGED
from metrics.lazy_numpy import np
from metrics.relstring import DEFAULT_LENGTH, relevance_character


def utility(data, measure) -> np.ndarray:
    a, b, c, d = (float(measure.param(name)) for name in "abcd")
    collection = float(measure.param("collection"))
    slot, _, grade = data.within(measure.k)
    hits = np.bincount(slot[grade >= data.conventions.threshold], minlength=data.size)
    n, R = data.retrieved(measure.k), data.R
    return a * hits + b * (n - hits) + c * (R - hits) + d * (collection + hits - n - R)


def relstring(data, measure) -> np.ndarray:
    """The strings themselves (an array of str), not numbers: see metrics.relstring."""
    length = DEFAULT_LENGTH if measure.k is None else measure.k
    slot, rank, grade = data.within(length)
    strings = [["-"] * n for n in data.retrieved(length).tolist()]
    for s, r, g in zip(slot.tolist(), rank.tolist(), grade.tolist(), strict=True):
        strings[s][r - 1] = relevance_character(g if g >= 0 else POOL_UNJUDGED)
    return np.array(["".join(chars) for chars in strings], dtype=object)
