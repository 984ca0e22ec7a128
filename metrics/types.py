"""The objects every readable metric returns: one step per rank plus the named terms of its formula."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

Ranking = Sequence[str]
"""Doc ids, best first: ``ranking[0]`` is rank 1."""

Qrels = Mapping[str, int]
"""Graded judgments of one query (doc id -> integer grade). A doc missing from it is unjudged (grade 0)."""


@dataclass(frozen=True, slots=True)
class RankStep:
    """One rank of a ranking, as one metric sees it."""

    rank: int  # 1-based
    doc_id: str
    grade: int  # 0 if unjudged
    relevant: bool  # grade >= the relevance threshold
    contribution: float  # this rank's share of the value; the contributions sum to the value
    running: float  # the sum of the contributions up to this rank


@dataclass(frozen=True, slots=True)
class Breakdown:
    """A metric's value with its per-rank steps and the named terms of its formula.

    Formulas, charts and tables are all drawn from this one object, so they cannot disagree.
    """

    metric: str  # label, e.g. "NDCG@5" or "AP"
    k: int | None  # the cutoff; None means the whole list
    value: float
    steps: tuple[RankStep, ...]
    terms: Mapping[str, float] = field(default_factory=dict)  # e.g. {"DCG": 5.76, "IDCG": 6.32}
