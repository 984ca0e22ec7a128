"""A brief for people who will never open the app: what a comparison says, in plain words first, with its numbers,
two or three charts, what each measure rewards, the caveats that hold for this data, and how the numbers were made.
ir_metrics_lab.core.exports.brief_html writes it as one self-contained HTML file.

Four briefs, one per page that offers "Download the brief": two runs (Compare runs' pair view), a leaderboard of runs
(Compare runs), two tools on one run (Why tools differ) and the two lists of Retriever A vs B.

Pure (no Streamlit): every number comes from metrics/ (the engine, metrics.compare's pairing, paired tests, bootstrap
interval, Holm's correction and leaderboard, metrics.tools' settings and explanation, metrics.teaching's diagnosis);
this module only picks them and says them. The strings are plain text, user text (run names, file names, query and
document ids, titles) as it is: ir_metrics_lab.core.exports.brief_html escapes every one of them.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from importlib import metadata

import numpy as np
import plotly.graph_objects as go

from ir_metrics_lab.core import family_display, words
from ir_metrics_lab.core import url as links
from ir_metrics_lab.core.exports import brief_charts
from ir_metrics_lab.core.figures import curve_charts
from ir_metrics_lab.core.figures.palette import SYSTEM_COLORS
from ir_metrics_lab.core.lessons import narrative
from ir_metrics_lab.core.scenario import Scenario
from metrics.catalog import registry
from metrics.catalog.measures import Measure, parse_measure
from metrics.compare import leaderboard as boards
from metrics.compare.leaderboard import TESTS, Leaderboard
from metrics.compare.pairing import align
from metrics.compare.significance import (
    N_RESAMPLES,
    SEED,
    TIE,
    PairedComparison,
    compare_paired,
    holm_across_metrics,
)
from metrics.core.conventions import Conventions
from metrics.evaluation.aggregate import mean
from metrics.evaluation.engine import Evaluation, evaluate
from metrics.io import read_qrels
from metrics.teaching import diagnosis
from metrics.teaching.plain_words import rewards
from metrics.teaching.sweep import at_each_cutoff
from metrics.tools import profiles
from metrics.tools.explain import Explanation
from metrics.tools.settings import SWITCHES, TITLES, TREC_EVAL_SETTING, Setting, described, score

ALPHA = 0.05
FEW_QUERIES = 50  # TREC's usual topic count: below it, say that a difference needs more queries to be trusted
SATURATED = 0.3  # a measure at its top (or 0) for both runs on this share of the queries cannot tell them apart there
RANK_DEPTH = 10  # the rank chart's depth when the measure has no cutoff (or a deep one)
MAX_LISTED = 10  # the A vs B brief lists this many documents of each list at most
MAX_PROFILED_RUNS = 6  # the rank chart and the conventions check of a leaderboard: the best runs, at most this many
PAGES = {"pair": "compare", "leaderboard": "compare", "tools": "why-tools-differ", "ab": "a-vs-b"}  # app.py's paths


@dataclass(frozen=True)
class Chart:
    title: str
    figure: go.Figure
    caption: str  # one sentence: what to see in it
    alt: str  # what it shows, with its key numbers, for a reader who cannot see it


@dataclass(frozen=True)
class Table:
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    strong: frozenset[tuple[int, int]] = frozenset()  # (row, column) cells in bold: the best per column
    numeric: frozenset[int] = frozenset()  # columns aligned right


@dataclass(frozen=True)
class Brief:
    kind: str  # "pair", "leaderboard", "tools", "ab"
    title: str
    headline: str  # the plain-words verdict
    numbers: str  # the number that matters and how sure we are of it
    story: tuple[str, ...]
    charts: tuple[Chart, ...]
    measures: tuple[str, ...]  # what each measure rewards, one line each
    caveats: tuple[str, ...]  # what this does not tell, computed for this data
    made: tuple[tuple[str, str], ...]  # (what, how): conventions, statistics, tools, inputs, date, command line
    links: tuple[tuple[str, str], ...] = ()  # (text, absolute address) back to the app
    table: Table | None = None

    @property
    def file_name(self) -> str:
        return file_name(self.kind)


@dataclass(frozen=True)
class Inputs:
    """Where the numbers come from, for the brief's last section: file names as the user gave them (shown as they
    are), the day, and the app's address for links back (None: no link, e.g. a test)."""

    qrels: str = ""
    runs: Mapping[str, str] = field(default_factory=dict)  # run name -> its file's name
    made_on: date = field(default_factory=date.today)
    app_url: str | None = None


def file_name(kind: str) -> str:
    """The downloaded file's name: ``brief-compare.html``, ``brief-a-vs-b.html``, ... (no user text in it)."""
    return f"brief-{PAGES[kind]}.html"


def app_url(page_address: str | None, kind: str) -> str | None:
    """The app's root address from a page's own (``st.context.url`` on that page): without the page's path.

    >>> app_url("http://127.0.0.1:8501/compare", "pair"), app_url(None, "ab")
    ('http://127.0.0.1:8501', None)
    """
    if not page_address:
        return None
    return page_address.rstrip("/").removesuffix("/" + PAGES[kind]) or None


