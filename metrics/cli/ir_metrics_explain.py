"""``ir-metrics-explain QRELS RUN --measure NDCG@10 --tools trec_eval,sklearn [--format text|json]``: why two tools
give two numbers on a run (metrics.tools.explain), as text or JSON."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence

from metrics.cli.common import OneLineParser, run
from metrics.core.errors import InputError
from metrics.tools.explain import TOP_QUERIES, as_json, as_text, explain
from metrics.tools.profiles import TOOLS, measure_forms

PROG = "ir-metrics-explain"


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="Why two tools give two numbers on your run: the difference, attributed to each convention.",
        epilog=f"tools: {', '.join(t.key for t in TOOLS)}. Measures: {', '.join(measure_forms())} (where the tool has "
        "them). Bad input exits with status 2 and one line on stderr.",
    )
    parser.add_argument("qrels", help="qrels file: 'qid iter docid grade' (or CSV/TSV with a header; .gz ok)")
    parser.add_argument("run", help="run file: 'qid Q0 docid rank score tag' (or CSV/TSV with a header; .gz ok)")
    parser.add_argument("--measure", default="NDCG@10", help="the measure (default NDCG@10)")
    parser.add_argument("--tools", required=True, help="two tools, comma-separated: FIRST,SECOND (trec_eval,sklearn)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--top", type=int, default=TOP_QUERIES, help="queries listed in the text output (default 10)")
    return parser


def _work(options: argparse.Namespace) -> int:
    names = [name.strip() for name in options.tools.split(",")]
    if len(names) != 2 or not all(names):
        raise InputError("option-value", f"--tools takes two tools separated by a comma, got {options.tools!r}")
    if options.top < 0:
        raise InputError("option-value", f"--top must be 0 or more, got {options.top}")
    found = explain(options.run, options.qrels, options.measure, names[0], names[1])
    if options.format == "json":
        sys.stdout.write(json.dumps(as_json(found), indent=2) + "\n")
    else:
        sys.stdout.write(as_text(found, options.top))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0, or 2 for bad input)."""
    return run(_parser, _work, argv, PROG)


def cli() -> None:
    """The ``ir-metrics-explain`` entry point."""
    status = main()
    with contextlib.suppress(BrokenPipeError):  # the reader left early (| head)
        sys.stdout.flush()
    sys.exit(status)


if __name__ == "__main__":
    cli()
