"""The precision-recall curve that interpolated precision (trec_eval ``iprec_at_recall``) and the 11-point
average (``11pt_avg``) share: the recall levels, the precision at each hit and its interpolation.

Interpolated precision at recall level ℓ is the best precision at any rank from the one where recall first reaches
ℓ onwards: the standard precision-recall graph, made monotone so topics with different R can be averaged.
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics.core.checks import checked, count_relevant, judged
from metrics.core.conventions import TREC_EVAL, Conventions, RecallRounding
from metrics.core.lazy_numpy import np
from metrics.core.prepared import position_within, suffix_max
from metrics.core.types import Judgments, Ranking

ELEVEN_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)  # trec_eval's default recall levels


def relevant_needed(level: float, R: int, rounding: RecallRounding = "nearest") -> int:
    """How many relevant documents recall level ``level`` asks for: level · R rounded half away from zero
    (trec_eval 10.0's lround), or with ``rounding="plus_0.9"`` ⌊level · R + 0.9⌋ (trec_eval 9.0.x, inside
    pytrec_eval). They differ when level · R has a fraction from 0.1 to 0.5: level 0.6 with R = 2 asks for 1 or 2.

    >>> relevant_needed(0.6, 2), relevant_needed(0.6, 2, "plus_0.9")
    (1, 2)
    """
    x = level * R
    if rounding == "plus_0.9":
        return int(x + 0.9)  # C's (long)(x + 0.9) on a non-negative double: truncation
    whole = int(x)
    return whole + 1 if x - whole >= 0.5 else whole  # C's lround; x - whole is exact, unlike floor(x + 0.5)


def precision_at_hits(ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions) -> list[float]:
    """Precision at the rank of each relevant document, in rank order: the corners of the precision-recall curve."""
    corners, hits = [], 0
    for rank, _doc, _grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        if relevant:
            hits += 1
            corners.append(hits / rank)
    return corners


def _interpolated(corners: Sequence[float], needed: int) -> float:
    """The best precision at the needed-th hit or after it; 0 when fewer hits were retrieved. needed = 0 takes
    the best precision anywhere (trec_eval's recall level 0)."""
    if needed > len(corners):
        return 0.0
    return max(corners[max(needed, 1) - 1 :], default=0.0)


def precision_recall_points(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> list[tuple[int, float, float]]:
    """(rank, R@rank, P@rank) at every rank of the top k: the raw precision-recall curve, before interpolation.
    R = 0 gives recall 0 everywhere.

    >>> precision_recall_points(["a", "x", "b"], {"a": 1, "b": 1})
    [(1, 0.5, 1.0), (2, 0.5, 0.5), (3, 1.0, 0.6666666666666666)]
    """
    R = count_relevant(qrels, conventions.threshold)
    points, hits = [], 0
    for rank, _doc, _grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        hits += relevant
        points.append((rank, hits / R if R else 0.0, hits / rank))
    return points


def _interpolated_rows(data, level: float, k: int | None) -> np.ndarray:
    """Interpolated precision at one recall level, per query (metrics.families.interpolated_precision, vectorized)."""
    # The same for every level: built once per cutoff (all_trec asks for 11 levels, and 11pt_avg for 11 more)
    hits, first_row, best_after = data.shared(("best precision after", k), lambda: _best_precision_after(data, k))
    needed = _relevant_needed_per_query(level, data.R, data.conventions.recall_rounding)
    answered = (needed <= hits) & (hits > 0)
    values = np.zeros(data.size)
    values[answered] = best_after[first_row[answered] + np.maximum(needed[answered], 1) - 1]
    # trec_eval starts from precision num_rel_ret / num_ret: 0/0 on a ranking -J left empty, and a level asking
    # for no document takes it (NaN, printed -nan). Only -J empties a ranking of a run file: with -c, a query
    # missing from the run is scored on trec_eval's one-document stand-in ranking (trec_eval.c's bogus_ranking).
    if data.judged_only:
        values[(data.n == 0) & (needed == 0)] = np.nan
    return values


def _best_precision_after(data, k: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(relevant retrieved per query, each query's first relevant row, the best precision at or after each
    relevant row of its query)."""
    relevant = np.flatnonzero(data.relevant() & data.in_top(k))
    slot, rank = data.slot[relevant], data.rank[relevant]
    corners = position_within(slot) / rank
    best_after = suffix_max(slot, corners, data.size)
    hits = np.bincount(slot, minlength=data.size)
    first_row = np.concatenate([[0], np.cumsum(hits)[:-1]])
    return hits, first_row, best_after


def _relevant_needed_per_query(level: float, R: np.ndarray, rounding: RecallRounding) -> np.ndarray:
    """relevant_needed, per query."""
    x = level * R
    if rounding == "plus_0.9":
        return (x + 0.9).astype(np.int64)
    whole = x.astype(np.int64)
    return whole + (x - whole >= 0.5)  # C's lround on a non-negative double