# --- words and numbers ---


def _n(x: float) -> str:
    return f"{x:.4f}"


def _d(x: float) -> str:
    return f"{x:+.4f}"


def p_text(p: float) -> str:
    """'p = 0.0123', or 'p < 0.0001' (four decimals, as the app and the CLI print)."""
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "0%"


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _sentence(text: str) -> str:
    """A clause as a sentence: its first letter in capitals (only that one: ids keep their case), a full stop."""
    return text[:1].upper() + text[1:] + "."


def _version() -> str:
    try:
        return metadata.version("ir-metrics-lab")
    except metadata.PackageNotFoundError:  # a clone run without pip install
        return "(from source)"


def _setting_words(setting: Setting, switches: Sequence[str] = SWITCHES) -> str:
    return "; ".join(described(switch, getattr(setting, switch)) for switch in switches)


def _made(inputs: Inputs, *extra: tuple[str, str], given: str = "") -> tuple[tuple[str, str], ...]:
    files = [f"qrels {inputs.qrels}"] if inputs.qrels else []
    files += [f"{name}: {path}" for name, path in inputs.runs.items()]
    return (
        *extra,
        ("Inputs", given or "; ".join(files)),
        ("Made", f"{inputs.made_on.isoformat()}, with IR Metrics Lab {_version()} (numbers equal trec_eval 10.0's)"),
    )


# --- what the runs' rankings hold at each rank (trec_eval's relstring: one judgment character per rank) ---


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


def _depth(measure: Measure) -> int:
    return measure.k if measure.k is not None and measure.k <= 20 else RANK_DEPTH


def _rank_chart(profiles_: Mapping[str, RankProfile], colours: Mapping[str, str] | None = None) -> Chart:
    names = list(profiles_)
    depth = next(iter(profiles_.values())).depth
    shares = {name: profiles_[name].shares for name in names}
    gaps = [max(s[i] for s in shares.values()) - min(s[i] for s in shares.values()) for i in range(depth)]
    widest = int(np.argmax(gaps)) if gaps else 0
    at = ", ".join(f"{name} {100 * shares[name][widest]:.0f}%" for name in names)
    if gaps and gaps[widest] > 0:
        caption = (
            f"The share of queries with a relevant document at each of the first {depth} ranks: the runs differ most "
            f"at rank {widest + 1} ({at})."
        )
    else:
        caption = f"The share of queries with a relevant document at each of the first {depth} ranks: the same for all."
    listed = "; ".join(
        f"{name}: " + ", ".join(f"rank {i + 1} {100 * v:.0f}%" for i, v in enumerate(shares[name])) for name in names
    )
    return Chart(
        "Where in the ranking they differ",
        brief_charts.rank_profile(shares, colours),
        caption,
        f"Line chart of the share of queries with a relevant document at ranks 1 to {depth}. {listed}.",
    )


def _unjudged_caveat(profiles_: Mapping[str, RankProfile]) -> str | None:
    found = {name: p for name, p in profiles_.items() if p.unjudged}
    if not found:
        return None
    depth = next(iter(profiles_.values())).depth
    shares = _join([f"{_share(p.unjudged, p.retrieved)} of {name}'s" for name, p in profiles_.items()])
    worst = max(p.unjudged / p.retrieved for p in found.values())
    warning = (
        " That is a lot: a run that finds good documents nobody judged is under-rated, and the order of the runs may "
        "change once they are judged."
        if worst >= 0.1
        else ""
    )
    return (
        f"Unjudged documents: nobody judged {shares} top {depth} documents, and every measure here counts them as "
        f"not relevant.{warning}"
    )


def _saturation_caveat(values: Mapping[str, Mapping[str, np.ndarray]], n: int) -> str | None:
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
            at_top.append(f"{measure} on {_share(top, n)}")
        if zero / n >= SATURATED:
            at_zero.append(f"{measure} on {_share(zero, n)}")
    if not at_top and not at_zero:
        return None
    every = "both runs" if len(next(iter(values.values()))) == 2 else "every run"

    def listed(found: list[str], state: str) -> str:
        first, _, share = found[0].partition(" on ")
        return _join([f"{first} is {state} for {every} on {share} of the queries", *found[1:]])

    said = ([listed(at_top, "at its best")] if at_top else []) + ([listed(at_zero, "0")] if at_zero else [])
    return (
        "Measures that saturate: " + "; ".join(said) + ". There a measure cannot tell the runs apart, so its "
        "difference comes from the other queries."
    )


def _few_queries_caveat(n: int) -> str | None:
    if n >= FEW_QUERIES:
        return None
    if n < 2:
        return f"Only {words.count(n, 'query')}: no test or interval is possible; this is an example, not evidence."
    return (
        f"Only {words.count(n, 'query')}: differences between runs vary a lot from query to query, and TREC uses "
        f"about {FEW_QUERIES} as a minimum; with fewer, a real difference can hide in the noise and a chance one can "
        "look real."
    )


