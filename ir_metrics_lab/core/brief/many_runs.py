"""The brief of a leaderboard of runs (Compare runs): which run leads on the board's first measure, whether its lead
over each run is beyond the noise (the board's own test and correction), the table itself (the CLI's cells), and the
leader against the runner-up. Pure."""

from __future__ import annotations

import shlex
from collections.abc import Mapping

from ir_metrics_lab.core import words
from ir_metrics_lab.core.brief import caveats, charts, other_tools, rankings
from ir_metrics_lab.core.brief.model import Brief, Chart, Inputs, Table
from ir_metrics_lab.core.brief.noise import intervals_chart, statistics
from ir_metrics_lab.core.brief.wording import joined, made, number, p_text, page_link, setting_words, signed
from metrics.catalog.measures import parse_measure
from metrics.compare import leaderboard as boards
from metrics.compare.leaderboard import TESTS, Leaderboard
from metrics.compare.significance import PairedComparison, compare_paired
from metrics.teaching.plain_words import rewards
from metrics.tools.settings import TREC_EVAL_SETTING

MAX_PROFILED_RUNS = 6  # the rank chart and the conventions check: the best runs, at most this many


def brief(
    board: Leaderboard, *, runs: Mapping[str, object] | None = None, qrels=None, inputs: Inputs | None = None
) -> Brief:
    """The leaderboard's story: which run leads on its first measure, whether the lead over each run is beyond the
    noise (the board's own test and correction), the table itself (the CLI's cells), and the leader against the
    runner-up. ``runs`` ({name: run}) and ``qrels``: for the rank chart and the caveats that read the rankings."""
    inputs = inputs or Inputs()
    primary = board.measures[0]
    order = sorted(board.runs, key=lambda run: -board.means[primary][run])
    best, runner = order[0], order[1]
    # the leader against the runner-up on every measure
    results = {m: compare_paired(board.per_query[m][runner], board.per_query[m][best]) for m in board.measures}
    chart_list = [intervals_chart(results, runner, best), _waterfall(board, best, runner, results[primary])]
    caveat_list = _caveats(board)
    if runs and qrels is not None:
        more_charts, more_caveats = _read_rankings(board, order, runs, qrels)
        chart_list += more_charts
        caveat_list += more_caveats
    return Brief(
        "leaderboard",
        f"{len(board.runs)} runs compared",
        _headline(board, order),
        _numbers(board, best, runner, results[primary]),
        (),
        tuple(chart_list),
        tuple(rewards(m) for m in board.measures),
        tuple(caveat_list),
        _made(board, inputs),
        page_link(inputs, "leaderboard", "Open Compare runs in the app (load the same files there)"),
        _table(board),
    )


def _headline(board: Leaderboard, order: list[str]) -> str:
    """The leader on the first measure, and over which runs its lead is beyond the noise."""
    primary = board.measures[0]
    best, runner = order[0], order[1]
    tied = board.best(primary)
    if len(tied) > 1:
        return f"{joined(tied)} share the highest {primary} ({number(board.means[primary][best])})."
    beaten = board.beats(primary, best)
    rest = [run for run in order[1:] if run not in beaten]
    headline = f"{best} has the highest {primary} of the {len(board.runs)} runs ({number(board.means[primary][best])})"
    if not rest:
        return headline + ", and its lead over every other run is more than the noise."
    if beaten:
        return headline + f"; its lead over {joined(beaten)} is more than the noise, over {joined(rest)} it is not."
    return headline + f", but its lead over {runner} is within the noise: the data cannot say it is better."


def _numbers(board: Leaderboard, best: str, runner: str, r: PairedComparison) -> str:
    """The leader's and the runner-up's means, the difference with its interval, and the board's test of the pair."""
    primary = board.measures[0]
    n_pairs = len(board.runs) * (len(board.runs) - 1) // 2
    pair_test = board.pair(primary, best, runner)
    after = (
        ""
        if board.correction == "none"
        else f", {p_text(pair_test.adjusted)} after {boards.CORRECTIONS[board.correction]} over "
        f"{words.count(n_pairs, 'pair')}"
    )
    means = board.means[primary]
    return (
        f"{primary}: {best} {number(means[best])}, {runner} {number(means[runner])} "
        f"({signed(means[best] - means[runner])}; 95% CI {signed(r.ci.low)} to {signed(r.ci.high)}; "
        f"{TESTS[board.test]} {p_text(pair_test.p_value)}{after})"
    )


