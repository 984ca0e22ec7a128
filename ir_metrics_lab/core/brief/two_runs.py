"""The brief of two runs (Compare runs' pair view): run B against run A over the queries both were evaluated on:
wins, the mean difference with its bootstrap interval, the paired t-test (Holm over the measures), the per-query
differences, every measure's interval and where in the ranking they differ. Pure."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from ir_metrics_lab.core import words
from ir_metrics_lab.core.brief import caveats, charts, other_tools, rankings
from ir_metrics_lab.core.brief.model import Brief, Chart, Inputs
from ir_metrics_lab.core.brief.noise import ALPHA, intervals_chart, real, statistics
from ir_metrics_lab.core.brief.wording import joined, made, number, p_text, page_link, setting_words, signed
from ir_metrics_lab.core.figures.palette import SYSTEM_COLORS
from metrics.catalog.measures import parse_measure
from metrics.compare.pairing import AlignedPair, align
from metrics.compare.significance import PairedComparison, compare_paired, holm_across_metrics
from metrics.evaluation.aggregate import mean
from metrics.evaluation.engine import Evaluation
from metrics.teaching.plain_words import rewards
from metrics.tools.settings import TREC_EVAL_SETTING


@dataclass(frozen=True)
class _Pair:
    """Run B against run A as the brief says it: the aligned queries and values, each measure's paired comparison
    with its p-value after Holm's correction (the raw one for a single measure), and each measure's two means."""

    name_a: str
    name_b: str
    primary: str  # the measure the brief looks closer at
    aligned: AlignedPair
    results: dict[str, PairedComparison]
    adjusted: dict[str, tuple[float, ...]]
    means: dict[str, tuple[float, float]]

    @property
    def n(self) -> int:
        return len(self.aligned.queries)

    @property
    def r(self) -> PairedComparison:
        return self.results[self.primary]

    @property
    def beyond_noise(self) -> bool:
        """The primary measure's difference is beyond the noise (ir_metrics_lab.core.brief.noise.real)."""
        return real(self.r, self.adjusted[self.primary][0])


def brief(
    eval_a: Evaluation,
    eval_b: Evaluation,
    name_a: str,
    name_b: str,
    *,
    primary: str | None = None,
    runs: Sequence[object] = (),
    qrels=None,
    inputs: Inputs | None = None,
) -> Brief:
    """Run B against run A over the queries both were evaluated on: wins, the mean difference with its bootstrap
    interval, the paired t-test (Holm over the measures), the per-query differences, every measure's interval and
    where in the ranking they differ. ``runs`` (A's and B's run, anything metrics.io reads) and ``qrels``: for the
    rank chart and the caveats that read the rankings (left out without them)."""
    inputs = inputs or Inputs()
    p = _compared(eval_a, eval_b, name_a, name_b, primary)
    chart_list = [_waterfall(p), intervals_chart(p.results, name_a, name_b)]
    caveat_list = _caveats(p)
    if len(runs) == 2 and qrels is not None:
        more_charts, more_caveats = _read_rankings(p, runs, qrels)
        chart_list += more_charts
        caveat_list += more_caveats
    return Brief(
        "pair",
        f"{name_b} against {name_a}",
        _headline(p),
        _numbers(p),
        _story(p),
        tuple(chart_list),
        tuple(rewards(m) for m in p.aligned.values),
        tuple(caveat_list),
        _made(p, inputs),
        page_link(inputs, "pair", "Open Compare runs in the app (load the same files there)"),
    )


def _compared(eval_a: Evaluation, eval_b: Evaluation, name_a: str, name_b: str, primary: str | None) -> _Pair:
    """The two evaluations on the queries and measures they share, every measure compared (primary: the first one
    unless named)."""
    aligned = align(eval_a, eval_b)
    values = aligned.values
    if not values:
        raise ValueError("the two runs share no measure")
    n = len(aligned.queries)
    results = {m: compare_paired(a, b) for m, (a, b) in values.items()}
    adjusted = (
        holm_across_metrics(results) if len(results) > 1 else {m: (r.t_test.p_value,) for m, r in results.items()}
    )
    means = {m: (mean(a.tolist()) if n else 0.0, mean(b.tolist()) if n else 0.0) for m, (a, b) in values.items()}
    primary = primary if primary in values else next(iter(values))
    return _Pair(name_a, name_b, primary, aligned, results, adjusted, means)


def _headline(p: _Pair) -> str:
    """Who does better on more queries, and whether the average gap is beyond the noise."""
    r, n, name_a, name_b = p.r, p.n, p.name_a, p.name_b
    if r.wins == r.losses == 0:
        return f"{name_b} and {name_a} score every one of the {words.count(n, 'query')} the same on {p.primary}."
    mean_a, mean_b = p.means[p.primary]
    difference = mean_b - mean_a
    ahead = name_b if difference > 0 else name_a
    first, second, more, fewer = (
        (name_b, name_a, r.wins, r.losses) if r.wins >= r.losses else (name_a, name_b, r.losses, r.wins)
    )
    return (
        f"{first} does better than {second} on {more} of {words.count(n, 'query')} by {p.primary}; {second} does "
        f"better on {fewer}, and {r.ties} tie. "
        + (
            f"On average {ahead} is ahead by {abs(difference):.4f}, more than the noise: a gap this size is "
            "unlikely to be luck of the queries chosen."
            if p.beyond_noise
            else f"The average gap, {abs(difference):.4f} in {ahead}'s favour, is within the noise: another "
            "sample of queries could well reverse it."
        )
    )