def _alternative_settings(measure: Measure, qrels) -> list[tuple[str, Setting]]:
    """Other ways popular tools score ``measure`` (their profiles' Settings, one per distinct Setting, named by the
    tools that use it), and trec_eval -l 2 when some grades are above 1: each a number someone might report."""
    found: dict[Setting, list[str]] = {}
    plain_measure = measure.gain == "linear" and measure.rel is None and not measure.params
    if plain_measure:
        usable, _ = profiles.usable_tools(measure)
        for key in usable:
            setting = profiles.profile(key, measure.family).setting
            if setting is not None and setting != TREC_EVAL_SETTING:
                found.setdefault(setting, []).append(profiles.tool(key).title)
    if measure.rel is None and int(np.max(read_qrels(qrels).grade, initial=0)) >= 2:
        found.setdefault(Setting(threshold=2), []).append("trec_eval -l 2")
    return [(_join(names), setting) for setting, names in found.items()]


@dataclass(frozen=True)
class _Scored:
    tools: str  # the tools that score it this way
    how: str  # their choices that differ from trec_eval's, in words
    means: dict[str, float]  # run -> its mean under those choices


def _scored_otherwise(measure: Measure, runs: Mapping[str, object], qrels, means: Mapping[str, float]) -> list[_Scored]:
    """The measure's mean for each run under every other tool's choices that change at least one of them."""
    found = []
    for names, setting in _alternative_settings(measure, qrels):
        under = {run: score(source, qrels, measure, setting).mean for run, source in runs.items()}
        if all(abs(under[run] - means[run]) < 5e-5 for run in runs):
            continue
        changes = [s for s in SWITCHES if getattr(setting, s) != getattr(TREC_EVAL_SETTING, s)]
        found.append(_Scored(names, _join([described(s, getattr(setting, s)) for s in changes]), under))
    return found


def _conventions_caveat(
    measure: Measure, runs: Mapping[str, object], qrels, means: Mapping[str, float], *, pair: bool
) -> str:
    """Whether other tools' conventions (metrics.tools.profiles) change the number, and the verdict: for a pair (A
    then B) the sign of B − A, for a leaderboard the leading run."""
    scored = _scored_otherwise(measure, runs, qrels, means)
    name = measure.name
    if not scored:
        return f"Conventions: no other tool's way of scoring {name} changes these numbers."
    if pair:
        a, b = list(runs)
        here = means[b] - means[a]

        def verdict(otherwise: _Scored) -> float:
            return otherwise.means[b] - otherwise.means[a]

        def same(otherwise: _Scored) -> bool:
            there = verdict(otherwise)
            return here * there > 0 or (abs(here) <= TIE and abs(there) <= TIE)

        said = f"{b} − {a} reads"
        shown = _d
    else:
        leader = max(means, key=lambda run: means[run])

        def verdict(otherwise: _Scored) -> float:
            return otherwise.means[leader]

        def same(otherwise: _Scored) -> bool:
            return max(otherwise.means, key=lambda run: otherwise.means[run]) == leader

        said = f"{leader}'s {name} reads"
        shown = _n
    flipped = [otherwise for otherwise in scored if not same(otherwise)]
    low, high = min(scored, key=verdict), max(scored, key=verdict)
    spread = (
        f"as other tools score {name}, {said} {shown(verdict(low))} ({low.tools}: {low.how})"
        + ("" if low is high else f" to {shown(verdict(high))} ({high.tools}: {high.how})")
        + f", against {shown(here if pair else means[leader])} here"
    )
    if not flipped:
        return f"Conventions change the number, not the verdict: {spread}. Report {name} with the tool that made it."
    turned = "; ".join(
        f"as {o.tools} score it ({o.how}), "
        + (f"{b} − {a} is {_d(verdict(o))}" if pair else f"{max(o.means, key=lambda run: o.means[run])} leads")
        for o in flipped
    )
    return f"Conventions change the verdict: {turned}. Otherwise {spread}."


# --- two runs (Compare runs' pair view) ---


