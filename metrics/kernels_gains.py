"""Engine kernels of metrics.gain_measures (NDCG with a gain map, binG, G, Rndcg, ndcg_rel), equal bit for bit to
the readable functions.

binG is vectorized. The gain walks (G, Rndcg, ndcg_rel, a gain map) run metrics.gain_measures' walk itself once
per query, on trec_eval's relevance values rebuilt from the judged rows: their running sums cross every rank and
the ideal ranking's level changes, in an order that decides the last bit, and the walk is the specification.
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
    counts: list[list[int]] = [[] for _ in range(data.size)]
    below = np.bincount(data.ideal_slot[data.ideal_grade < data.conventions.threshold], minlength=data.size)
    zeros = (data.nonrel - below).tolist()
    order = np.lexsort((data.ideal_grade, data.ideal_slot))
    for slot, grade in zip(data.ideal_slot[order].tolist(), data.ideal_grade[order].tolist(), strict=True):
        row = counts[slot]
        if len(row) <= grade:
            row.extend([0] * (grade + 1 - len(row)))
        row[grade] += 1
    for slot, zero in enumerate(zeros):
        if zero:
            if not counts[slot]:
                counts[slot].append(0)
            counts[slot][0] = zero
    return counts


def _walks(data, measure, walk) -> np.ndarray:
    """``walk(values, levels, slot)`` for every query, on its relevance values within k."""
    gains = measure.param("gains") if _has_gains(measure) else ()
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
    return _walks(data, measure, lambda values, levels, _: gain_measures.ndcg_walk(values, levels, measure.k))


def normalized_gain(data, measure) -> np.ndarray:
    return _walks(data, measure, lambda values, levels, _: gain_measures.g_walk(values, levels))


def rndcg(data, measure) -> np.ndarray:
    R = data.R.tolist()
    return _walks(data, measure, lambda values, levels, s: gain_measures.rndcg_walk(values, levels, R[s]))


def ndcg_rel(data, measure) -> np.ndarray:
    return _walks(data, measure, lambda values, levels, _: gain_measures.ndcg_rel_walk(values, levels))