def _numbers(p: _Pair) -> str:
    """The primary measure's two means, their difference, its interval and the t-test (after Holm's correction)."""
    r, mean_a, mean_b = p.r, *p.means[p.primary]
    holm_words = (
        f", {p_text(p.adjusted[p.primary][0])} after Holm's correction over {len(p.results)} measures"
        if len(p.results) > 1
        else ""
    )
    return (
        f"{p.primary}: {p.name_a} {number(mean_a)} → {p.name_b} {number(mean_b)} ({signed(mean_b - mean_a)}; 95% CI "
        f"{signed(r.ci.low)} to {signed(r.ci.high)}; paired t-test {p_text(r.t_test.p_value)}{holm_words})"
    )


def _story(p: _Pair) -> tuple[str, ...]:
    """With several measures: those where B is ahead, behind and within the noise."""
    if len(p.results) <= 1:
        return ()
    beyond = [m for m in p.results if real(p.results[m], p.adjusted[m][0])]
    ahead = [m for m in beyond if p.results[m].mean_difference > 0]
    behind = [m for m in beyond if p.results[m].mean_difference < 0]
    noise = [m for m in p.results if m not in ahead and m not in behind]
    parts = []
    if ahead:
        parts.append(f"{p.name_b} is ahead by more than the noise on {joined(ahead)}")
    if behind:
        parts.append(f"behind on {joined(behind)}")
    if noise:
        parts.append(f"within the noise on {joined(noise)}")
    return (f"Across the {len(p.results)} measures, " + "; ".join(parts) + ".",)


def _waterfall(p: _Pair) -> Chart:
    """Every query's difference on the primary measure, sorted."""
    r, name_a, name_b = p.r, p.name_a, p.name_b
    a_values, b_values = p.aligned.values[p.primary]
    return Chart(
        "Query by query",
        charts.sorted_differences(b_values - a_values, f"{name_b} better", f"{name_a} better", f"{name_b} − {name_a}"),
        f"Every query's difference, sorted: the {r.wins} above 0 are queries where {name_b} does better, "
        f"the {r.losses} below where {name_a} does; the dashed line is the mean, {signed(r.mean_difference)}.",
        f"Chart of {name_b} minus {name_a} on {p.primary} for each of {words.count(p.n, 'query')}, sorted from "
        f"most negative to most positive: {r.wins} above 0, {r.ties} at 0, {r.losses} below; mean "
        f"{signed(r.mean_difference)}.",
    )


def _caveats(p: _Pair) -> list[str]:
    """What the numbers alone say the brief cannot tell: few queries, a difference within the noise, queries left
    out, saturated measures."""
    r = p.r
    found = [c for c in (caveats.few_queries(p.n),) if c]
    if not p.beyond_noise and r.wins + r.losses:
        found.append(
            f"Within the noise: the 95% interval of the {p.primary} difference ({signed(r.ci.low)} to "
            f"{signed(r.ci.high)}) "
            + ("includes 0" if r.ci.low <= 0 <= r.ci.high else "excludes 0")
            + f", and the t-test gives {p_text(p.adjusted[p.primary][0])}"
            + (" after Holm's correction" if len(p.results) > 1 else "")
            + f" (above {ALPHA:g}): the data cannot say which run is better."
        )
    left = p.aligned.left_out
    out = left.only_a + left.only_b + left.in_neither
    if out:
        found.append(
            f"{words.count(out, 'judged query')} {words.verb(out, 'is')} not in both runs and left out (trec_eval's "
            "rule; its -c option would score them 0 for the run that misses them)."
        )
    per_run = {m: {p.name_a: a, p.name_b: b} for m, (a, b) in p.aligned.values.items()}
    found += [c for c in (caveats.saturation(per_run, p.n),) if c]
    return found


def _read_rankings(p: _Pair, runs: Sequence[object], qrels) -> tuple[list[Chart], list[str]]:
    """What the two rankings add: the rank chart, the unjudged documents and other tools' conventions."""
    name_a, name_b = p.name_a, p.name_b
    measure = parse_measure(p.primary)
    depth = rankings.depth(measure)
    ranked = {
        name_a: rankings.rank_profile(runs[0], qrels, p.aligned.queries, depth),
        name_b: rankings.rank_profile(runs[1], qrels, p.aligned.queries, depth),
    }
    unjudged = rankings.unjudged_caveat(ranked) or f"Every document in the top {depth} of both runs is judged."
    if name_a == name_b:  # a run against itself: no ranks to tell apart, no verdict to flip
        return [], [unjudged]
    chart = rankings.rank_chart(ranked, {name_a: SYSTEM_COLORS["A"], name_b: SYSTEM_COLORS["B"]})
    means = dict(zip((name_a, name_b), p.means[p.primary], strict=True))
    conventions = other_tools.conventions_caveat(measure, {name_a: runs[0], name_b: runs[1]}, qrels, means, pair=True)
    return [chart], [unjudged, conventions]


def _made(p: _Pair, inputs: Inputs) -> tuple[tuple[str, str], ...]:
    """Conventions, statistics and the command line that gives the same numbers."""
    command = ["ir-metrics-compare", inputs.qrels or "QRELS", *(inputs.runs.get(x, x) for x in (p.name_a, p.name_b))]
    command += [f"-m{m}" for m in p.aligned.values]
    return made(
        inputs,
        ("Conventions", f"trec_eval's: {setting_words(TREC_EVAL_SETTING)}"),
        ("Statistics", statistics(len(p.results), "paired t-test")),
        ("Same numbers from the command line", shlex.join(command) + " --format json"),
    )
