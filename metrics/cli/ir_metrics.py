"""``python -m metrics QRELS RUN``: trec_eval-style scores of a whole run file (also the ``ir-metrics`` script)."""

from __future__ import annotations

import argparse
import dataclasses
import functools
import gc
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from metrics.cli import trec_options
from metrics.cli.common import OneLineParser, add_large_run_options, add_version_option, evaluation_options, run
from metrics.core.errors import InputError

if TYPE_CHECKING:
    from metrics.evaluation.options import EvaluationOptions

KEEP_FREED_PAGES_FROM_BYTES = 128 << 20  # a run file this large keeps the parser's freed pages (_run)
# A run file this large whose queries are short (fewer rows each than SHORT_QUERY_ROWS, in its first 256 KiB) is
# read in blocks of whole queries of SHORT_QUERY_BLOCK_BYTES (_in_blocks): read whole, a query of 100 rows costs more
# memory than trec_eval 10.0 spends on it.
SHORT_QUERIES_FROM_BYTES = 32 << 20
SHORT_QUERY_ROWS = 250
SHORT_QUERY_BLOCK_BYTES = 4 << 20
# Inputs under this size free a few MB at most, and each hand-back of freed memory walks the whole process's heap: a
# long-lived process calling main again and again (a notebook, the tests' replay of trec_eval's corpus) spent more time
# in it than in the evaluations, and more as its heap grew. Above it, the hand-back keeps the peak down (issue 50).
RETURN_FREED_MEMORY_FROM_BYTES = 2 << 20

EPILOG = """\
measures (case-insensitive; -m may be repeated or hold a comma-separated list):
  {names}
  trec_eval's names: P_10 recall_100 map map_cut_10 recip_rank ndcg ndcg_cut_10 success_10 Rprec num_ret set_F ...
  and its syntax: -m P (its default cutoffs 5 ... 1000), -mP.5,10, -m iprec_at_recall..10,.20,
  -m 11pt_avg..25,.5,.75, -m set_F.0.5, and its nicknames -m official, -m all_trec, -m set, -m qrels_jg
  (judgment groups: -R qrels_jg), -m all_prefs and -m prefs (preferences: -R prefs or -R qrels_prefs).
  ir_measures' syntax: nDCG@10 P(rel=2)@5 AP(rel=2) IPrec@0.5 SetF(beta=0.5) NumRet Rprec.
  A bare number repeats the previous measure at another cutoff, as in trec_eval: -m P.5,10 = P.5 and P.10.
  Default: {defaults} (with --format trec_eval: trec_eval's default, official).

query set (trec_eval's): queries in both the run and the qrels; -c also counts qrels queries missing
from the run, as 0. Counts of queries only in one file are noted on stderr.

formats:
  text       trec_eval's lines: MEASURE<TAB>QUERY<TAB>VALUE; with -q, every query's lines, then the 'all' lines
             (the means). MEASURE is spelled as you gave it.
  trec_eval  byte for byte what trec_eval prints for the same options: its names, its order, %-22s, %6.4f.
  csv        a header 'query,<measure>,...', one row per query with -q, then the row 'all' (the means).
  json       {"measures": [...], "all": {measure: mean}, "queries": {query: {measure: value}} (with -q),
              "counts": {"evaluated", "only_in_run", "only_in_qrels", "no_relevant"}}; full precision, --digits ignored.

Sums and geometric means: num_* are summed over queries and gm_map is a geometric mean, as in trec_eval.
Bad input exits with status 2 and one line on stderr naming the file, the line and the problem.
"""


