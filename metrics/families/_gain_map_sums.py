"""DCG and IDCG under a gain map (trec_eval ``dcg.1=3,2=9``, ``ideal_dcg.1=3,2=9``, and NDCG's ``ndcg.1=3,2=9``):
the ranking's sum and the ideal ranking's sum as ``m_ndcg.c`` adds them, readable and vectorized.

A level not in the map gains its own number; unjudged documents gain 0; the ideal ranking takes the levels in
trec_eval's order and stops at the first gain <= 0 (metrics.core.judgments.level_gains, ideal_gains).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from metrics.core.conventions import Conventions
from metrics.core.judgments import Gains, gain_of, ideal_gains, level_counts, level_gains
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, log2_discounts, position_within
from metrics.core.types import Judgments, Ranking, RankStep
from metrics.families._gain_walks import ideal_rows, row_gains, walk_values

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

# the sum and its steps (rank or ideal position, doc, grade, relevant, term, running sum): the family builds its
# Breakdown from them under its own name
Sum = tuple[float, tuple[RankStep, ...]]


def dcg_with_gains(ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions, gains: Gains) -> Sum:
    """DCG with a gain per level (trec_eval ``dcg.1=3,2=9``): each retrieved document's gain / log2(rank + 1),
    added where the gain is not 0, as m_ndcg.c adds them.

    >>> dcg_with_gains(["a", "b"], {"a": 1, "b": 2}, None, Conventions(), ((1, 3.0),))[0] == 3 + 2 / math.log2(3)
    True
    """
    top, values = walk_values(ranking, qrels, k)
    levels = level_gains(level_counts(qrels), gains)
    total, steps = 0.0, []
    for rank, (doc, value) in enumerate(zip(top, values, strict=True), start=1):
        gain = gain_of(value, levels)
        term = gain / math.log2(rank + 1) if gain != 0 else 0.0
        if gain != 0:
            total += term
        grade = int(qrels.get(doc, 0))
        steps.append(RankStep(rank, doc, grade, grade >= conventions.threshold, term, total))
    return total, tuple(steps)


def ideal_order(qrels: Judgments, gains: Gains) -> list[tuple[str, float]]:
    """The ideal ranking under a gain map: (doc, gain), best first, as trec_eval walks it (levels in its order,
    equal levels by doc id), stopping at the first gain <= 0."""
    levels = level_gains(level_counts(qrels), gains)
    by_level: dict[int, list[str]] = {}
    for doc, grade in sorted(qrels.items()):
        by_level.setdefault(int(grade), []).append(doc)
    docs = [doc for entry in reversed(levels) for doc in by_level.get(entry.level, [])[: entry.count]]
    return list(zip(docs, ideal_gains(levels), strict=False))


def idcg_with_gains(ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions, gains: Gains) -> Sum:
    """IDCG with a gain per level (trec_eval ``ideal_dcg.1=3,2=9``): the ideal ranking's gains / log2(i + 1).

    >>> idcg_with_gains([], {"a": 1, "b": 2}, None, Conventions(), ((1, 3.0),))[0] == 3 + 2 / math.log2(3)
    True
    """
    ideal = ideal_order(qrels, gains)
    ideal = ideal if k is None else ideal[:k]
    total, steps = 0.0, []
    for position, (doc, gain) in enumerate(ideal, start=1):
        term = gain / math.log2(position + 1)
        total += term
        grade = int(qrels[doc])
        steps.append(RankStep(position, doc, grade, grade >= conventions.threshold, term, total))
    return total, tuple(steps)


def dcg_with_gains_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    """Every query's DCG under the measure's gain map, within its cutoff."""
    slot, rank, grade = data.within(measure.k)
    gain = row_gains(grade, measure.param("gains"))
    nonzero = gain != 0
    return np.bincount(slot[nonzero], weights=gain[nonzero] / log2_discounts(rank[nonzero]), minlength=data.size)


def idcg_with_gains_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    """Every query's ideal DCG under the measure's gain map, within its cutoff."""
    ideal_slot, ideal_gain = ideal_rows(data, measure.param("gains"))
    position = position_within(ideal_slot)
    if measure.k is not None:
        keep = position <= measure.k
        ideal_slot, ideal_gain, position = ideal_slot[keep], ideal_gain[keep], position[keep]
    return np.bincount(ideal_slot, weights=ideal_gain / log2_discounts(position), minlength=data.size)