def _table(board: Leaderboard) -> Table:
    """The board as the CLI prints it: letter, run, each measure's cell; the best per column in bold."""
    return Table(
        board.caption(),
        ("", "run", *board.measures),
        tuple((board.letters[run], run, *(board.cell(m, run) for m in board.measures)) for run in board.runs),
        frozenset(
            (i, 2 + j) for j, m in enumerate(board.measures) for i, run in enumerate(board.runs) if run in board.best(m)
        ),
        frozenset(range(2, 2 + len(board.measures))),
    )


def _waterfall(board: Leaderboard, best: str, runner: str, r: PairedComparison) -> Chart:
    """The leader against the runner-up on every query, sorted."""
    primary = board.measures[0]
    return Chart(
        "The leader against the runner-up, query by query",
        charts.sorted_differences(
            board.per_query[primary][best] - board.per_query[primary][runner],
            f"{best} better",
            f"{runner} better",
            f"{best} − {runner}",
        ),
        f"Every query's difference, sorted: the {r.wins} above 0 are queries where {best} does better than "
        f"{runner}, the {r.losses} below where {runner} does; the dashed line is the mean, "
        f"{signed(r.mean_difference)}.",
        f"Chart of {best} minus {runner} on {primary} for each of {words.count(len(board.queries), 'query')}, "
        f"sorted: {r.wins} above 0, {r.ties} at 0, {r.losses} below; mean {signed(r.mean_difference)}.",
    )


def _caveats(board: Leaderboard) -> list[str]:
    """Few queries, queries left out of some runs, saturated measures."""
    n = len(board.queries)
    found = [c for c in (caveats.few_queries(n),) if c]
    if board.left_out:
        found.append(
            f"{words.count(board.left_out, 'query')} {words.verb(board.left_out, 'is')} evaluated in some runs but "
            "not all, and left out of the means and tests."
        )
    found += [c for c in (caveats.saturation({m: board.per_query[m] for m in board.measures}, n),) if c]
    return found


def _read_rankings(
    board: Leaderboard, order: list[str], runs: Mapping[str, object], qrels
) -> tuple[list[Chart], list[str]]:
    """What the best runs' rankings add: the rank chart, the unjudged documents and other tools' conventions."""
    primary = board.measures[0]
    profiled = order[:MAX_PROFILED_RUNS]
    measure = parse_measure(primary)
    depth = rankings.depth(measure)
    ranked = {run: rankings.rank_profile(runs[run], qrels, board.queries, depth) for run in profiled}
    found = [
        rankings.unjudged_caveat(ranked) or f"Every document in the top {depth} of these runs is judged.",
        other_tools.conventions_caveat(
            measure,
            {run: runs[run] for run in profiled},
            qrels,
            {run: board.means[primary][run] for run in profiled},
            pair=False,
        ),
    ]
    if len(order) > MAX_PROFILED_RUNS:
        found.append(
            f"The rank chart and the conventions check cover the {MAX_PROFILED_RUNS} runs with the highest "
            f"{primary}, of {len(order)}."
        )
    return [rankings.rank_chart(ranked)], found


def _made(board: Leaderboard, inputs: Inputs) -> tuple[tuple[str, str], ...]:
    """Conventions, the board's statistics and the command line that gives the same numbers."""
    command = ["ir-metrics-compare", inputs.qrels or "QRELS", *(inputs.runs.get(run, run) for run in board.runs)]
    command += [f"-m{m}" for m in board.measures] + ["--test", board.test, "--correction", board.correction]
    return made(
        inputs,
        ("Conventions", f"trec_eval's: {setting_words(TREC_EVAL_SETTING)}"),
        (
            "Statistics",
            f"every pair of runs tested per measure: {board.caption().split(': ', 1)[1]} "
            + statistics(1, "The leader against the runner-up: paired t-test"),
        ),
        ("Same numbers from the command line", shlex.join(command)),
    )
