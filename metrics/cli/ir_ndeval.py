"""``ir-ndeval [options] QRELS RUN`` (also ``python -m metrics.ndeval``): ndeval 4.5's command line, printing what
ndeval prints byte for byte: a CSV header, one row per topic of the run (in topic order; a topic the qrels lack is
all zeros), then the ``amean`` row over the topics in both files (``-c``: over the qrels' topics).

Options are read as ndeval reads them, before the two files: ``-alpha X``, ``-beta X``, ``-M DEPTH``,
``-traditional``, ``-c``, ``-a`` (accepted, no effect), ``-riskAlpha X`` (no effect without a baseline, as in
ndeval), ``-help`` (ndeval's help text), ``-version``. ``-baseline`` (risk-sensitive evaluation) is refused.
``--help`` and ``--version`` print this command's own help and version. Bad input: status 2 and one line on stderr
naming the file, the line and the problem (ndeval: status 1 and its own message).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from metrics.cli.common import OneLineParser, add_version_option

PROG = "ir-ndeval"
NDEVAL_NAME = "ndeval"  # what ndeval calls itself (its argv[0]) in -version's line
NDEVAL_VERSION = "version 4.5 (Mon 29 Apr 2013 20:51:02 EDT)"
USAGE = f"usage: {PROG} [options] qrels run   (-help for ndeval's full usage information)"

MEASURES = (
    ("ERR-IA", "err"), ("nERR-IA", "nerr"), ("alpha-DCG", "dcg"), ("alpha-nDCG", "ndcg"),
    ("NRBP", "nrbp"), ("nNRBP", "nnrbp"), ("MAP-IA", "map_ia"), ("P-IA", "precision"), ("strec", "strec"),
)  # fmt: skip
CUTOFFS = (5, 10, 20)
WHOLE = ("nrbp", "nnrbp", "map_ia")  # no cutoff
COLUMNS = tuple(
    name if field in WHOLE else f"{name}@{k}" for name, field in MEASURES for k in ((0,) if field in WHOLE else CUTOFFS)
)


class Refused(ValueError):
    """A command line ndeval refuses (it prints its usage line)."""


@dataclass
class Options:
    alpha: float = 0.5
    beta: float = 0.5
    traditional: bool = False
    depth: int = 0
    complete: bool = False
    risk_alpha: float = 0.0


def _c_float(text: str, previous: float, option: str) -> float:
    """sscanf("%lf"): the number at the start of ``text``; ndeval keeps the previous value when there is none."""
    from metrics.io.ndeval_run import c_double

    value = c_double(text.lstrip(" \t\n\r\x0b\x0c").encode("utf-8", "surrogateescape"))
    if value is not None and math.isnan(value):
        raise Refused(f"{option} {text!r} is not a number")
    return previous if value is None else value


def _c_int(text: str, previous: int, option: str) -> int:
    found = re.match(r"[ \t\n\r\x0b\x0c]*([+-]?[0-9]+)", text)
    if not found:
        return previous
    value = int(found.group(1))
    if not -(2**31) <= value < 2**31:
        raise Refused(f"{option} {text!r} is out of range")
    return value


def _flags(arg: str, options: Options) -> None:
    for letter in arg[1:]:
        if letter == "c":
            options.complete = True
        elif letter != "a":
            raise Refused(f"unknown option {arg!r}")


def parse(argv: Sequence[str]) -> tuple[Options, str, str] | str:
    """ndeval's option loop: (options, qrels, run), or the text -help or -version print."""
    args, options = list(argv), Options()
    while len(args) != 2:
        first, argc = (args[0] if args else None), len(args) + 1
        if argc >= 2 and first == "-version":
            return f"{NDEVAL_NAME}: {NDEVAL_VERSION}\n"
        if argc >= 2 and first == "-help":
            from metrics.cli.ndeval_help import HELP_TEXT

            return HELP_TEXT
        if argc >= 5 and first in ("-alpha", "-beta"):
            value = _c_float(args[1], getattr(options, first[1:]), first)
            if not 0.0 <= value <= 1.0:
                raise Refused(f"{first} must be from 0 to 1, got {args[1]!r}")
            setattr(options, first[1:], value)
        elif argc >= 5 and first == "-M":
            options.depth = _c_int(args[1], options.depth, "-M")
            if options.depth <= 0:
                raise Refused(f"-M must be a depth of 1 or more, got {args[1]!r}")
        elif argc >= 5 and first == "-baseline":
            raise Refused("-baseline (risk-sensitive evaluation) is not implemented; ndeval 4.5 itself computes it")
        elif argc >= 5 and first == "-riskAlpha":
            options.risk_alpha = _c_float(args[1], options.risk_alpha, first)
            if options.risk_alpha < 0.0:
                raise Refused(f"-riskAlpha must be 0 or more, got {args[1]!r}")
        elif argc >= 4 and first == "-traditional":
            options.traditional = True
            args = args[1:]
            continue
        elif argc >= 4 and first is not None and first.startswith("-"):
            _flags(first, options)
            args = args[1:]
            continue
        else:
            raise Refused("expected [options] qrels run, the options first")
        args = args[2:]
    return options, args[0], args[1]


