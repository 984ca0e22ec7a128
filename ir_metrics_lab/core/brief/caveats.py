"""Caveats any brief of runs can hold, computed for its data: too few queries to trust a difference, and measures
that saturate (at their best, or at 0, for every run on a large share of the queries). Pure.

The caveats that read the rankings are ir_metrics_lab.core.brief.rankings' (unjudged documents) and
ir_metrics_lab.core.brief.other_tools' (other tools' conventions)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ir_metrics_lab.core import words
from ir_metrics_lab.core.brief.wording import joined, share
from metrics.catalog import registry
from metrics.catalog.measures import parse_measure
from metrics.compare.significance import TIE

FEW_QUERIES = 50  # TREC's usual topic count: below it, say that a difference needs more queries to be trusted
SATURATED = 0.3  # a measure at its top (or 0) for both runs on this share of the queries cannot tell them apart there


def few_queries(n: int) -> str | None:
    """Why ``n`` queries (fewer than FEW_QUERIES) are not enough, or None."""
    if n >= FEW_QUERIES:
        return None
    if n < 2:
        return f"Only {words.count(n, 'query')}: no test or interval is possible; this is an example, not evidence."
    return (
        f"Only {words.count(n, 'query')}: differences between runs vary a lot from query to query, and TREC uses "
        f"about {FEW_QUERIES} as a minimum; with fewer, a real difference can hide in the noise and a chance one can "
        "look real."
    )


def saturation(values: Mapping[str, Mapping[str, np.ndarray]], n: int) -> str | None:
    """The measures (values[measure][run], aligned) that are at their top for every run, or at 0 for every run, on a
    large share of the queries: there they cannot tell the runs apart."""
    at_top, at_zero = [], []
    for measure, per_run in values.items():
        if not n:
            break
        arrays = np.vstack(list(per_run.values()))
        bounds = registry.value_range(parse_measure(measure).family)
        top = int((arrays >= bounds[1] - TIE).all(axis=0).sum()) if bounds else 0
        zero = int((np.abs(arrays) <= TIE).all(axis=0).sum())
        if top / n >= SATURATED:
            at_top.append(f"{measure} on {share(top, n)}")
        if zero / n >= SATURATED:
            at_zero.append(f"{measure} on {share(zero, n)}")
    if not at_top and not at_zero:
        return None
    every = "both runs" if len(next(iter(values.values()))) == 2 else "every run"

    def listed(found: list[str], state: str) -> str:
        first, _, share_ = found[0].partition(" on ")
        return joined([f"{first} is {state} for {every} on {share_} of the queries", *found[1:]])

    said = ([listed(at_top, "at its best")] if at_top else []) + ([listed(at_zero, "0")] if at_zero else [])
    return (
        "Measures that saturate: " + "; ".join(said) + ". There a measure cannot tell the runs apart, so its "
        "difference comes from the other queries."
    )
