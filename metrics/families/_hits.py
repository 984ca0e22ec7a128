"""Hits@k, the relevant docs among the top k, with its per-rank breakdown: P@k, R@k and R_cap@k share it and each
divides it by something different.
"""

from __future__ import annotations

from metrics.core.checks import checked, judged
from metrics.core.conventions import Conventions
from metrics.core.types import Judgments, Ranking, RankStep


def _hits_breakdown(
    ranking: Ranking, qrels: Judgments, k: int | None, divisor: int, conventions: Conventions
) -> tuple[int, list[RankStep]]:
    """Walk the top k; every hit contributes 1/divisor. Returns hits@k and the steps."""
    top = checked(ranking, qrels, k)
    hits, running, steps = 0, 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = 1 / divisor if relevant and divisor else 0.0
        hits += relevant
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    return hits, steps
