"""Measure names, as users and trec_eval spell them, mapped to the readable metric functions."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

from metrics import registry
from metrics.conventions import TREC_EVAL, Conventions, Gain
from metrics.types import Breakdown, Qrels, Ranking

MetricFunction = Callable[..., Breakdown]

FUNCTIONS: dict[str, MetricFunction] = {f.key: f.function for f in registry.FAMILIES}  # a view of the registry

_TREC_CUTOFF = re.compile(r"^(?P<name>[a-z_]+?)[_.](?P<k>-?\d+)$")  # P_10, recall_100, ndcg_cut.10

DEFAULT_MEASURES = ("NDCG@10", "AP", "RR@10", "R@100", "R_cap@100", "P@10")


def _spelling(name: str) -> tuple[registry.Family, Gain] | None:
    """The family and gain a lower-case name spells: ``ndcg_exp`` is NDCG with exponential gain."""
    if (found := registry.spelled(name)) is not None:
        return found, "linear"
    stem = name.removesuffix("_exp")
    if stem != name and (found := registry.spelled(stem)) is not None and found.graded and stem == found.key.lower():
        return found, "exp"
    return None


@dataclass(frozen=True, slots=True)
class Measure:
    """A parsed measure name: ``nDCG@10`` and ``ndcg_cut_10`` are both family NDCG with k = 10."""

    name: str  # as the user wrote it; reports echo it back
    family: str  # a family's key in the registry
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
        declared = registry.family(self.family)
        if declared.graded:
            conventions = dataclasses.replace(conventions, gain=self.gain_under(conventions))
        return declared.function(ranking, qrels, self.k, conventions=conventions)


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
    elif (match := _TREC_CUTOFF.match(lowered)) and _spelling(match["name"]):
        name, k_text = match["name"], match["k"]
    found = _spelling(name)
    if found is None:
        raise ValueError(
            f"unknown measure {spelled!r}; known: {', '.join(registry.canonical_names())} and trec_eval's names "
            "(P_10, recall_100, map, map_cut_10, recip_rank, ndcg_cut_10, success_10)"
        )
    declared, gain = found
    k = None
    if k_text is not None:
        if not re.fullmatch(r"\d+", k_text) or int(k_text) < 1:
            raise ValueError(f"measure {spelled!r}: the cutoff after the name must be a positive integer")
        k = int(k_text)
    if k is None and name == declared.trec_eval and declared.trec_eval_uncut:
        raise ValueError(f"measure {spelled!r} needs a cutoff, e.g. {name}_10")
    return Measure(spelled, declared.key, k, gain)
