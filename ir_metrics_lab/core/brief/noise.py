"""What "beyond the noise" means in a brief of runs: the rule (the 95% interval excludes 0 and the corrected p is at
most ALPHA), the statistics' own line in the brief's last section, and the chart of every measure's interval. Pure."""

from __future__ import annotations

from collections.abc import Mapping

from ir_metrics_lab.core.brief import charts
from ir_metrics_lab.core.brief.model import Chart
from ir_metrics_lab.core.brief.wording import joined, signed
from metrics.compare.significance import N_RESAMPLES, SEED, PairedComparison

ALPHA = 0.05


def real(r: PairedComparison, adjusted_p: float) -> bool:
    """A difference beyond the noise: the 95% interval excludes 0 and the corrected p is at most ALPHA."""
    return (r.ci.low > 0 or r.ci.high < 0) and adjusted_p <= ALPHA


def statistics(measures: int, test: str) -> str:
    """How the brief's tests and intervals were made, over ``measures`` measures (Holm's correction when several)."""
    holm = f"; Holm's correction over the {measures} measures" if measures > 1 else ""
    return (
        f"{test} on the per-query differences (scipy); 95% interval: percentile bootstrap, {N_RESAMPLES:,} "
        f"resamples of the queries, seed {SEED}{holm}; beyond the noise: the interval excludes 0 and p ≤ {ALPHA:g}"
    )


def intervals_chart(results: Mapping[str, PairedComparison], name_a: str, name_b: str) -> Chart:
    """Each measure's mean difference (B − A) with its 95% interval, and which of them stay clear of 0."""
    rows = [(m, r.mean_difference, r.ci.low, r.ci.high) for m, r in results.items()]
    clear = [m for m, _, low, high in rows if low > 0 or high < 0]
    holds = [m for m, _, low, high in rows if low <= 0 <= high]
    said = []
    if clear:
        said.append(f"{joined(clear)} stay{'s' * (len(clear) == 1)} clear of 0")
    if holds:
        said.append(f"{joined(holds)} cross{'es' * (len(holds) == 1)} it: within the noise")
    return Chart(
        "Every measure, with its interval",
        charts.intervals(rows, f"{name_b} − {name_a}"),
        f"Each measure's mean difference ({name_b} − {name_a}) with its 95% interval: " + "; ".join(said) + ".",
        "Interval chart, one row per measure: "
        + "; ".join(f"{m} {signed(d)} (95% CI {signed(low)} to {signed(high)})" for m, d, low, high in rows)
        + ".",
    )
