"""``python -m metrics QRELS RUN``: trec_eval-style scores of a whole run file (also the ``ir-metrics`` script)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

EPILOG = """\
measures (case-insensitive; -m may be repeated or hold a comma-separated list):
  {names}
  and trec_eval's names: P_10 recall_100 map map_cut_10 recip_rank ndcg ndcg_cut_10 success_10.
  A bare number repeats the previous measure at another cutoff, as in trec_eval: -m P.5,10 = P.5 and P.10.
  Default: NDCG@10 AP RR@10 R@100 R_cap@100 P@10.

query set (trec_eval's): queries in both the run and the qrels; -c also counts qrels queries missing
from the run, as 0. Counts of queries only in one file are noted on stderr.

formats:
  text  trec_eval's lines: MEASURE<TAB>QUERY<TAB>VALUE; with -q, every query's lines, then the 'all' lines
        (the means). MEASURE is spelled as you gave it.
  csv   a header 'query,<measure>,...', one row per query with -q, then the row 'all' (the means).
  json  {"measures": [...], "all": {measure: mean}, "queries": {query: {measure: value}} (with -q),
         "counts": {"evaluated", "only_in_run", "only_in_qrels", "no_relevant"}}; full precision, --digits ignored.

Bad input exits with status 2 and one line on stderr naming the file, the line and the problem.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's default prints the whole usage first: keep it to one line
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    from metrics.registry import canonical_names  # pure Python: no numpy before the process opts out of THP

    parser = _Parser(
        prog="python -m metrics",
        description="Score a TREC run against qrels, with trec_eval's numbers (ties, query set, conventions).",
        epilog=EPILOG.replace("{names}", " ".join(canonical_names())),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("qrels", help="qrels file: 'qid iter docid grade' (or CSV/TSV with a header; .gz ok)")
    parser.add_argument("run", help="run file: 'qid Q0 docid rank score tag' (or CSV/TSV with a header; .gz ok)")
    parser.add_argument("-m", "--measure", action="append", metavar="MEASURE", help="a measure, or a comma list")
    parser.add_argument("-q", "--per-query", action="store_true", help="also print every query's values")
    parser.add_argument("-c", "--complete", action="store_true", help="count qrels queries missing from the run, as 0")
    parser.add_argument("-l", "--level", type=int, default=1, metavar="LEVEL", help="relevance threshold (default 1)")
    parser.add_argument("--format", choices=("text", "csv", "json"), default="text", help="output format")
    parser.add_argument("--digits", type=int, default=4, metavar="N", help="decimals in text and csv (default 4)")
    return parser


def measure_names(options: Sequence[str] | None) -> list[str]:
    """Split -m values on commas; a bare number repeats the previous measure at that cutoff (trec_eval's P.5,10)."""
    from metrics.measures import DEFAULT_MEASURES

    if not options:
        return list(DEFAULT_MEASURES)
    names: list[str] = []
    for option in options:
        for item in option.split(","):
            item = item.strip()
            if not item:
                continue
            if item.isdigit() and names:
                previous = names[-1]
                stem = previous.rstrip("0123456789")
                if stem == previous:
                    raise ValueError(f"measure list {option!r}: {item} follows {previous!r}, which has no cutoff")
                item = stem + item
            if item not in names:
                names.append(item)
    return names


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0, or 2 for bad input)."""
    try:
        options = _parser().parse_args(argv)
    except _UsageError as error:
        print(f"error: {error} (see python -m metrics --help)", file=sys.stderr)
        return 2
    try:
        return _run(options)
    except (ValueError, OSError) as error:  # InputError is a ValueError; its str() names file and line
        print(f"error: {str(error).splitlines()[0] if str(error) else type(error).__name__}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _run(options: argparse.Namespace) -> int:
    _no_huge_pages()  # before the first large allocation
    # The engine does no linear algebra: spare the process OpenBLAS's thread start-up (about 0.1 s of CPU).
    # Set before numpy's first import, which the next lines trigger.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from metrics.conventions import Conventions
    from metrics.engine import evaluate
    from metrics.io import read_qrels, read_run
    from metrics.measures import parse_measure

    if options.digits < 0 or options.digits > 17:
        raise ValueError(f"--digits must be between 0 and 17, got {options.digits}")
    measures = [parse_measure(name) for name in measure_names(options.measure)]
    conventions = Conventions(threshold=options.level)
    qrels = read_qrels(options.qrels)
    run = read_run(options.run)
    result = evaluate(run, qrels, measures, conventions=conventions, complete=options.complete)
    _note_query_sets(result, run.name, qrels.name)
    out = sys.stdout
    if options.format == "json":
        out.write(_json(result, options.per_query) + "\n")
    elif options.format == "csv":
        out.write(_csv(result, options.per_query, options.digits))
    else:
        out.write(_text(result, options.per_query, options.digits))
    return 0


def _no_huge_pages() -> None:
    """Ask Linux to back this one-shot process with ordinary pages only (prctl PR_SET_THP_DISABLE).

    Arrow's allocator and numpy ask for transparent huge pages. Measured at 7M rows on the reference VM, right
    after another process had freed about 1 GB: 0.51-0.79 s per run with huge pages, a steady 0.47 s without;
    with no such neighbour, huge pages gained about 0.02 s. We choose steady.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(41, 1, 0, 0, 0)  # 41 = PR_SET_THP_DISABLE (Linux 3.15+)
    except (OSError, AttributeError):  # no prctl: nothing to do
        pass


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


def _text(result, per_query: bool, digits: int) -> str:
    lines = []
    if per_query:
        line = f"%s\t%s\t%.{digits}f"  # printf-style: a third faster than an f-string per line (35k lines at 7M rows)
        columns = [values.tolist() for values in result.per_query.values()]
        for index, query in enumerate(result.queries):
            for name, values in zip(result.per_query, columns, strict=True):
                lines.append(line % (name, query, values[index]))
    for name, value in result.means.items():
        lines.append(f"{name}\tall\t{value:.{digits}f}")
    return "\n".join(lines) + "\n"


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
