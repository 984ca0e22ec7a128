"""The options of trec_eval 10.0 (trec_eval.c) beyond the measures and the query set: -v, -T, -o, -D and -Z, declared
once for ``python -m metrics`` (metrics.cli.ir_metrics), with what each does here."""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from metrics.core.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Callable

    from metrics.evaluation.engine import Evaluation
    from metrics.evaluation.options import EvaluationOptions
    from metrics.io.model import Run
    from metrics.preferences.prefs_file import Preferences
    from metrics.preferences.qrels_jg_file import JudgmentGroups

TREC_EVAL_VERSION = "10.0-rc3"  # what trec_eval 10.0's -v prints (its Makefile's VERSIONID)
RESULTS_FORMATS = ("trec_results",)  # trec_eval's -T formats (formats.c): its only one
REL_INFO_FORMATS = ("qrels", "qrels_jg", "prefs", "qrels_prefs")  # trec_eval's -R formats (formats.c)


class _PrintVersion(argparse.Action):
    """trec_eval -v: the version on stderr, exit status 0, before anything else is read (as trec_eval.c does)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from metrics.core.version import version

        print(
            f"trec_eval version {TREC_EVAL_VERSION} (as reproduced by ir-metrics {version()})",
            file=sys.stderr,
        )
        parser.exit(0)


@dataclass(frozen=True)
class DebugLevel:
    """trec_eval's ``-D LEVEL[.QID]``: a debug level, and the one query to evaluate when QID is given."""

    level: int
    query: str | None = None


def debug_level(text: str) -> DebugLevel:
    """``-D 2`` or ``-D 0.301`` (trec_eval.c's get_debug_level_query: the query id is everything after the first
    dot); the level must be a whole number.

    >>> debug_level("0.301"), debug_level("3")
    (DebugLevel(level=0, query='301'), DebugLevel(level=3, query=None))
    """
    level, dot, query = text.partition(".")
    if not re.fullmatch(r"\s*[-+]?\d+", level):
        raise argparse.ArgumentTypeError(f"-D {text!r}: the debug level is a whole number, optionally .QUERY_ID")
    if dot and not query:
        raise argparse.ArgumentTypeError(f"-D {text!r}: a query id must follow the dot")
    return DebugLevel(int(level), query if dot else None)


def add_options(parser: argparse.ArgumentParser) -> None:
    """trec_eval's -v, -T, -o, -Z and -D, spelled as trec_eval spells them (its long names too)."""
    group = parser.add_argument_group("trec_eval's other options")
    group.add_argument(
        "-v", action=_PrintVersion, nargs=0, help="print the trec_eval version reproduced (on stderr), and exit"
    )
    group.add_argument(
        "-R",
        "--Rel_info_format",
        dest="rel_format",
        choices=REL_INFO_FORMATS,
        default=REL_INFO_FORMATS[0],
        help="the judgments' format: qrels (qid iter docno grade; the default), qrels_jg (qid group docno grade: "
        "judgment groups, for P_avgjg, map_avgjg, Rprec_mult_avgjg), prefs (qid group subgroup docno level: "
        "preferences, for the prefs_ measures), qrels_prefs (a qrels file read as preferences)",
    )
    group.add_argument(
        "-T",
        "--Results_format",
        dest="results_format",
        choices=RESULTS_FORMATS,
        default=RESULTS_FORMATS[0],
        help="the run's format: trec_eval's only one, trec_results (CSV/TSV runs are recognised by their header)",
    )
    group.add_argument(
        "-o", dest="old_format", action="store_true", help="trec_eval's obsolete old output format: accepted, no effect"
    )
    group.add_argument(
        "-Z",
        "--Zscore",
        dest="zscores",
        metavar="FILE",
        help="print each value as a z-score against the mean and standard deviation FILE gives for its query and "
        "measure (lines: qid measure mean std_dev; -1000000 where it gives none)",
    )
    group.add_argument(
        "-D",
        "--Debug_level",
        dest="debug",
        type=debug_level,
        default=DebugLevel(0),
        metavar="LEVEL[.QID]",
        help="trec_eval's debug level: LEVEL.QID evaluates query QID alone; no debugging text is printed",
    )


def check_readable(measures, rel_format: str) -> None:
    """Refuse a measure trec_eval cannot compute from judgments of this -R format (TrecEval.reads), as it does
    (it exits 4: "Can't calculate measure"), naming the formats it can."""
    from metrics.catalog import registry

    for measure in measures:
        reads = registry.family(measure.family).trec_eval.reads
        if rel_format not in reads:
            needs = " or ".join(f"-R {name}" for name in reads)
            raise InputError(
                "option-conflict",
                f"-R {rel_format}: trec_eval cannot compute {measure.name} from it (it needs {needs})",
            )


