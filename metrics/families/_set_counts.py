"""The counts trec_eval's set measures (set_P, set_recall, set_F, set_map) share: the retrieved list taken as a
set, with no cutoff.

They equal P, R and F1 at k = the list length. trec_eval computes them from three counts: documents retrieved
(num_ret), relevant (R) and relevant retrieved (hits); so do we, and each relevant rank's step adds its share.
"""

from __future__ import annotations

from metrics.core.checks import checked, count_relevant, judged
from metrics.core.conventions import Conventions
from metrics.core.types import Judgments, Ranking, RankStep


def _set_counts(ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions):
    """(the top-k rows as (rank, doc, grade, relevant), retrieved, R, hits)."""
    rows = list(judged(checked(ranking, qrels, k), qrels, conventions.threshold))
    R = count_relevant(qrels, conventions.threshold)
    return rows, len(rows), R, sum(relevant for *_, relevant in rows)


def _steps(rows, share: float) -> tuple[RankStep, ...]:
    """Each relevant rank adds ``share``."""
    steps, running = [], 0.0
    for rank, doc, grade, relevant in rows:
        contribution = share if relevant else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    return tuple(steps)


_SET_P = r"\mathrm{set\_P}"


_SET_RECALL = r"\mathrm{set\_recall}"