def format_value(value: float) -> str:
    """C's %.6f: a NaN (ndeval's 0 / 0) prints as -nan."""
    return "-nan" if math.isnan(value) else f"{value:.6f}"


def report(options: Options, qrels_path: str, run_path: str) -> str:
    """The CSV ndeval prints for these files."""
    from metrics.cli.ndeval_scores import fast_scores
    from metrics.diversity.arithmetic import divide

    args = (options.alpha, options.beta, options.traditional, options.depth)
    scored = fast_scores(qrels_path, run_path, *args) or _line_scores(qrels_path, run_path, *args)
    header = ["runid", "topic", *COLUMNS]
    out = [",".join(header)]
    totals = [0.0] * (len(header) - 2)
    shared = 0
    for topic, values in scored.rows:
        row = [0.0] * len(totals)
        if values is not None:
            row, shared = _row(values), shared + 1
        totals = [t + v for t, v in zip(totals, row, strict=True)]
        out.append(",".join([scored.run_id, str(topic), *map(format_value, row)]))
    shared = len(scored.judged_topics) if options.complete else shared
    out.append(",".join([scored.run_id, "amean", *(format_value(divide(t, float(shared))) for t in totals)]))
    return "\n".join(out) + "\n"


def _line_scores(qrels_path: str, run_path: str, alpha: float, beta: float, traditional: bool, depth: int):
    """The files read line by line (what names a bad line), each topic scored whole."""
    from metrics.cli.ndeval_scores import Scored
    from metrics.diversity.aspects import aspects_by_topic
    from metrics.diversity.topic import NDEVAL_DEPTH, topic_values
    from metrics.io.ndeval_run import ndeval_rankings, read_ndeval_run
    from metrics.io.subtopic_qrels import read_subtopic_lines

    _, lines = read_subtopic_lines(qrels_path)
    judged = aspects_by_topic(lines)
    display, run_id, run_lines = read_ndeval_run(run_path)
    rankings = ndeval_rankings(display, run_lines, traditional, depth)
    rows: list[tuple[int, object]] = [
        (topic, topic_values(ranking, judged[topic], alpha, beta, NDEVAL_DEPTH) if topic in judged else None)
        for topic, ranking in rankings.items()
    ]
    return Scored(run_id, rows, set(judged))


def _row(values) -> list[float]:
    row = []
    for _, field in MEASURES:
        value = getattr(values, field)
        row.extend([value[k - 1] for k in CUTOFFS] if isinstance(value, list) else [value])
    return row


def _parser() -> argparse.ArgumentParser:
    """This command's --help (the docs' command-line reference reads it); ndeval's own options are parsed by
    :func:`parse`, as ndeval parses them."""
    parser = OneLineParser(
        prog=PROG,
        usage=f"{PROG} [-alpha X] [-beta X] [-M DEPTH] [-traditional] [-c] QRELS RUN",
        description="ndeval 4.5's diversity measures (ERR-IA, alpha-nDCG, NRBP, MAP-IA, P-IA, subtopic recall at "
        "5, 10, 20), printed as ndeval prints them: a CSV row per topic and the amean row.",
        epilog="Options come before the files, one dash, as ndeval's. -help prints ndeval's own help. -baseline is "
        "not implemented (refused). Bad input exits with status 2 and one line on stderr (ndeval: status 1).",
    )
    parser.add_argument(
        "qrels", help="subtopic qrels: 'topic subtopic docno judgment' (numbers; judgment > 0 relevant)"
    )
    parser.add_argument("run", help="run file: 'topic Q0 docno rank score runid' (ordered by rank)")
    parser.add_argument("-alpha", metavar="X", help="redundancy intolerance, 0 to 1 (default 0.5)")
    parser.add_argument("-beta", metavar="X", help="patience for NRBP, 0 to 1 (default 0.5)")
    parser.add_argument("-M", metavar="DEPTH", help="cut each topic's ranking at this depth")
    parser.add_argument("-traditional", action="store_true", help="order by score then docno (trec_eval's order)")
    parser.add_argument("-c", action="store_true", help="average over every topic of the qrels")
    parser.add_argument("-riskAlpha", metavar="X", help="accepted; no effect without -baseline (as in ndeval)")
    add_version_option(parser, PROG)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (0, or 2 for bad input). Output goes to sys.stdout's bytes."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("--help", "--version"):
        try:
            _parser().parse_args(argv[:1])
        except SystemExit as done:
            return int(done.code or 0)
    try:
        parsed = parse(argv)
        text = parsed if isinstance(parsed, str) else report(*parsed)
    except Refused as error:
        print(f"error: {error} ({USAGE})", file=sys.stderr)
        return 2
    except (ValueError, OSError) as error:  # InputError is a ValueError; its str() names file and line
        print(f"error: {error}", file=sys.stderr)
        return 2
    _write(text)
    return 0


def _write(text: str) -> None:
    data = text.encode("utf-8", "surrogateescape")  # ids keep the bytes they were read with
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(data.decode("utf-8", "replace"))
        return
    sys.stdout.flush()
    buffer.write(data)
    buffer.flush()


def cli() -> None:
    """The ``ir-ndeval`` entry point."""
    status = main()
    with contextlib.suppress(BrokenPipeError):  # the reader left early (| head)
        sys.stdout.flush()
    sys.exit(status)


if __name__ == "__main__":
    cli()
