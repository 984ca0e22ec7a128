"""What the command lines share: a parser that reports a usage error in one line, the exit-status rule (0, or
2 with one line on stderr for bad input, 130 on Ctrl-C), the "large runs" options, and the evaluation options built
from the arguments (metrics.evaluation.options). Nothing here imports numpy or pyarrow before the work begins."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from metrics.core.errors import InputError

if TYPE_CHECKING:
    from metrics.evaluation.options import EvaluationOptions


class UsageError(Exception):
    pass


class OneLineParser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's default prints the whole usage first: keep it to one line
        raise UsageError(message)


def run(
    parser: Callable[[], argparse.ArgumentParser],
    work: Callable[[argparse.Namespace], int],
    argv: Sequence[str] | None,
    prog: str,
) -> int:
    """Parse ``argv`` and do the work; bad input becomes exit status 2 and one line on stderr."""
    try:
        options = parser().parse_args(argv)
    except UsageError as error:
        print(f"error: {error} (see {prog} --help)", file=sys.stderr)
        return 2
    try:
        return work(options)
    except (ValueError, OSError) as error:  # InputError is a ValueError; its str() names file and line
        print(f"error: {str(error).splitlines()[0] if str(error) else type(error).__name__}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


class _PrintVersion(argparse.Action):
    """``--version``: the command's name and the package's version, read only when asked (the metadata look-up costs
    milliseconds every other run would pay)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from metrics.core.version import version

        print(f"{self.default} {version()}")
        parser.exit(0)


def add_version_option(parser: argparse.ArgumentParser, command: str) -> None:
    """``--version``: prints ``COMMAND VERSION`` (metrics.__version__, from the installed package) and exits."""
    parser.add_argument("--version", action=_PrintVersion, nargs=0, default=command, help="print the version and exit")


def add_large_run_options(parser: argparse.ArgumentParser, *, runs: str, dask: str, to_parquet: bool = False) -> None:
    """The "large runs" option group: --stream/--no-stream, --block-bytes, --dask (and --to-parquet when asked).
    ``runs`` names what is read ("the run", "each run"); ``dask`` says what --dask does, before its addresses."""
    large = parser.add_argument_group("large runs (see the README's 'Large runs')")
    streaming = large.add_mutually_exclusive_group()
    streaming.add_argument(
        "--stream",
        action="store_true",
        default=None,
        help=f"read {runs} in blocks of whole queries (bounded memory; the default for a run file over 1 GiB)",
    )
    streaming.add_argument("--no-stream", dest="stream", action="store_false", help=f"read {runs} whole")
    large.add_argument("--block-bytes", type=int, metavar="N", help="bytes of run text read at a time when streaming")
    if to_parquet:
        large.add_argument(
            "--to-parquet", metavar="DIR", help="also write the run to DIR as Parquet files partitioned by query"
        )
    large.add_argument(
        "--dask", metavar="ADDRESS", help=f"{dask}: local[:N] (N worker processes here) or tcp://HOST:PORT"
    )


def evaluation_options(arguments: argparse.Namespace) -> EvaluationOptions:
    """The options every evaluation path of a command line shares, from its arguments: -l, -c, --block-bytes, and
    -M, -J, --recall-rounding where the command line has them (a switch it lacks keeps trec_eval's default)."""
    from metrics.core.conventions import Conventions
    from metrics.evaluation.options import EvaluationOptions

    if arguments.block_bytes is not None and arguments.block_bytes < 1:
        raise InputError(
            "option-value", f"--block-bytes must be a positive number of bytes, got {arguments.block_bytes}"
        )
    default = EvaluationOptions()
    rounding = getattr(arguments, "recall_rounding", default.conventions.recall_rounding)
    return EvaluationOptions(
        Conventions(threshold=arguments.level, recall_rounding=rounding),
        complete=arguments.complete,
        max_docs=getattr(arguments, "max_docs", default.max_docs),
        judged_only=getattr(arguments, "judged_only", default.judged_only),
        piece_bytes=arguments.block_bytes or default.piece_bytes,
    )
