"""The brief of two tools on one run (Why tools differ): each tool's mean, the difference split over the conventions
on which they differ (metrics.tools.explain's exact Shapley parts), and the per-query differences. Pure."""

from __future__ import annotations

import shlex

from ir_metrics_lab.core import words
from ir_metrics_lab.core.brief import caveats, charts, rankings
from ir_metrics_lab.core.brief.model import Brief, Chart, Inputs
from ir_metrics_lab.core.brief.wording import made, number, page_link, setting_words, signed
from metrics.catalog.measures import parse_measure
from metrics.compare.significance import TIE
from metrics.teaching.plain_words import rewards
from metrics.tools.explain import Explanation
from metrics.tools.settings import TITLES, described


def brief(found: Explanation, *, run=None, qrels=None, inputs: Inputs | None = None) -> Brief:
    """Why two tools give two numbers on one run: each tool's mean, the difference split over the conventions on
    which they differ (metrics.tools.explain's exact Shapley parts), and the per-query differences."""
    inputs = inputs or Inputs()
    first, second = (t.title for t in found.tools)
    return Brief(
        "tools",
        f"Why {second} and {first} give different {found.measure}",
        found.sentence,
        _numbers(found),
        tuple(
            f"{TITLES[s]}: {first} by {described(s, found.choices[s][0])}, {second} by "
            f"{described(s, found.choices[s][1])}: {signed(found.attribution[s])} of the difference."
            for s in found.switches
        ),
        tuple(_charts(found)),
        (rewards(found.measure),),
        tuple(_caveats(found, run, qrels)),
        _made(found, inputs),
        page_link(inputs, "tools", "Open Why tools differ in the app (load the same files there)"),
    )


def _numbers(found: Explanation) -> str:
    """Each tool's mean, the difference, and over how many queries each averaged."""
    first, second = (t.title for t in found.tools)
    counted = [int(c.sum()) for c in found.counted]
    return (
        f"{found.measure}: {first} {number(found.means[0])} → {second} {number(found.means[1])} "
        f"({signed(found.difference)}), "
        + (
            f"both averaged over {words.count(counted[0], 'query')}"
            if counted[0] == counted[1]
            else f"averaged over {words.count(counted[0], 'query')} and {words.count(counted[1], 'query')}"
        )
    )


def _charts(found: Explanation) -> list[Chart]:
    """The waterfall from one tool's mean to the other's (when a convention differs) and the per-query differences
    (when a query counts)."""
    first, second = (t.title for t in found.tools)
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
                f"Waterfall chart: {first} {number(found.means[0])}, "
                + ", ".join(f"{TITLES[s]} {signed(found.attribution[s])}" for s in found.switches)
                + f", {second} {number(found.means[1])}.",
            )
        )
    rows = found.moved()
    if rows:
        chart_list.append(_query_chart(found, rows))
    return chart_list


def _query_chart(found: Explanation, rows: list[int]) -> Chart:
    """Every query's difference between the two tools, sorted, and the largest."""
    first, second = (t.title for t in found.tools)
    differences = [float(found.query_difference[i]) for i in rows]
    moved = sum(abs(d) > TIE for d in differences)
    largest = rows[0]
    return Chart(
        "Query by query",
        charts.sorted_differences(differences, f"more under {second}", f"more under {first}", f"{second} − {first}"),
        f"Every query's difference, sorted: {words.count(moved, 'query')} of {len(rows)} "
        f"{words.verb(moved, 'scores')} differently; the largest difference is "
        f"{signed(float(found.query_difference[largest]))}, on query {found.queries[largest]}.",
        f"Chart of {second} minus {first} for each of {words.count(len(rows), 'query')}, sorted: "
        f"{sum(d > TIE for d in differences)} above 0, {sum(abs(d) <= TIE for d in differences)} at 0, "
        f"{sum(d < -TIE for d in differences)} below.",
    )


def _caveats(found: Explanation, run, qrels) -> list[str]:
    """Neither number is wrong; explain's own caveats; few queries; the run's unjudged documents."""
    said = [
        "Neither number is wrong: both score the same ranking, each by its tool's conventions. Compare runs only "
        "with numbers from one tool, and say which."
        if abs(found.difference) >= 5e-5
        else f"On this run the two tools agree to four decimals on {found.measure}; on another run they may not."
    ]
    said += list(found.caveats)
    said += [c for c in (caveats.few_queries(max(int(c.sum()) for c in found.counted)),) if c]
    if run is not None and qrels is not None:
        measure = parse_measure(found.measure)
        queries = [q for q, c in zip(found.queries, found.counted[0], strict=True) if c]
        ranked = {"the run": rankings.rank_profile(run, qrels, queries, rankings.depth(measure))}
        said.append(
            rankings.unjudged_caveat(ranked) or f"Every document in the run's top {rankings.depth(measure)} is judged."
        )
    return said


def _made(found: Explanation, inputs: Inputs) -> tuple[tuple[str, str], ...]:
    """Each tool's conventions and the command line that gives the same numbers."""
    conventions = tuple(
        (f"{tool.title}'s conventions", setting_words(profile.setting))
        for tool, profile in zip(found.tools, found.profiles, strict=True)
    )
    command = ["ir-metrics-explain", inputs.qrels or "QRELS", *(inputs.runs.values() or ["RUN"])]
    command += ["--measure", found.measure, "--tools", ",".join(t.key for t in found.tools)]
    return made(inputs, *conventions, ("Same numbers from the command line", shlex.join(command)))
