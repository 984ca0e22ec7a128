"""Measure names, as users and trec_eval spell them, mapped to the readable metric functions."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

from metrics.average_precision import average_precision
from metrics.conventions import TREC_EVAL, Conventions, Gain
from metrics.dcg import dcg, idcg, ndcg
from metrics.precision_recall import capped_recall, f1, hit_rate, precision, recall
from metrics.reciprocal_rank import reciprocal_rank
from metrics.types import GRADED_FAMILIES, Breakdown, Qrels, Ranking

MetricFunction = Callable[..., Breakdown]

FUNCTIONS: dict[str, MetricFunction] = {
    "P": precision,
    "R": recall,
    "R_cap": capped_recall,
    "HitRate": hit_rate,
    "F1": f1,
    "RR": reciprocal_rank,
    "AP": average_precision,
    "DCG": dcg,
    "IDCG": idcg,
    "NDCG": ndcg,
}

# Lower-case spelling -> (family, gain). trec_eval's own names come last.
_ALIASES: dict[str, tuple[str, Gain]] = {
    "p": ("P", "linear"),
    "precision": ("P", "linear"),
    "r": ("R", "linear"),
    "recall": ("R", "linear"),
    "r_cap": ("R_cap", "linear"),
    "rcap": ("R_cap", "linear"),
    "capped_recall": ("R_cap", "linear"),
    "hitrate": ("HitRate", "linear"),
    "hit_rate": ("HitRate", "linear"),
    "success": ("HitRate", "linear"),
    "f1": ("F1", "linear"),
    "rr": ("RR", "linear"),
    "mrr": ("RR", "linear"),
    "recip_rank": ("RR", "linear"),
    "ap": ("AP", "linear"),
    "map": ("AP", "linear"),
    "map_cut": ("AP", "linear"),
    "dcg": ("DCG", "linear"),
    "dcg_exp": ("DCG", "exp"),
    "idcg": ("IDCG", "linear"),
    "idcg_exp": ("IDCG", "exp"),
    "ndcg": ("NDCG", "linear"),
    "ndcg_exp": ("NDCG", "exp"),
    "ndcg_cut": ("NDCG", "linear"),
}
_TREC_CUTOFF = re.compile(r"^(?P<name>[a-z_]+?)[_.](?P<k>-?\d+)$")  # P_10, recall_100, ndcg_cut.10

DEFAULT_MEASURES = ("NDCG@10", "AP", "RR@10", "R@100", "R_cap@100", "P@10")
CANONICAL_NAMES = (
    "P@k",
    "R@k",
    "R_cap@k",
    "HitRate@k",
    "F1@k",
    "RR",
    "RR@k",
    "AP",
    "AP@k",
    "DCG@k",
    "IDCG@k",
    "NDCG@k",
    "DCG_exp@k",
    "NDCG_exp@k",
)


@dataclass(frozen=True, slots=True)
class Measure:
    """A parsed measure name: ``nDCG@10`` and ``ndcg_cut_10`` are both family NDCG with k = 10."""

    name: str  # as the user wrote it; reports echo it back
    family: str  # a key of FUNCTIONS
    k: int | None
    gain: Gain = "linear"

    @property
    def canonical(self) -> str:
        family = self.family + ("_exp" if self.gain == "exp" else "")
        return family if self.k is None else f"{family}@{self.k}"

    def gain_under(self, conventions: Conventions) -> Gain:
        """An ``_exp`` name forces exponential gain; a plain name (NDCG@10) follows the conventions."""
        return "exp" if self.gain == "exp" else conventions.gain

    def compute(self, ranking: Ranking, qrels: Qrels, conventions: Conventions = TREC_EVAL) -> Breakdown:
        if self.family in GRADED_FAMILIES:
            conventions = dataclasses.replace(conventions, gain=self.gain_under(conventions))
        return FUNCTIONS[self.family](ranking, qrels, self.k, conventions=conventions)


def parse_measure(text: str) -> Measure:
    """Read a measure name, case-insensitively, in our spelling or trec_eval's.

    >>> parse_measure("nDCG@10").canonical, parse_measure("ndcg_cut_10").canonical, parse_measure("P.5").canonical
    ('NDCG@10', 'NDCG@10', 'P@5')
    >>> parse_measure("map").canonical, parse_measure("recip_rank").canonical, parse_measure("success_1").canonical
    ('AP', 'RR', 'HitRate@1')
    """
    spelled = text.strip()
    lowered = spelled.lower()
    name, k_text = lowered, None
    if "@" in lowered:
        name, _, k_text = lowered.partition("@")
    elif (match := _TREC_CUTOFF.match(lowered)) and match["name"] in _ALIASES:
        name, k_text = match["name"], match["k"]
    if name not in _ALIASES:
        raise ValueError(
            f"unknown measure {spelled!r}; known: {', '.join(CANONICAL_NAMES)} and trec_eval's names "
            "(P_10, recall_100, map, map_cut_10, recip_rank, ndcg_cut_10, success_10)"
        )
    family, gain = _ALIASES[name]
    k = None
    if k_text is not None:
        if not re.fullmatch(r"\d+", k_text) or int(k_text) < 1:
            raise ValueError(f"measure {spelled!r}: the cutoff after the name must be a positive integer")
        k = int(k_text)
    if name in ("map_cut", "ndcg_cut") and k is None:
        raise ValueError(f"measure {spelled!r} needs a cutoff, e.g. {name}_10")
    return Measure(spelled, family, k, gain)
