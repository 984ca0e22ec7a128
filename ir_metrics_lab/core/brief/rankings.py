"""What the runs' rankings hold at each rank, read from trec_eval's relstring (one judgment character per rank): the
share of queries with a relevant document at each rank, as a chart, and the unjudged documents in the top ranks, as
a caveat. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ir_metrics_lab.core.brief import charts
from ir_metrics_lab.core.brief.model import Chart
from ir_metrics_lab.core.brief.wording import joined, share
from metrics.catalog.family import Measure
from metrics.core.conventions import Conventions
from metrics.evaluation.engine import evaluate

RANK_DEPTH = 10  # the rank chart's depth when the measure has no cutoff (or a deep one)


@dataclass(frozen=True)
class RankProfile:
    """Per rank 1..depth, over a set of queries: how many had a relevant document there, and over the ranks, how many
    retrieved documents had no judgment."""

    depth: int
    queries: int
    relevant_at: tuple[int, ...]  # queries with a relevant document at rank i + 1
    retrieved: int  # documents retrieved in the first ``depth`` ranks of these queries
    unjudged: int  # of those, documents with no judgment (no qrels line, or a grade below 0: pooled, not judged)

    @property
    def shares(self) -> list[float]:
        return [count / self.queries if self.queries else 0.0 for count in self.relevant_at]


def rank_profile(run, qrels, queries: Sequence[str], depth: int, threshold: int = 1) -> RankProfile:
    """The run's judgments at ranks 1..depth over ``queries``, read from the engine's relstring (a grade 0-9, '>'
    above 9, '-' no judgment, '.' pooled but unjudged)."""
    name = f"relstring@{depth}"
    evaluation = evaluate(run, qrels, [name], conventions=Conventions(threshold=threshold))
    strings = dict(zip(evaluation.queries, evaluation.texts[name], strict=True))
    relevant_at = [0] * depth
    retrieved = unjudged = 0
    for query in queries:
        text = strings.get(query, "")
        retrieved += len(text)
        for rank, char in enumerate(text):
            if char in "-.<":
                unjudged += 1
            elif char == ">" or int(char) >= threshold:
                relevant_at[rank] += 1
    return RankProfile(depth, len(queries), tuple(relevant_at), retrieved, unjudged)


def depth(measure: Measure) -> int:
    """How many ranks the rank chart and the unjudged caveat read for ``measure``: its cutoff, up to 20."""
    return measure.k if measure.k is not None and measure.k <= 20 else RANK_DEPTH


def rank_chart(profiles: Mapping[str, RankProfile], colours: Mapping[str, str] | None = None) -> Chart:
    """Each run's share of queries with a relevant document at each rank, and the rank where they differ most."""
    names = list(profiles)
    depth_ = next(iter(profiles.values())).depth
    shares = {name: profiles[name].shares for name in names}
    gaps = [max(s[i] for s in shares.values()) - min(s[i] for s in shares.values()) for i in range(depth_)]
    widest = int(np.argmax(gaps)) if gaps else 0
    at = ", ".join(f"{name} {100 * shares[name][widest]:.0f}%" for name in names)
    if gaps and gaps[widest] > 0:
        caption = (
            f"The share of queries with a relevant document at each of the first {depth_} ranks: the runs differ most "
            f"at rank {widest + 1} ({at})."
        )
    else:
        caption = (
            f"The share of queries with a relevant document at each of the first {depth_} ranks: the same for all."
        )
    listed = "; ".join(
        f"{name}: " + ", ".join(f"rank {i + 1} {100 * v:.0f}%" for i, v in enumerate(shares[name])) for name in names
    )
    return Chart(
        "Where in the ranking they differ",
        charts.rank_profile(shares, colours),
        caption,
        f"Line chart of the share of queries with a relevant document at ranks 1 to {depth_}. {listed}.",
    )


def unjudged_caveat(profiles: Mapping[str, RankProfile]) -> str | None:
    """The share of each run's top documents nobody judged (every measure counts them as not relevant), or None."""
    found = {name: p for name, p in profiles.items() if p.unjudged}
    if not found:
        return None
    depth_ = next(iter(profiles.values())).depth
    shares = joined([f"{share(p.unjudged, p.retrieved)} of {name}'s" for name, p in profiles.items()])
    worst = max(p.unjudged / p.retrieved for p in found.values())
    warning = (
        " That is a lot: a run that finds good documents nobody judged is under-rated, and the order of the runs may "
        "change once they are judged."
        if worst >= 0.1
        else ""
    )
    return (
        f"Unjudged documents: nobody judged {shares} top {depth_} documents, and every measure here counts them as "
        f"not relevant.{warning}"
    )
