"""What swapping two documents does to a metric: the intuition behind LambdaRank's |ΔNDCG|. Pure (no Streamlit).

LambdaRank (Burges et al., 2006) weights the gradient of each document pair by how much the metric would change if
the two documents swapped places. This module computes that change for every pair of ranks with the readable
metric functions, so each cell can be checked by hand.
"""

from __future__ import annotations

from metrics.catalog import registry
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.types import Judgments, Ranking


def swapped(ranking: Ranking, i: int, j: int) -> list[str]:
    """The ranking with the docs at 1-based ranks ``i`` and ``j`` exchanged.

    >>> swapped(["a", "b", "c"], 1, 3)
    ['c', 'b', 'a']
    """
    n = len(ranking)
    for rank in (i, j):
        if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= n:
            raise ValueError(f"ranks must be whole numbers from 1 to {n}, got {rank!r}")
    order = list(ranking)
    order[i - 1], order[j - 1] = order[j - 1], order[i - 1]
    return order


def swap_deltas(
    ranking: Ranking,
    qrels: Judgments,
    family: str,
    k: int | None = None,
    conventions: Conventions = TREC_EVAL,
    *,
    tail: Ranking = (),
) -> list[list[float]]:
    r"""For every pair of ranks (i, j), the change in the metric if the docs at ranks i and j swapped places.

    .. math:: \Delta_{ij} = M(\text{ranking with } d_i \leftrightarrow d_j) - M(\text{ranking})

    ``deltas[i - 1][j - 1]`` is :math:`\Delta_{ij}` for 1-based ranks. Swapping i with j is the same move as
    swapping j with i, so the matrix is symmetric, and the diagonal is 0. Positive means the swap helps.

    Two shortcuts keep it fast without changing any value: docs with the same grade are interchangeable for
    every metric (the metrics see a doc only through its grade), and a swap of two docs both below the cutoff
    k leaves the top k unchanged. Every other cell is one call of the readable metric, O(n) each.

    ``tail``: more retrieved docs after ``ranking`` (a query opened from a run shows only its top N). They are
    never swapped, but every value is computed on ``ranking + tail``, so uncut metrics (AP, RR) see them.

    >>> deltas = swap_deltas(["n", "r"], {"r": 1}, "RR")  # RR = 1/2; swapped, RR = 1
    >>> deltas
    [[0.0, 0.5], [0.5, 0.0]]
    >>> swap_deltas(["n", "r"], {"r": 1, "t": 1}, "AP", tail=["t"])  # AP = (1/2 + 2/3) / 2; swapped (1 + 2/3) / 2
    [[0.0, 0.25], [0.25, 0.0]]
    """
    metric = registry.family(family).function
    order, rest = list(ranking), list(tail)
    base = metric(order + rest, qrels, k, conventions=conventions).value
    n = len(order)
    deltas = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if qrels.get(order[i], 0) == qrels.get(order[j], 0):
                continue  # same grade: the swap changes nothing the metric can see
            if k is not None and i >= k:
                continue  # both below the cutoff (j > i)
            trial = swapped(order, i + 1, j + 1)
            delta = metric(trial + rest, qrels, k, conventions=conventions).value - base
            deltas[i][j] = deltas[j][i] = delta
    return deltas


def best_swap(deltas: list[list[float]]) -> tuple[int, int, float] | None:
    """The swap (1-based ranks i < j, delta) that raises the metric most, or None if no swap raises it.

    >>> best_swap([[0.0, 0.5], [0.5, 0.0]])
    (1, 2, 0.5)
    """
    best = None
    for i, row in enumerate(deltas):
        for j in range(i + 1, len(row)):
            if row[j] > 1e-12 and (best is None or row[j] > best[2]):
                best = (i + 1, j + 1, row[j])
    return best