def evaluate_format(options, measures, settings: EvaluationOptions, release=lambda: None):
    """(Evaluation, run name, judgments name) for -R qrels_jg, prefs and qrels_prefs, under ``settings`` (an
    EvaluationOptions): the run read whole. ``release`` hands freed memory back after each file is read."""
    if options.stream or options.dask or options.to_parquet:
        large = "--stream, --dask and --to-parquet are for qrels"
        raise InputError("option-conflict", f"-R {options.rel_format} reads the run whole: {large}")
    if options.rel_format in ("prefs", "qrels_prefs"):  # small plain files: scored without pyarrow
        from metrics.preferences.runs.preference_scores import plain_preferences

        found = plain_preferences(
            options.run, options.qrels, options.rel_format, measures, settings, options.debug.query
        )
        if found is not None:
            return found
    from metrics.io import read_run
    from metrics.preferences.prefs_file import read_prefs, read_qrels_prefs
    from metrics.preferences.qrels_jg_file import read_qrels_jg
    from metrics.preferences.runs.judgment_group_runs import evaluate_judgment_groups
    from metrics.preferences.runs.preference_runs import RankedRun, evaluate_preferences, judged_docs, ranked_run

    # -R qrels_jg: judgment groups and a Run; prefs, qrels_prefs: preferences and a RankedRun; -D cuts a Run to a dict
    judgments: JudgmentGroups | Preferences
    run: Run | RankedRun | dict
    evaluate: Callable[..., Evaluation]
    if options.rel_format == "qrels_jg":
        judgments = read_qrels_jg(options.qrels)
        release()
        checked = evaluated_queries(judgments.query, options.debug.query)
        run, evaluate = read_run(options.run, max_docs=settings.cut(), queries=checked), evaluate_judgment_groups
    else:  # preferences rank ties their own way (metrics.preferences.runs.preference_runs.ranked_run)
        read = read_prefs if options.rel_format == "prefs" else read_qrels_prefs
        judgments = read(options.qrels)  # first, as trec_eval: an error there is the one reported
        release()
        # The run's rows cut to the judged docs' as it is read, a block at a time (ranked_run): never held whole.
        checked = evaluated_queries(judgments.query, options.debug.query)
        run = ranked_run(options.run, keep=judged_docs(judgments), max_docs=settings.cut(), queries=checked)
        evaluate = evaluate_preferences
    release()
    names = run.name, judgments.name
    if options.debug.query is not None:  # -D LEVEL.QID: that query alone
        query = options.debug.query
        judgments = judgments.only(query)
        if isinstance(run, RankedRun):  # its queries are the file's, though rows nobody judged were dropped
            in_run = query in run.query_ids
            run = run.only(query)
            if not len(judgments.query) or not (in_run or settings.complete):
                raise InputError(
                    "debug-query", f"-D ...{query}: query {query!r} is not in both the run and the judgments"
                )
        else:
            run = cut_run(run, query, judged=len(judgments.query) > 0, complete=settings.complete)
    return evaluate(run, judgments, measures, options=settings), *names


def evaluated_queries(judged, only: str | None):
    """The queries trec_eval evaluates, and so checks for a doc given twice: the judged (``judged``: the judgments'
    query column; a run's other queries are skipped, -c or not), or with -D LEVEL.QID (``only``) that one if judged."""
    if only is None:
        return judged
    import pyarrow.compute as pc

    queries = pc.unique(judged)  # sliced, not built from Python values (pa.scalar, pa.array of a list load pandas)
    listed = queries.to_pylist()
    return queries.slice(listed.index(only) if only in listed else len(listed), 1)


def cut_run(run, query: str, *, judged: bool, complete: bool) -> dict:
    """The run cut to one query, as a dict the readers accept (its ranking keeps trec_eval's order: scores n, n - 1,
    ..., 1), for trec_eval -D LEVEL.QID. A query trec_eval would not evaluate (not judged; without -c, not in the
    run) is refused, as trec_eval refuses to score nothing."""
    ranking = run.ranking_of(query)
    if not judged or not (ranking or complete):
        raise InputError(
            "debug-query", f"-D ...{query}: query {query!r} is not in both the run and the qrels: nothing to evaluate"
        )
    scores = {doc: float(len(ranking) - index) for index, doc in enumerate(ranking)}
    return {query: scores} if ranking else {}  # -c scores a query missing from the run


def only_plain_query(run, qrels, query: str, complete: bool):
    """A small plain run and qrels (metrics.io.text.plain.PlainRun, PlainQrels) cut to one query, refused as cut_run
    refuses it: -D LEVEL.QID without pyarrow."""
    from metrics.io.text.plain import PlainQrels, PlainRun

    judged = [(doc, grade) for q, doc, grade in zip(qrels.query, qrels.doc, qrels.grade, strict=True) if q == query]
    ranking = run.rankings.get(query, [])
    if not judged or not (ranking or complete):
        raise InputError(
            "debug-query", f"-D ...{query}: query {query!r} is not in both the run and the qrels: nothing to evaluate"
        )
    docs, grades = [doc for doc, _ in judged], [grade for _, grade in judged]
    return PlainRun(run.name, {query: ranking} if ranking else {}), PlainQrels(
        qrels.name, [query] * len(docs), docs, grades
    )


def only_query(run, qrels, query: str, complete: bool) -> tuple[dict, dict[str, dict[str, int]]]:
    """The run and qrels (metrics.io.Run, Qrels) cut to one query, as dicts the readers accept: trec_eval -D
    LEVEL.QID evaluates that query alone (see cut_run)."""
    grades = qrels.grades_of(query)
    return cut_run(run, query, judged=bool(grades), complete=complete), {query: grades}
