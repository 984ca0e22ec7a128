"""What the command lines share: a parser that reports a usage error in one line, and the exit-status rule (0, or
2 with one line on stderr for bad input, 130 on Ctrl-C)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence


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