@functools.cache  # built once per process: a notebook or a test suite calls main() thousands of times (2 ms each)
def _parser() -> argparse.ArgumentParser:
    # pure Python: no numpy before the process opts out of THP
    from metrics.catalog.registry import canonical_names, default_measures

    parser = OneLineParser(
        prog="python -m metrics",
        description="Score a TREC run against qrels, with trec_eval's numbers (ties, query set, conventions).",
        epilog=EPILOG.replace("{names}", " ".join(canonical_names())).replace(
            "{defaults}", " ".join(default_measures())
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "qrels",
        nargs="?",
        help="qrels file: 'qid iter docid grade' (or CSV/TSV with a header; .gz ok); may be left out with "
        "--subtopic-qrels when every measure is a diversity measure",
    )
    parser.add_argument("run", help="run file: 'qid Q0 docid rank score tag' (or CSV/TSV with a header; .gz ok)")
    parser.add_argument("-m", "--measure", action="append", metavar="MEASURE", help="a measure, or a comma list")
    parser.add_argument("-q", "--per-query", action="store_true", help="also print every query's values")
    parser.add_argument("-c", "--complete", action="store_true", help="count qrels queries missing from the run, as 0")
    parser.add_argument("-l", "--level", type=int, default=1, metavar="LEVEL", help="relevance threshold (default 1)")
    parser.add_argument(
        "-M", "--max-docs", type=int, metavar="N", help="evaluate only each query's top N documents (trec_eval -M)"
    )
    parser.add_argument(
        "-J", "--judged-only", action="store_true", help="drop unjudged documents from every ranking (trec_eval -J)"
    )
    parser.add_argument("-n", "--no-summary", action="store_true", help="print no 'all' lines (trec_eval -n)")
    parser.add_argument(
        "-N", "--num-docs", type=int, metavar="N", help="documents in the collection (trec_eval -N: utility's N)"
    )
    parser.add_argument(
        "--recall-rounding",
        choices=("nearest", "plus_0.9"),
        default="nearest",
        help="documents recall level l asks for (iprec_at_recall, 11pt_avg): l*R rounded, as trec_eval 10.0 "
        "(default), or floor(l*R + 0.9), as trec_eval 9 inside pytrec_eval and ir_measures",
    )
    parser.add_argument(
        "--subtopic-qrels",
        metavar="FILE",
        help="ndeval's subtopic qrels, 'topic subtopic docno judgment' (.gz ok): the diversity measures "
        "(alpha_nDCG@20, ERR_IA@20, ...; by default ndeval's nine at depth 20) are scored against them, as "
        "ndeval -traditional scores them; never guessed from the QRELS file",
    )
    parser.add_argument("--format", choices=("text", "trec_eval", "csv", "json"), default="text", help="output format")
    parser.add_argument("--digits", type=int, default=4, metavar="N", help="decimals in text and csv (default 4)")
    trec_options.add_options(parser)
    add_version_option(parser, "ir-metrics")
    add_large_run_options(parser, runs="the run", dask="evaluate on Dask", to_parquet=True)
    return parser


def measure_names(options: Sequence[str] | None) -> list[str]:
    """The -m options as one name per measure (metrics.catalog.measure_lists.measure_names)."""
    from metrics.catalog.measure_lists import measure_names as expand

    return expand(options)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0, or 2 for bad input)."""
    return run(_parser, _run, argv, "python -m metrics")


def _set_up_process(options: argparse.Namespace) -> bool:
    """The process's settings, before numpy and pyarrow load; returns whether the run is read in blocks
    (_in_blocks)."""
    _no_huge_pages()  # before the first large allocation
    # The engine does no linear algebra: spare the process OpenBLAS's thread start-up (about 0.1 s of CPU).
    # Set before numpy's first import, which the next lines trigger.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # Arrow's allocator (mimalloc) keeps the pages the CSV parser frees (each block's text, parsed fields) a second
    # before handing them back, and the parser frees a block every few ms. At 2M rows (bench/data/judged, the run
    # read first) the peak is 179-197 MiB with that default, 160-168 MiB with 10 ms, 161-174 MiB with 20 ms. Each
    # page handed back is faulted in again for a later block: at 7M rows 20 ms costs about 6% more time than the
    # default (35k more page faults) for ~60 MiB less. So a small run's pages go back after 20 ms, and a large run,
    # where those MiB are a small share of the peak, keeps the default (bench/README.md, "Memory"). A caller's own
    # MIMALLOC_PURGE_DELAY wins. Read when pyarrow loads, which the next lines trigger.
    blocks = _in_blocks(options)
    if blocks:  # the blocks' pages go back at once: 170 MiB against 180-195 at 2M rows (docs/performance.md)
        os.environ.setdefault("MIMALLOC_PURGE_DELAY", "0")
    elif _file_bytes(options.run) < KEEP_FREED_PAGES_FROM_BYTES:
        os.environ.setdefault("MIMALLOC_PURGE_DELAY", "20")
    return blocks


def _run(options: argparse.Namespace) -> int:
    blocks = _set_up_process(options)
    from metrics.catalog import trec_format
    from metrics.catalog.measures import parse_measure

    if options.digits < 0 or options.digits > 17:
        raise InputError("option-value", f"--digits must be between 0 and 17, got {options.digits}")
    if options.max_docs is not None and options.max_docs < 1:
        raise InputError("option-max-docs", f"-M must be a positive number of documents, got {options.max_docs}")
    requested = options.measure or (["official"] if options.format == "trec_eval" else None)
    names = measure_names(requested)
    if options.qrels is None and options.subtopic_qrels is None:
        # one file given: argparse took it as the run; trec_eval's form is QRELS RUN
        raise InputError(
            "option-value",
            "the following arguments are required: run (QRELS RUN; RUN alone with --subtopic-qrels FILE)",
        )
    if options.subtopic_qrels is not None and not options.measure:  # ndeval's measures, after trec_eval's
        from metrics.diversity.runs import NDEVAL_MEASURES

        names = [*(names if options.qrels is not None else ()), *NDEVAL_MEASURES]
    runid = trec_format.runid_requested(names)
    measures = [parse_measure(name) for name in names if name.strip().lower() != trec_format.RUNID]
    if options.num_docs is not None:  # trec_eval's -N is the collection size N of utility's fourth term
        measures = [_with_collection(measure, options.num_docs) for measure in measures]
    if options.format == "trec_eval":
        for measure in measures:
            trec_format.trec_name(measure)  # refuse a measure trec_eval has no name for before reading the files
    trec_options.check_readable(measures, options.rel_format)
    if options.level < 0:
        raise InputError(
            "option-level", f"-l {options.level}: the relevance level must be 0 or more (0: judged docs all count)"
        )
    zscores = None
    if options.zscores:  # trec_eval -Z
        from metrics.evaluation.zscores import converted, read_zscores

        zscores = read_zscores(options.zscores)
    settings = evaluation_options(options)
    if blocks and options.block_bytes is None:
        settings = dataclasses.replace(settings, piece_bytes=SHORT_QUERY_BLOCK_BYTES)
    release = _memory_returner(options.run, options.qrels)
    result, run_name, qrels_name = _evaluate(options, measures, settings, release, blocks=blocks)
    if zscores is not None:
        result = converted(result, zscores)
    release()
    _note_query_sets(result, run_name, qrels_name)
    tag = _run_tag(options.run) if runid else None
    if options.format == "trec_eval":
        summary = not options.no_summary
        shown = {"per_query": options.per_query, "summary": summary, "zscores": zscores is not None}
        for piece in trec_format.pieces(result, tag if runid else None, **shown):
            sys.stdout.write(piece)
    elif options.format == "json":
        sys.stdout.write(_json(result, options.per_query) + "\n")
    elif options.format == "csv":
        sys.stdout.write(_csv(result, options.per_query, options.digits))
    else:
        sys.stdout.write(_text(result, options.per_query, options.digits, summary=not options.no_summary, runid=tag))
    return 0


def _with_collection(measure, documents: int):

    from metrics.catalog import registry

    takes_collection = any(param.name == "collection" for param in registry.family(measure.family).params)
    if not takes_collection or any(name == "collection" for name, _ in measure.params):
        return measure
    return dataclasses.replace(measure, params=(*measure.params, ("collection", float(documents))))


def _in_blocks(options: argparse.Namespace) -> bool:
    """Whether the run is read in blocks of whole queries though not asked to (--stream, --no-stream): a large
    text run of short queries (SHORT_QUERIES_FROM_BYTES, SHORT_QUERY_ROWS)."""
    if options.stream is not None or options.dask or options.to_parquet or options.rel_format != "qrels":
        return False
    if options.debug.query is not None or _file_bytes(options.run) < SHORT_QUERIES_FROM_BYTES:
        return False
    from metrics.io.text.sources import rows_per_query

    rows = rows_per_query(options.run)
    return rows is not None and rows < SHORT_QUERY_ROWS


def _evaluate(
    options: argparse.Namespace,
    measures,
    settings: EvaluationOptions,
    release: Callable[[], None],
    *,
    blocks: bool = False,
):
    """The Evaluation, and the names of the run and qrels: read in plain Python (small files), read whole, streamed
    (``blocks``: chosen by _in_blocks), or on Dask (metrics.evaluation.plain_join, streaming, distributed: the same
    numbers), under ``settings``; ``release`` (_memory_returner) after each step that frees memory."""
    from metrics.evaluation.engine import score

    if options.subtopic_qrels is not None:
        return _with_subtopics(options, measures, settings)
    if options.rel_format != "qrels":  # trec_eval -R: judgment groups, preferences
        return trec_options.evaluate_format(options, measures, settings, release)
    if not (blocks or options.stream or options.dask or options.to_parquet):
        small = _plain_files(options.run, options.qrels)
        if small is not None:
            from metrics.evaluation.plain_join import plain_join

            run, qrels = small
            if options.debug.query is not None:  # trec_eval -D LEVEL.QID: that query alone
                run, qrels = trec_options.only_plain_query(run, qrels, options.debug.query, settings.complete)
            return score(plain_join(run, qrels, measures, settings)), run.name, qrels.name
    from metrics.evaluation.engine import evaluate, join
    from metrics.evaluation.streaming import evaluate_stream, too_large_to_read_whole
    from metrics.io import read_qrels, read_run

    if options.debug.query is not None:  # trec_eval -D LEVEL.QID: that query alone (the only one checked)
        qrels = read_qrels(options.qrels)
        checked = trec_options.evaluated_queries(qrels.query, options.debug.query)
        run = read_run(options.run, max_docs=settings.cut(), queries=checked)
        cut = trec_options.only_query(run, qrels, options.debug.query, settings.complete)
        return evaluate(*cut, measures, options=settings), run.name, qrels.name
    run_source = options.run
    if options.to_parquet:
        from metrics.evaluation.streaming import write_parquet

        write_parquet(options.run, options.to_parquet, piece_bytes=settings.piece_bytes)
        run_source = options.to_parquet  # grouped by query now: read back, a partition at a time
    names = os.path.basename(os.path.normpath(options.run)), os.path.basename(options.qrels)
    if options.dask:
        from metrics.evaluation.distributed import evaluate_dask

        return evaluate_dask(options.dask, run_source, options.qrels, measures, options=settings), *names
    stream = blocks or (options.stream if options.stream is not None else too_large_to_read_whole(run_source))
    if stream or options.to_parquet:
        try:
            return evaluate_stream(run_source, options.qrels, measures, options=settings), *names
        except (ValueError, OSError):
            read_qrels(options.qrels)  # trec_eval reads the qrels first: a qrels error is the one reported
            raise
    run, qrels = _read_whole(run_source, options.qrels, settings, release)
    names = run.name, qrels.name
    joined = join(run, qrels, measures, options=settings)
    del run, qrels  # scoring reads only the join: the run's doc ids go before the measures' arrays come
    release()
    return score(joined), *names


def _with_subtopics(options: argparse.Namespace, measures, settings: EvaluationOptions):
    """The Evaluation with --subtopic-qrels (metrics.evaluation.engine.evaluate's subtopic_qrels): the run read
    whole, in one process."""
    from metrics.evaluation.engine import evaluate

    conflicts = [
        flag
        for flag, given in (
            ("-R", options.rel_format != "qrels"),
            ("--stream", bool(options.stream)),
            ("--dask", bool(options.dask)),
            ("--to-parquet", bool(options.to_parquet)),
            ("-D", options.debug.query is not None),
        )
        if given
    ]
    if conflicts:
        raise InputError("option-conflict", f"--subtopic-qrels does not go with {', '.join(conflicts)}")
    result = evaluate(options.run, options.qrels, measures, subtopic_qrels=options.subtopic_qrels, options=settings)
    qrels_name = os.path.basename(options.qrels or options.subtopic_qrels)
    return result, os.path.basename(os.path.normpath(options.run)), qrels_name


def _read_whole(run_source, qrels_path: str, settings: EvaluationOptions, release: Callable[[], None]):
    """(Run, Qrels), each read whole. The run first: its parse is the peak, and the qrels' arrays are not yet held then
    (9 MiB less at 2M rows); ``release`` after each."""
    from metrics.io import read_qrels, read_run

    qrels = None
    try:
        run = read_run(run_source, max_docs=settings.cut())
    except (ValueError, OSError) as error:
        qrels = read_qrels(qrels_path)  # trec_eval reads the qrels first: a qrels error is the one reported
        if getattr(error, "code", None) != "duplicate-doc":
            raise
        # trec_eval checks only the queries it evaluates (the judged): read again, checking those (rare, so the
        # usual read neither pays for it nor holds the qrels at its peak)
        run = read_run(run_source, max_docs=settings.cut(), queries=qrels.query)
    release()
    if qrels is None:
        qrels = read_qrels(qrels_path)
    release()
    return run, qrels


def _plain_files(run_path: str, qrels_path: str):
    """(PlainRun, PlainQrels) when both files are small and plain (metrics.io.text.plain), read without pyarrow, whose
    import would cost more than their evaluation; else None, and the readers read them."""
    from metrics.io.text import plain

    if not (plain.small_file(run_path) and plain.small_file(qrels_path)):
        return None
    run = plain.read_plain_run(run_path)
    qrels = plain.read_plain_qrels(qrels_path) if run is not None else None
    return None if qrels is None else (run, qrels)


def _memory_returner(run_path: str, qrels_path: str | None) -> Callable[[], None]:
    """What hands freed memory back to the system after each step: ``_return_freed_memory``, unless the inputs are
    files under RETURN_FREED_MEMORY_FROM_BYTES (no qrels: a run and --subtopic-qrels)."""
    inputs = [path for path in (run_path, qrels_path) if path is not None]
    if all(0 < _file_bytes(path) < RETURN_FREED_MEMORY_FROM_BYTES for path in inputs):
        return _keep_freed_memory
    return _return_freed_memory


def _keep_freed_memory() -> None:
    """Nothing: small inputs leave little to hand back (``_memory_returner``)."""


def _return_freed_memory() -> None:
    """Hand the pages Arrow's allocator holds free back to the system (it keeps them for reuse, but the Python
    objects and numpy arrays of the next step cannot reuse them): after each file is read (the parser's leftovers)
    and after the evaluation (the run and qrels), so that the process's peak is what it holds, not what it held."""
    if "pyarrow" in sys.modules:
        sys.modules["pyarrow"].default_memory_pool().release_unused()
    _trim_c_heap()


def _trim_c_heap() -> None:
    """numpy's arrays come from the C library's malloc, which keeps freed memory at the top of its heaps (up to
    tens of MB once large arrays have come and gone); glibc's malloc_trim hands it back."""
    _call_libc("malloc_trim", 0)


def _call_libc(function: str, *args: int) -> None:
    """Call the C library's ``function`` on Linux; where it or the library is missing (musl has no malloc_trim,
    an old kernel's prctl refuses the option), there is nothing to do."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        getattr(ctypes.CDLL(None), function)(*args)
    except (OSError, AttributeError):
        pass


def _file_bytes(path: str) -> int:
    """The size of a file on disk (0 for a directory, a Parquet dataset, or a path that is not there yet: the
    reader reports that)."""
    try:
        return os.path.getsize(path) if os.path.isfile(path) else 0
    except OSError:
        return 0


def _run_tag(path: str) -> str:
    """trec_eval's runid: the run file's tag, or its file name when it has none (a CSV run)."""
    from metrics.io.text.run_tag import run_tag
    from metrics.io.text.sources import is_parquet

    if is_parquet(path):  # no tag column: the file or directory name
        return os.path.basename(os.path.normpath(path))
    return run_tag(path) or os.path.basename(path)


def _no_huge_pages() -> None:
    """Ask Linux to back this one-shot process with ordinary pages only (prctl PR_SET_THP_DISABLE).

    Arrow's allocator and numpy ask for transparent huge pages. Measured at 7M rows on the reference VM, right
    after another process had freed about 1 GB: 0.51-0.79 s per run with huge pages, a steady 0.47 s without;
    with no such neighbour, huge pages gained about 0.02 s. We choose steady.
    """
    _call_libc("prctl", 41, 1, 0, 0, 0)  # 41 = PR_SET_THP_DISABLE (Linux 3.15+)


def _note_query_sets(result, run_name: str, qrels_name: str) -> None:
    counts = result.counts
    notes = []
    if counts.only_in_run:
        notes.append(
            f"{counts.only_in_run} quer{'y' if counts.only_in_run == 1 else 'ies'} only in {run_name} (ignored)"
        )
    if counts.only_in_qrels:
        treated = "scored 0 (-c)" if result.complete else "ignored; -c scores them 0"
        plural = "y" if counts.only_in_qrels == 1 else "ies"
        notes.append(f"{counts.only_in_qrels} quer{plural} only in {qrels_name} ({treated})")
    if notes:
        print(f"note: {'; '.join(notes)}; {counts.evaluated} evaluated", file=sys.stderr)


def _text(result, per_query: bool, digits: int, *, summary: bool = True, runid: str | None = None) -> str:
    from metrics.catalog import registry

    lines = []
    shown = [m for m in result.measures if registry.family(m.family).trec_eval.per_query] if per_query else []
    if shown:
        # One printf-style template per query, its measures' lines in a row: a third faster than a format per line
        # (35k lines at 7M rows). relstring's values are text.
        template = "\n".join(
            f"{m.name.replace('%', '%%')}\t%s\t" + ("%s" if m.name in result.texts else f"%.{digits}f") for m in shown
        )
        columns = [result.texts.get(m.name) or result.per_query[m.name].tolist() for m in shown]
        arguments = [None] * (2 * len(shown))  # (query, value) for each measure
        for query, *values in zip(result.queries, *columns, strict=True):
            arguments[0::2] = [query] * len(shown)
            arguments[1::2] = values
            lines.append(template % tuple(arguments))
    if summary:
        if runid is not None:
            lines.append(f"runid\tall\t{runid}")
        for measure in result.measures:
            if registry.family(measure.family).values.summary != "none":  # relstring has no 'all' value
                lines.append(f"{measure.name}\tall\t{result.means[measure.name]:.{digits}f}")
    return "\n".join(lines) + "\n" if lines else ""


def _csv(result, per_query: bool, digits: int) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["query", *result.per_query])
    if per_query:
        columns = [values.tolist() for values in result.per_query.values()]
        for index, query in enumerate(result.queries):
            writer.writerow([query, *(f"{column[index]:.{digits}f}" for column in columns)])
    writer.writerow(["all", *(f"{value:.{digits}f}" for value in result.means.values())])
    return buffer.getvalue()


def _json(result, per_query: bool) -> str:
    import json

    document = {
        "measures": list(result.per_query),
        "all": dict(result.means),
        "counts": {
            "evaluated": result.counts.evaluated,
            "only_in_run": result.counts.only_in_run,
            "only_in_qrels": result.counts.only_in_qrels,
            "no_relevant": result.counts.no_relevant,
        },
    }
    if per_query:
        columns = {name: values.tolist() for name, values in result.per_query.items()}
        document["queries"] = {
            query: {name: column[index] for name, column in columns.items()}
            for index, query in enumerate(result.queries)
        }
    return json.dumps(document, ensure_ascii=False)


def cli() -> None:
    """The ``python -m metrics`` and ``ir-metrics`` entry point: main(), then exit at once with its status."""
    # A one-shot process whose large data are arrays, not reference cycles: the cycle collector's passes over the
    # import-time objects buy nothing (6-8 ms at 7M rows). Here, not in main(), which tests call in-process.
    gc.disable()
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader left early (| head): nothing more to say
        pass
    # Everything is written: skip the interpreter's teardown, which would free every array of a large run one by
    # one (about 0.03 s at 7M rows) for an operating system that reclaims the memory anyway.
    os._exit(status)


if __name__ == "__main__":
    cli()
