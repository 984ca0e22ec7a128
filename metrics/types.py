"""The objects every readable metric returns: one step per rank plus the named terms of its formula."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from metrics.conventions import TREC_EVAL, Conventions

GRADED_FAMILIES = frozenset({"DCG", "IDCG", "NDCG"})  # the metrics whose gain can be exponential

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

    family: str  # "P", "R", "R_cap", "HitRate", "F1", "RR", "AP", "DCG", "IDCG" or "NDCG"
    k: int | None  # the cutoff; None means the whole list
    value: float
    steps: tuple[RankStep, ...]
    terms: Mapping[str, float] = field(default_factory=dict)  # e.g. {"DCG": 5.76, "IDCG": 6.32}
    conventions: Conventions = TREC_EVAL  # the conventions the value was computed under

    @property
    def metric(self) -> str:
        """The measure's label, e.g. "NDCG@5", "NDCG_exp@5" or "AP"."""
        name = self.family
        if self.family in GRADED_FAMILIES and self.conventions.gain == "exp":
            name += "_exp"
        return name if self.k is None else f"{name}@{self.k}"