def pair(
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
    aligned = align(eval_a, eval_b)
    queries, values = aligned.queries, aligned.values
    if not values:
        raise ValueError("the two runs share no measure")
    primary = primary if primary in values else next(iter(values))
    n = len(queries)
    results = {m: compare_paired(a, b) for m, (a, b) in values.items()}
    adjusted = (
        holm_across_metrics(results) if len(results) > 1 else {m: (r.t_test.p_value,) for m, r in results.items()}
    )
    means = {m: (mean(a.tolist()) if n else 0.0, mean(b.tolist()) if n else 0.0) for m, (a, b) in values.items()}
    r = results[primary]
    mean_a, mean_b = means[primary]
    difference = mean_b - mean_a
    real = _real(r, adjusted[primary][0])

    ahead = name_b if difference > 0 else name_a
    if r.wins == r.losses == 0:
        headline = f"{name_b} and {name_a} score every one of the {words.count(n, 'query')} the same on {primary}."
    else:
        first, second, more, fewer = (
            (name_b, name_a, r.wins, r.losses) if r.wins >= r.losses else (name_a, name_b, r.losses, r.wins)
        )
        headline = (
            f"{first} does better than {second} on {more} of {words.count(n, 'query')} by {primary}; {second} does "
            f"better on {fewer}, and {r.ties} tie. "
            + (
                f"On average {ahead} is ahead by {abs(difference):.4f}, more than the noise: a gap this size is "
                "unlikely to be luck of the queries chosen."
                if real
                else f"The average gap, {abs(difference):.4f} in {ahead}'s favour, is within the noise: another "
                "sample of queries could well reverse it."
            )
        )
    holm_words = (
        f", {p_text(adjusted[primary][0])} after Holm's correction over {len(results)} measures"
        if len(results) > 1
        else ""
    )
    numbers = (
        f"{primary}: {name_a} {_n(mean_a)} → {name_b} {_n(mean_b)} ({_d(difference)}; 95% CI {_d(r.ci.low)} to "
        f"{_d(r.ci.high)}; paired t-test {p_text(r.t_test.p_value)}{holm_words})"
    )
    ahead = [m for m in results if _real(results[m], adjusted[m][0]) and results[m].mean_difference > 0]
    behind = [m for m in results if _real(results[m], adjusted[m][0]) and results[m].mean_difference < 0]
    noise = [m for m in results if m not in ahead and m not in behind]
    story = []
    if len(results) > 1:
        parts = []
        if ahead:
            parts.append(f"{name_b} is ahead by more than the noise on {_join(ahead)}")
        if behind:
            parts.append(f"behind on {_join(behind)}")
        if noise:
            parts.append(f"within the noise on {_join(noise)}")
        story.append(f"Across the {len(results)} measures, " + "; ".join(parts) + ".")

    a_values, b_values = values[primary]
    waterfall = brief_charts.sorted_differences(
        b_values - a_values, f"{name_b} better", f"{name_a} better", f"{name_b} − {name_a}"
    )
    chart_list = [
        Chart(
            "Query by query",
            waterfall,
            f"Every query's difference, sorted: the {r.wins} above 0 are queries where {name_b} does better, "
            f"the {r.losses} below where {name_a} does; the dashed line is the mean, {_d(r.mean_difference)}.",
            f"Chart of {name_b} minus {name_a} on {primary} for each of {words.count(n, 'query')}, sorted from "
            f"most negative to most positive: {r.wins} above 0, {r.ties} at 0, {r.losses} below; mean "
            f"{_d(r.mean_difference)}.",
        ),
        _intervals_chart(results, name_a, name_b),
    ]
    caveats = [c for c in (_few_queries_caveat(n),) if c]
    if not real and r.wins + r.losses:
        caveats.append(
            f"Within the noise: the 95% interval of the {primary} difference ({_d(r.ci.low)} to {_d(r.ci.high)}) "
            + ("includes 0" if r.ci.low <= 0 <= r.ci.high else "excludes 0")
            + f", and the t-test gives {p_text(adjusted[primary][0])}"
            + (" after Holm's correction" if len(results) > 1 else "")
            + f" (above {ALPHA:g}): the data cannot say which run is better."
        )
    left = aligned.left_out
    out = left.only_a + left.only_b + left.in_neither
    if out:
        caveats.append(
            f"{words.count(out, 'judged query')} {words.verb(out, 'is')} not in both runs and left out (trec_eval's "
            "rule; its -c option would score them 0 for the run that misses them)."
        )
    caveats += [c for c in (_saturation_caveat({m: {name_a: a, name_b: b} for m, (a, b) in values.items()}, n),) if c]
    if len(runs) == 2 and qrels is not None:
        measure = parse_measure(primary)
        depth = _depth(measure)
        ranked = {
            name_a: rank_profile(runs[0], qrels, queries, depth),
            name_b: rank_profile(runs[1], qrels, queries, depth),
        }
        if name_a != name_b:
            chart_list.append(_rank_chart(ranked, {name_a: SYSTEM_COLORS["A"], name_b: SYSTEM_COLORS["B"]}))
        caveats.append(_unjudged_caveat(ranked) or f"Every document in the top {depth} of both runs is judged.")
        if name_a != name_b:
            caveats.append(
                _conventions_caveat(
                    measure,
                    {name_a: runs[0], name_b: runs[1]},
                    qrels,
                    dict(zip((name_a, name_b), means[primary], strict=True)),
                    pair=True,
                )
            )
    command = ["ir-metrics-compare", inputs.qrels or "QRELS", *(inputs.runs.get(x, x) for x in (name_a, name_b))]
    command += [f"-m{m}" for m in values]
    return Brief(
        "pair",
        f"{name_b} against {name_a}",
        headline,
        numbers,
        tuple(story),
        tuple(chart_list),
        tuple(rewards(m) for m in values),
        tuple(caveats),
        _made(
            inputs,
            ("Conventions", f"trec_eval's: {_setting_words(TREC_EVAL_SETTING)}"),
            ("Statistics", _statistics(len(results), "paired t-test")),
            ("Same numbers from the command line", shlex.join(command) + " --format json"),
        ),
        _page_link(inputs, "pair", "Open Compare runs in the app (load the same files there)"),
    )


def _real(r: PairedComparison, adjusted_p: float) -> bool:
    """A difference beyond the noise: the 95% interval excludes 0 and the corrected p is at most ALPHA."""
    return (r.ci.low > 0 or r.ci.high < 0) and adjusted_p <= ALPHA


def _statistics(measures: int, test: str) -> str:
    holm = f"; Holm's correction over the {measures} measures" if measures > 1 else ""
    return (
        f"{test} on the per-query differences (scipy); 95% interval: percentile bootstrap, {N_RESAMPLES:,} "
        f"resamples of the queries, seed {SEED}{holm}; beyond the noise: the interval excludes 0 and p ≤ {ALPHA:g}"
    )


def _intervals_chart(results: Mapping[str, PairedComparison], name_a: str, name_b: str) -> Chart:
    rows = [(m, r.mean_difference, r.ci.low, r.ci.high) for m, r in results.items()]
    clear = [m for m, _, low, high in rows if low > 0 or high < 0]
    holds = [m for m, _, low, high in rows if low <= 0 <= high]
    said = []
    if clear:
        said.append(f"{_join(clear)} stay{'s' * (len(clear) == 1)} clear of 0")
    if holds:
        said.append(f"{_join(holds)} cross{'es' * (len(holds) == 1)} it: within the noise")
    return Chart(
        "Every measure, with its interval",
        brief_charts.intervals(rows, f"{name_b} − {name_a}"),
        f"Each measure's mean difference ({name_b} − {name_a}) with its 95% interval: " + "; ".join(said) + ".",
        "Interval chart, one row per measure: "
        + "; ".join(f"{m} {_d(d)} (95% CI {_d(low)} to {_d(high)})" for m, d, low, high in rows)
        + ".",
    )


def _page_link(inputs: Inputs, kind: str, text: str) -> tuple[tuple[str, str], ...]:
    return ((text, f"{inputs.app_url.rstrip('/')}/{PAGES[kind]}"),) if inputs.app_url else ()


# --- a leaderboard of runs (Compare runs) ---


def leaderboard(
    board: Leaderboard, *, runs: Mapping[str, object] | None = None, qrels=None, inputs: Inputs | None = None
) -> Brief:
    """The leaderboard's story: which run leads on its first measure, whether the lead over each run is beyond the
    noise (the board's own test and correction), the table itself (the CLI's cells), and the leader against the
    runner-up. ``runs`` ({name: run}) and ``qrels``: for the rank chart and the caveats that read the rankings."""
    inputs = inputs or Inputs()
    primary = board.measures[0]
    n = len(board.queries)
    order = sorted(board.runs, key=lambda run: -board.means[primary][run])
    best, runner = order[0], order[1]
    beaten = board.beats(primary, best)
    rest = [run for run in order[1:] if run not in beaten]
    n_pairs = len(board.runs) * (len(board.runs) - 1) // 2
    correction = boards.CORRECTIONS[board.correction]
    tied = board.best(primary)
    if len(tied) > 1:
        headline = f"{_join(tied)} share the highest {primary} ({_n(board.means[primary][best])})."
    else:
        headline = f"{best} has the highest {primary} of the {len(board.runs)} runs ({_n(board.means[primary][best])})"
        if not rest:
            headline += ", and its lead over every other run is more than the noise."
        elif beaten:
            headline += f"; its lead over {_join(beaten)} is more than the noise, over {_join(rest)} it is not."
        else:
            headline += f", but its lead over {runner} is within the noise: the data cannot say it is better."
    pair_test = board.pair(primary, best, runner)
    r = compare_paired(board.per_query[primary][runner], board.per_query[primary][best])
    after = (
        ""
        if board.correction == "none"
        else f", {p_text(pair_test.adjusted)} after {correction} over {words.count(n_pairs, 'pair')}"
    )
    numbers = (
        f"{primary}: {best} {_n(board.means[primary][best])}, {runner} {_n(board.means[primary][runner])} "
        f"({_d(board.means[primary][best] - board.means[primary][runner])}; 95% CI {_d(r.ci.low)} to {_d(r.ci.high)}; "
        f"{TESTS[board.test]} {p_text(pair_test.p_value)}{after})"
    )
    # the leader against the runner-up on every measure
    results = {m: compare_paired(board.per_query[m][runner], board.per_query[m][best]) for m in board.measures}
    table = Table(
        board.caption(),
        ("", "run", *board.measures),
        tuple((board.letters[run], run, *(board.cell(m, run) for m in board.measures)) for run in board.runs),
        frozenset(
            (i, 2 + j) for j, m in enumerate(board.measures) for i, run in enumerate(board.runs) if run in board.best(m)
        ),
        frozenset(range(2, 2 + len(board.measures))),
    )
    waterfall = brief_charts.sorted_differences(
        board.per_query[primary][best] - board.per_query[primary][runner],
        f"{best} better",
        f"{runner} better",
        f"{best} − {runner}",
    )
    chart_list = [
        _intervals_chart(results, runner, best),
        Chart(
            "The leader against the runner-up, query by query",
            waterfall,
            f"Every query's difference, sorted: the {r.wins} above 0 are queries where {best} does better than "
            f"{runner}, the {r.losses} below where {runner} does; the dashed line is the mean, "
            f"{_d(r.mean_difference)}.",
            f"Chart of {best} minus {runner} on {primary} for each of {words.count(n, 'query')}, sorted: {r.wins} "
            f"above 0, {r.ties} at 0, {r.losses} below; mean {_d(r.mean_difference)}.",
        ),
    ]
    caveats = [c for c in (_few_queries_caveat(n),) if c]
    if board.left_out:
        caveats.append(
            f"{words.count(board.left_out, 'query')} {words.verb(board.left_out, 'is')} evaluated in some runs but "
            "not all, and left out of the means and tests."
        )
    caveats += [c for c in (_saturation_caveat({m: board.per_query[m] for m in board.measures}, n),) if c]
    profiled = order[:MAX_PROFILED_RUNS]
    if runs and qrels is not None:
        measure = parse_measure(primary)
        depth = _depth(measure)
        ranked = {run: rank_profile(runs[run], qrels, board.queries, depth) for run in profiled}
        chart_list.append(_rank_chart(ranked))
        caveats.append(_unjudged_caveat(ranked) or f"Every document in the top {depth} of these runs is judged.")
        caveats.append(
            _conventions_caveat(
                measure,
                {run: runs[run] for run in profiled},
                qrels,
                {run: board.means[primary][run] for run in profiled},
                pair=False,
            )
        )
        if len(order) > MAX_PROFILED_RUNS:
            caveats.append(
                f"The rank chart and the conventions check cover the {MAX_PROFILED_RUNS} runs with the highest "
                f"{primary}, of {len(order)}."
            )
    command = ["ir-metrics-compare", inputs.qrels or "QRELS", *(inputs.runs.get(run, run) for run in board.runs)]
    command += [f"-m{m}" for m in board.measures] + ["--test", board.test, "--correction", board.correction]
    return Brief(
        "leaderboard",
        f"{len(board.runs)} runs compared",
        headline,
        numbers,
        (),
        tuple(chart_list),
        tuple(rewards(m) for m in board.measures),
        tuple(caveats),
        _made(
            inputs,
            ("Conventions", f"trec_eval's: {_setting_words(TREC_EVAL_SETTING)}"),
            (
                "Statistics",
                f"every pair of runs tested per measure: {board.caption().split(': ', 1)[1]} "
                + _statistics(1, "The leader against the runner-up: paired t-test"),
            ),
            ("Same numbers from the command line", shlex.join(command)),
        ),
        _page_link(inputs, "leaderboard", "Open Compare runs in the app (load the same files there)"),
        table,
    )


# --- two tools on one run (Why tools differ) ---


def tools(found: Explanation, *, run=None, qrels=None, inputs: Inputs | None = None) -> Brief:
    """Why two tools give two numbers on one run: each tool's mean, the difference split over the conventions on
    which they differ (metrics.tools.explain's exact Shapley parts), and the per-query differences."""
    inputs = inputs or Inputs()
    first, second = (t.title for t in found.tools)
    counted = [int(c.sum()) for c in found.counted]
    numbers = (
        f"{found.measure}: {first} {_n(found.means[0])} → {second} {_n(found.means[1])} ({_d(found.difference)}), "
        + (
            f"both averaged over {words.count(counted[0], 'query')}"
            if counted[0] == counted[1]
            else f"averaged over {words.count(counted[0], 'query')} and {words.count(counted[1], 'query')}"
        )
    )
    story = tuple(
        f"{TITLES[s]}: {first} by {described(s, found.choices[s][0])}, {second} by "
        f"{described(s, found.choices[s][1])}: {_d(found.attribution[s])} of the difference."
        for s in found.switches
    )
    rows = found.moved()
    differences = [float(found.query_difference[i]) for i in rows]
    moved = sum(abs(d) > TIE for d in differences)
    chart_list = []
    if found.switches:
        from ir_metrics_lab.core.lessons import (
            tool_difference,  # its figure; imported here: it pulls in the Playground's scenario code
        )

        chart_list.append(
            Chart(
                "From one tool's number to the other's",
                tool_difference.waterfall_figure(found),
                f"From {first}'s mean on the left to {second}'s on the right, one step per convention that differs: "
                "the steps add up exactly to the difference.",
                f"Waterfall chart: {first} {_n(found.means[0])}, "
                + ", ".join(f"{TITLES[s]} {_d(found.attribution[s])}" for s in found.switches)
                + f", {second} {_n(found.means[1])}.",
            )
        )
    if rows:
        largest = rows[0]
        chart_list.append(
            Chart(
                "Query by query",
                brief_charts.sorted_differences(
                    differences, f"more under {second}", f"more under {first}", f"{second} − {first}"
                ),
                f"Every query's difference, sorted: {words.count(moved, 'query')} of {len(rows)} "
                f"{words.verb(moved, 'scores')} differently; the largest difference is "
                f"{_d(float(found.query_difference[largest]))}, on query {found.queries[largest]}.",
                f"Chart of {second} minus {first} for each of {words.count(len(rows), 'query')}, sorted: "
                f"{sum(d > TIE for d in differences)} above 0, {sum(abs(d) <= TIE for d in differences)} at 0, "
                f"{sum(d < -TIE for d in differences)} below.",
            )
        )
    headline = found.sentence
    caveats = [
        "Neither number is wrong: both score the same ranking, each by its tool's conventions. Compare runs only "
        "with numbers from one tool, and say which."
        if abs(found.difference) >= 5e-5
        else f"On this run the two tools agree to four decimals on {found.measure}; on another run they may not."
    ]
    caveats += list(found.caveats)
    caveats += [c for c in (_few_queries_caveat(max(counted)),) if c]
    if run is not None and qrels is not None:
        measure = parse_measure(found.measure)
        queries = [q for q, c in zip(found.queries, found.counted[0], strict=True) if c]
        ranked = {"the run": rank_profile(run, qrels, queries, _depth(measure))}
        caveats.append(_unjudged_caveat(ranked) or f"Every document in the run's top {_depth(measure)} is judged.")
    made = tuple(
        (f"{tool.title}'s conventions", _setting_words(profile.setting))
        for tool, profile in zip(found.tools, found.profiles, strict=True)
    )
    command = ["python", "-m", "metrics.explain", inputs.qrels or "QRELS", *(inputs.runs.values() or ["RUN"])]
    command += ["--measure", found.measure, "--tools", ",".join(t.key for t in found.tools)]
    return Brief(
        "tools",
        f"Why {second} and {first} give different {found.measure}",
        headline,
        numbers,
        story,
        tuple(chart_list),
        (rewards(found.measure),),
        tuple(caveats),
        _made(inputs, *made, ("Same numbers from the command line", shlex.join(command))),
        _page_link(inputs, "tools", "Open Why tools differ in the app (load the same files there)"),
    )


# --- Retriever A vs B: two lists for one query ---


def _breakdown(scn: Scenario, key: str):
    """One family on one list, uncut where the playground's card is (its Display's uncut_card), on the full ranking."""
    family = registry.family(key)
    cut = family_display.card_k(key, scn.k)
    return family.function(list(scn.full_ranking), scn.qrels, cut, conventions=scn.conventions)


def _values(scn: Scenario) -> dict[str, object]:
    """The compared measures of one list (metrics.catalog.registry's "compared" list), as the A vs B page shows them."""
    return {key: _breakdown(scn, key) for key in family_display.listed("compared")}


def ab(a: Scenario, b: Scenario, *, source: str = "", inputs: Inputs | None = None) -> Brief:
    """The A vs B story: which list is better and why (ir_metrics_lab.core.lessons.narrative's sentences), each list's
    first documents, the measures side by side, what each list earns at each rank, and the curves over the cutoff."""
    inputs = inputs or Inputs()
    values = {"A": _values(a), "B": _values(b)}
    keys = list(values["A"])
    metrics_ = [values["A"][key].metric for key in keys]
    numbers = "; ".join(
        f"{values['A'][key].metric if a.k == b.k else key} A {_n(values['A'][key].value)} → "
        f"B {_n(values['B'][key].value)}"
        for key in keys
    )
    shown = min(max(len(a.ranking), len(b.ranking)), MAX_LISTED)

    def cell(scn: Scenario, i: int) -> tuple[str, str, str]:
        if i >= len(scn.ranking):
            return ("", "", "")
        doc = scn.ranking[i]
        grade = "unjudged" if doc in scn.unjudged else str(scn.grades.get(doc, 0))
        return (doc, scn.title(doc), grade)

    longest = max(len(a.ranking), len(b.ranking))
    table = Table(
        f"The first {shown} documents of each list (of {longest})" if longest > shown else "Both lists, best first",
        ("rank", "A: document", "A: title", "A: grade", "B: document", "B: title", "B: grade"),
        tuple((str(i + 1), *cell(a, i), *cell(b, i)) for i in range(shown)),
        numeric=frozenset({0, 3, 6}),
    )
    focus = family_display.playground_tabs()[0]  # the family whose per-rank bars the A vs B page opens with
    fa, fb = (_breakdown(scn, focus) for scn in (a, b))

    def relevant_ranks(breakdown) -> str:
        ranks = [str(s.rank) for s in breakdown.steps if s.contribution > 0]
        return f"rank{'s' * (len(ranks) != 1)} {_join(ranks)}" if ranks else "no rank"

    equal = [values["A"][k].metric for k in keys if abs(values["A"][k].value - values["B"][k].value) <= TIE]
    higher_b = [values["A"][k].metric for k in keys if values["B"][k].value - values["A"][k].value > TIE]
    higher_a = [values["A"][k].metric for k in keys if values["A"][k].value - values["B"][k].value > TIE]
    said = []
    if equal:
        said.append(f"{_join(equal)} {'is' if len(equal) == 1 else 'are'} equal for both lists")
    if higher_b:
        said.append(f"{_join(higher_b)} {'is' if len(higher_b) == 1 else 'are'} higher for B")
    if higher_a:
        said.append(f"{_join(higher_a)} {'is' if len(higher_a) == 1 else 'are'} higher for A")
    curves_a = {
        f"{k}@k": at_each_cutoff(k, list(a.full_ranking), a.qrels, max(a.k, len(a.ranking), 1), a.conventions)
        for k in family_display.listed("compared_curves")
    }
    curves_b = {
        f"{k}@k": at_each_cutoff(k, list(b.full_ranking), b.qrels, max(b.k, len(b.ranking), 1), b.conventions)
        for k in family_display.listed("compared_curves")
    }
    depth = max(len(v) for v in (*curves_a.values(), *curves_b.values()))
    chart_list = (
        Chart(
            "The measures side by side",
            brief_charts.side_by_side(
                metrics_, [values["A"][k].value for k in keys], [values["B"][k].value for k in keys]
            ),
            _sentence("; ".join(said)),
            "Bar chart of each measure for A and B: "
            + "; ".join(
                f"{m} A {_n(values['A'][k].value)}, B {_n(values['B'][k].value)}"
                for m, k in zip(metrics_, keys, strict=True)
            )
            + ".",
        ),
        Chart(
            "Where in the list each one earns",
            brief_charts.rank_contributions(fa, fb),
            f"What each rank adds to {fb.metric}: B earns at {relevant_ranks(fb)}, A at {relevant_ranks(fa)}; the same "
            "document earns less the further down it sits.",
            f"Grouped bar chart of each rank's contribution to {fb.metric}: A "
            + ", ".join(f"rank {s.rank} {_n(s.contribution)}" for s in fa.steps)
            + "; B "
            + ", ".join(f"rank {s.rank} {_n(s.contribution)}" for s in fb.steps)
            + ".",
        ),
        Chart(
            "At every cutoff",
            curve_charts.ab_curves(curves_a, curves_b, a.k),
            f"Each measure at every cutoff from 1 to {depth} (the dashed line marks k = {a.k}): where B's line is "
            "above A's, a reader who stops there is better served by B.",
            "Line chart of each measure at cutoffs 1 to "
            f"{depth}: "
            + "; ".join(
                f"{name} A {', '.join(_n(v) for v in curves_a[name])}, B {', '.join(_n(v) for v in curves_b[name])}"
                for name in curves_a
            )
            + ".",
        ),
    )
    caveats = [
        "One query is an example, not evidence: whether B beats A on your users' queries takes many queries and a "
        "test (Compare runs does that)."
    ]
    for side, scn in (("A", a), ("B", b)):
        hidden = [doc for doc in scn.full_ranking[: scn.k] if doc in scn.unjudged]
        if hidden:
            caveats.append(
                f"{words.count(len(hidden), 'document')} in {side}'s top {scn.k} {words.verb(len(hidden), 'has')} no "
                f"judgment ({', '.join(hidden)}): every measure here counts {'it' if len(hidden) == 1 else 'them'} as "
                "not relevant."
            )
    for key in keys:
        bounds = registry.value_range(key)
        va, vb = values["A"][key].value, values["B"][key].value
        if bounds and va >= bounds[1] - TIE and vb >= bounds[1] - TIE:
            caveats.append(
                f"{values['A'][key].metric} is at its best ({bounds[1]:g}) for both lists: it cannot tell them apart "
                "here."
            )
        elif abs(va) <= TIE and abs(vb) <= TIE:
            caveats.append(f"{values['A'][key].metric} is 0 for both lists: it cannot tell them apart here.")
    qrels = {**a.qrels, **b.qrels}
    flips = []
    for key in keys:
        if registry.family(key).kind != "order" or a.k != b.k:
            continue
        k = family_display.card_k(key, a.k)
        for answer, mistakes in diagnosis.choice_variants(
            key, a.full_ranking, b.full_ranking, qrels, k, a.conventions
        ).items():
            verdict = "tie" if answer == "tie" else f"favour {answer}"
            flips.append(f"with {mistakes[0]}, {values['A'][key].metric} would {verdict}")
    if flips:
        caveats.append("Conventions and cutoffs can change the verdict: " + "; ".join(flips) + ".")
    elif a.k == b.k:
        caveats.append(
            "No other convention (gain, ideal ranking, AP's denominator, relevance threshold) and no cutoff one rank "
            "either side changes which list any measure prefers."
        )
    link_list = []
    for side, scn in (("A", a), ("B", b)):
        try:
            link = links.full_link(inputs.app_url, scn)
        except ValueError:
            continue
        if inputs.app_url:
            link_list.append((f"Open list {side} in the Playground", link))
    c = a.conventions
    setting = Setting(threshold=c.threshold, gain=c.gain, idcg=c.idcg, ap_denominator=c.ap_denominator)
    made = [("Conventions", _setting_words(setting, ("threshold", "gain", "idcg", "ap_denominator")))]
    if not link_list:
        why = "a document id holds ',' or ':'" if inputs.app_url else "the app's address is unknown"
        made.append(("Open in the app", f"no link: {why}"))
    return Brief(
        "ab",
        "Retriever A vs Retriever B",
        narrative.headline(a, b),
        numbers,
        tuple(narrative.explain_ab(a, b)),
        chart_list,
        tuple(rewards(m) for m in metrics_),
        tuple(caveats),
        _made(inputs, *made, given=source or "the two lists of the Retriever A vs B page"),
        tuple(link_list) + _page_link(inputs, "ab", "Open Retriever A vs B in the app"),
        table,
    )
