"""What trec_eval knows about one retrieved document, and the gain of each relevance level (its ``setup_gains``).

trec_eval (``form_res_rels.c``) gives every retrieved document a relevance value: its grade if it has a qrels line
with a grade >= 0; ``POOL_UNJUDGED`` (-2) if its qrels line has a negative grade ("in the pool, not judged", as
infAP's sampled pools mark them); ``NOT_IN_POOL`` (-1) if it has no qrels line at all. The measures that separate
judged from unjudged documents (bpref, infAP, unj, rbp_resid, relstring) read these values.

Graded measures with a gain map (trec_eval ``ndcg.1=3,2=9``, ``G``, ``Rndcg``, ``ndcg_rel``, ``rbp``) take each
level's gain from :func:`level_gains`, which reproduces trec_eval's quirks on purpose: the levels are ordered by
gain with a comparison that truncates the difference to an integer (``comp_rel_gain``), in glibc's stable merge
sort, so gains that differ by less than 1 keep their listed order; and the ideal ranking stops at the first level
in that order whose gain is not positive (:func:`ideal_gains`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from metrics.core.types import Judgments

NOT_IN_POOL = -1  # no qrels line: trec_eval's RELVALUE_NONPOOL
POOL_UNJUDGED = -2  # a qrels line with a negative grade: trec_eval's RELVALUE_UNJUDGED

Gains = tuple[tuple[int, float], ...]
"""A gain map as given, e.g. ``((1, 3.0), (2, 9.0), (4, 4.5))`` for trec_eval's ``ndcg.1=3,2=9,4=4.5``. Order
matters (see :func:`level_gains`); a level not listed has its own number as gain."""


def level(qrels: Judgments, doc: str) -> int:
    """trec_eval's relevance value of a retrieved document: its grade, POOL_UNJUDGED or NOT_IN_POOL.

    >>> level({"a": 2, "b": -1}, "a"), level({"a": 2, "b": -1}, "b"), level({"a": 2}, "z")
    (2, -2, -1)
    """
    if doc not in qrels:
        return NOT_IN_POOL
    grade = int(qrels[doc])
    return grade if grade >= 0 else POOL_UNJUDGED


@dataclass(frozen=True, slots=True)
class LevelGain:
    level: int
    gain: float
    count: int  # judged documents of the query at this level (retrieved or not)


def level_counts(grades: Sequence[int] | Mapping[str, int]) -> list[int]:
    """How many judged documents each level 0, 1, ... has, up to the highest level present (grades < 0 ignored)."""
    values = [int(g) for g in (grades.values() if isinstance(grades, Mapping) else grades) if g >= 0]
    counts = [0] * (max(values) + 1 if values else 0)
    for grade in values:
        counts[grade] += 1
    return counts


def level_gains(counts: Sequence[int], gains: Gains = ()) -> list[LevelGain]:
    """trec_eval's ``setup_gains``: one entry per listed level (in the listed order), then one per level 0..max not
    listed (gain = the level), sorted by increasing gain with trec_eval's comparison.

    >>> [(g.level, g.gain) for g in level_gains([5, 1, 2], ((1, 3.0),))]
    [(0, 0.0), (2, 2.0), (1, 3.0)]
    >>> [(g.level, g.gain) for g in level_gains([1, 1], ((1, 0.5),))]  # 0.5 - 0.0 truncates to 0: listed order kept
    [(1, 0.5), (0, 0.0)]
    """
    entries = [LevelGain(lvl, float(gain), counts[lvl] if 0 <= lvl < len(counts) else 0) for lvl, gain in gains]
    listed = {lvl for lvl, _ in gains}
    entries += [LevelGain(lvl, float(lvl), count) for lvl, count in enumerate(counts) if lvl not in listed]
    return _merge_sort(entries)


def _merge_sort(entries: list[LevelGain]) -> list[LevelGain]:
    """glibc's qsort (a top-down merge sort: first half n // 2) with trec_eval's ``comp_rel_gain``, which returns
    the gain difference converted to int: truncated toward zero, so 0.5 apart compares equal."""
    if len(entries) <= 1:
        return entries
    half = len(entries) // 2
    left, right = _merge_sort(entries[:half]), _merge_sort(entries[half:])
    merged: list[LevelGain] = []
    while left and right:
        merged.append(left.pop(0) if math.trunc(left[0].gain - right[0].gain) <= 0 else right.pop(0))
    return merged + left + right


def ideal_gains(levels: Sequence[LevelGain]) -> Iterator[float]:
    """The ideal ranking's gains, best first, as trec_eval walks them: from the last level of ``levels`` down,
    ``count`` documents each, stopping at the first level whose gain is not positive.

    >>> list(ideal_gains(level_gains([3, 2, 1])))
    [2.0, 1.0, 1.0]
    """
    current = len(levels) - 1
    gain = levels[current].gain if current >= 0 else 0.0
    at_level = 0
    while gain > 0:
        at_level += 1
        while current >= 0 and at_level > levels[current].count:
            at_level = 1
            current -= 1
            gain = levels[current].gain if current >= 0 else 0.0
        if gain > 0:
            yield gain


def gain_of(value: int, levels: Sequence[LevelGain]) -> float:
    """trec_eval's ``get_gain``: the gain of a relevance value; 0.0 for a level not in the list (unjudged ones)."""
    for entry in levels:
        if entry.level == value:
            return entry.gain
    return 0.0


def ieee_divide(numerator: float, denominator: float) -> float:
    """numerator / denominator as C computes it: inf or nan where Python would raise (trec_eval's experimental
    measures divide without checking; the callers turn such values into 0 as trec_eval's tests do)."""
    if denominator == 0:
        if numerator == 0 or math.isnan(numerator):
            return math.nan
        return math.copysign(math.inf, numerator) * math.copysign(1.0, denominator)
    return numerator / denominator
