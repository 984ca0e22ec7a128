"""A measure explained by what it is for and a worked example whose numbers the library computes (WorkedExample), as
the conventions explorer shows the measures beyond graded qrels (ir_metrics_lab.parts.preferences renders them):
yaap's here; the preference measures' is metrics.preferences.preference_example. Pure: no Streamlit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from metrics.catalog.measures import parse_measure
from metrics.core.types import Term


@dataclass(frozen=True)
class WorkedExample:
    title: str
    purpose: str  # what the measures are for
    setup: str  # the example's data, in words
    steps: tuple[str, ...]  # each number, with how it comes about


YAAP_PURPOSE = (
    "yaap (yet another average precision; Robertson, ECIR 2012) is AP smoothed for averaging over topics: "
    "log((1 + S) / (1 + R - S)), where S is the sum of the precisions at the relevant documents retrieved "
    "(AP = S / R). "
    "It rises with AP on a topic, but is a log-odds: a hard topic whose AP is near 0 and an easy one near 1 are "
    "spread apart instead of squeezed against the ends, so a mean over topics is not dominated by the easy ones. "
    "Below 0 when the topic is mostly failed, 0 when S = R / 2."
)


def yaap_example() -> WorkedExample:
    """AP's sum of precisions on a short list, and yaap from it (trec_eval ``yaap``, m_yaap.c)."""
    ranking, qrels = ["a", "x", "b"], {"a": 1, "b": 1, "z": 1}
    ap = parse_measure("AP").compute(ranking, qrels)
    total, relevant = ap.terms[Term.PRECISION_SUM], int(ap.terms[Term.R])
    value = math.log((1 + total) / (1 + relevant - total))
    steps = (
        f"S = 1/1 + 2/3 = {total:.4f} (a at rank 1, b at rank 3), R = {relevant}: AP = S / R = {ap.value:.4f}",
        f"yaap = log((1 + S) / (1 + R - S)) = log({1 + total:.4f} / {1 + relevant - total:.4f}) = {value:.4f}",
        f"with nothing relevant retrieved, S = 0: yaap = log(1 / {1 + relevant}) = {math.log(1 / (1 + relevant)):.4f}; "
        f"with all {relevant} at the top, S = R: yaap = log({1 + relevant}) = {math.log(1 + relevant):.4f}",
    )
    setup = "The list a, x, b; a and b are relevant, and so is z, never retrieved (R = 3)."
    return WorkedExample("yaap", YAAP_PURPOSE, setup, steps)
