"""A metric at every cutoff k = 1..max_k, for metric@k curves. Pure (no Streamlit)."""

from __future__ import annotations

from metrics.catalog import registry
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.types import Judgments, Ranking


def at_each_cutoff(
    family: str, ranking: Ranking, qrels: Judgments, max_k: int, conventions: Conventions = TREC_EVAL
) -> list[float]:
    """The value of ``family`` at k = 1, 2, ..., max_k, each computed by the readable metric function.

    >>> at_each_cutoff("P", ["a", "x", "b"], {"a": 1, "b": 1}, 4)
    [1.0, 0.5, 0.6666666666666666, 0.5]
    >>> [round(v, 4) for v in at_each_cutoff("AP", ["r0", "n1", "r1"], {f"r{i}": 1 for i in range(10)}, 3)]
    [0.1, 0.1, 0.1667]
    """
    if isinstance(max_k, bool) or not isinstance(max_k, int) or max_k < 1:
        raise ValueError(f"max_k must be a positive integer, got {max_k!r}")
    metric = registry.family(family).function
    return [metric(ranking, qrels, k, conventions=conventions).value for k in range(1, max_k + 1)]
