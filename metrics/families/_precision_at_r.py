"""Precision at a rank set by R (the number of relevant documents), shared by R-precision (``Rprec``) and
precision at multiples of R (``Rprec_mult``).

At rank R, precision equals recall (both are hits / R): R-precision is the point where the two meet.
"""

from __future__ import annotations

from metrics.core.checks import checked, judged
from metrics.core.conventions import Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import ratio
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term


def _precision_at(
    family: str, ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions, cut: int, R: int, terms
) -> Breakdown:
    """hits in the top ``cut`` / cut, each hit contributing 1/cut (0 when cut = 0)."""
    rows = judged(checked(ranking, qrels, k), qrels, conventions.threshold)
    steps, running, hits = [], 0.0, 0
    for rank, doc, grade, relevant in rows:
        counts = relevant and rank <= cut
        contribution = 1 / cut if counts else 0.0
        hits += counts
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    value = hits / cut if cut else 0.0
    return Breakdown(family, k, value, tuple(steps), {**terms, Term.HITS: hits, Term.RANK_CUTOFF: cut}, conventions)


def _precision_at_rank(data, cut: np.ndarray, k: int | None) -> np.ndarray:
    """hits in the top cut[q] (and the top k) / cut[q], per query; 0 where cut is 0."""
    counted = data.relevant() & data.in_top(k) & (data.rank <= cut[data.slot])
    return ratio(np.bincount(data.slot[counted], minlength=data.size), cut)
