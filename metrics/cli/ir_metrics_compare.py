"""``ir-metrics-compare QRELS RUN RUN [RUN ...]``: a leaderboard of N runs (metrics.compare.leaderboard).

The single-run CLI, ``python -m metrics QRELS RUN``, is unchanged; this is a separate entry point.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from metrics.cli.common import OneLineParser, add_large_run_options, add_version_option, evaluation_options, run
from metrics.core.errors import InputError

if TYPE_CHECKING:
    from metrics.evaluation.options import EvaluationOptions

EPILOG = """\
Each run is read and evaluated in turn, keeping only its per-query values, so memory stays near one run's (with
--dask, every run's partitions go to the cluster at once: runs x partitions tasks).
Progress goes to stderr. Means are over the queries every run was evaluated on (trec_eval's query set per run;
with -c every judged query). Every pair of runs is tested per measure and the pairs' p-values corrected together;
a superscript letter beside a value names a run it beats (higher mean, corrected p <= alpha), as ranx does.

measures: as in python -m metrics (NDCG@10 AP RR@10 P@10 R@100 ..., or trec_eval's names); default: its default
measures.
formats: text (a table, * = best per column), csv, json (every pair's p-values too), latex (booktabs), markdown.
Bad input exits with status 2 and one line on stderr naming the file, the line and the problem.
"""


def _parser() -> argparse.ArgumentParser:
    from metrics.compare.leaderboard import ALPHA, CORRECTIONS, TESTS
    from metrics.compare.significance import N_PERMUTATIONS, SEED

    parser = OneLineParser(
        prog="ir-metrics-compare",
        description="Compare two or more TREC runs on one qrels: means, best per column, significant wins.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("qrels", help="qrels file (TREC, CSV/TSV with a header; .gz ok)")
    parser.add_argument("runs", nargs="+", metavar="RUN", help="two or more run files")
    parser.add_argument("-m", "--measure", action="append", metavar="MEASURE", help="a measure, or a comma list")
    parser.add_argument("-n", "--name", action="append", metavar="NAME", help="a run's name, in the runs' order")
    parser.add_argument("-c", "--complete", action="store_true", help="count qrels queries missing from a run as 0")
    parser.add_argument("-l", "--level", type=int, default=1, metavar="LEVEL", help="relevance threshold (default 1)")
    parser.add_argument("--test", choices=tuple(TESTS), default="t-test", help="paired test (default t-test)")
    parser.add_argument("--correction", choices=tuple(CORRECTIONS), default="holm", help="over all pairs")
    parser.add_argument("--alpha", type=float, default=ALPHA, help=f"significance level (default {ALPHA})")
    parser.add_argument("--permutations", type=int, default=N_PERMUTATIONS, help="randomization test permutations")
    parser.add_argument("--seed", type=int, default=SEED, help=f"randomization test seed (default {SEED})")
    parser.add_argument(
        "--format", choices=("text", "csv", "json", "latex", "markdown"), default="text", help="output format"
    )
    parser.add_argument("--digits", type=int, default=4, metavar="N", help="decimals (default 4)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    add_version_option(parser, "ir-metrics-compare")
    add_large_run_options(parser, runs="each run", dask="evaluate the runs on Dask, all at once")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0, or 2 for bad input)."""
    return run(_parser, _run, argv, "ir-metrics-compare")


def _run(options: argparse.Namespace) -> int:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy's import: no linear algebra here
    from metrics.compare.leaderboard import evaluate_runs, from_evaluations, run_name, unique_names

    settings = _checked_settings(options)
    measures = _measures(options.measure)
    names = unique_names(options.name or [run_name(path) for path in options.runs])
    evaluations = evaluate_runs(
        list(zip(names, options.runs, strict=True)),
        options.qrels,
        measures,
        options=settings,
        progress=_progress(options.quiet),
        stream=options.stream,
        dask=options.dask,
    )
    board = from_evaluations(
        evaluations,
        test=options.test,
        correction=options.correction,
        alpha=options.alpha,
        n_permutations=options.permutations,
        seed=options.seed,
    )
    if board.left_out and not options.quiet:
        print(
            f"note: {board.left_out} quer{'y is' if board.left_out == 1 else 'ies are'} evaluated in some runs but "
            f"not all and left out; {len(board.queries)} compared (-c scores every judged query)",
            file=sys.stderr,
        )
    out = {
        "text": board.to_text,
        "csv": board.to_csv,
        "latex": board.to_latex,
        "markdown": board.to_markdown,
    }
    if options.format == "json":
        sys.stdout.write(json.dumps(board.to_json(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(out[options.format](options.digits))
    return 0


def _checked_settings(options: argparse.Namespace) -> EvaluationOptions:
    """The evaluation options (metrics.cli.common), once the runs, names, digits and permutations are checked."""
    from metrics.compare.leaderboard import MAX_RUNS

    if len(options.runs) < 2:
        raise InputError(
            "option-value", f"give at least two runs to compare (got {len(options.runs)}); one run: python -m metrics"
        )
    if len(options.runs) > MAX_RUNS:
        raise InputError("option-value", f"at most {MAX_RUNS} runs (one letter each), got {len(options.runs)}")
    if options.name and len(options.name) != len(options.runs):
        raise InputError("option-value", f"--name was given {len(options.name)} times for {len(options.runs)} runs")
    if not 0 <= options.digits <= 17:
        raise InputError("option-value", f"--digits must be between 0 and 17, got {options.digits}")
    settings = evaluation_options(options)  # checks --block-bytes
    if options.permutations < 1:
        raise InputError("option-value", f"--permutations must be at least 1, got {options.permutations}")
    return settings


def _measures(given: list[str] | None) -> list[str]:
    """The measures to compare, from the -m options: each name checked before any file is read, and those whose
    value is a string (nothing to rank) left out with a note on stderr."""
    from metrics.catalog.measure_lists import without_text_measures
    from metrics.catalog.measures import parse_measure
    from metrics.catalog.trec_format import RUNID
    from metrics.cli.ir_metrics import measure_names

    # none given: the registry's default measure set; trec_eval's runid is the run's tag, not a measure
    measures = [name for name in measure_names(given) if name.strip().lower() != RUNID]
    for name in measures:
        parse_measure(name)  # a bad name fails before any file is read
    measures, strings = without_text_measures(measures)
    if strings:
        print(f"left out (a string per query, nothing to rank): {', '.join(strings)}", file=sys.stderr)
    if not measures:
        raise InputError("measure-list", "no measure with a number to compare: give one with -m (e.g. -m map)")
    return measures


def _progress(quiet: bool) -> Callable[[int, int, str], None]:
    """The runs' progress on stderr (nothing with --quiet): each run as it is read, then the time they all took."""
    started = time.perf_counter()

    def progress(index: int, total: int, name: str) -> None:
        if quiet:
            return
        if index < total:
            print(f"reading run {index + 1}/{total}: {name} ...", file=sys.stderr, flush=True)
        else:
            print(f"{total} runs evaluated in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)

    return progress


def cli() -> None:
    """The ``ir-metrics-compare`` entry point."""
    status = main()
    with contextlib.suppress(BrokenPipeError):  # the reader left early (| head)
        sys.stdout.flush()
    sys.exit(status)


if __name__ == "__main__":
    cli()
