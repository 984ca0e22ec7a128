"""The app's own command-line arguments: ``ir-metrics-lab --run PATH --qrels PATH`` (the installed command, which
hands everything else to streamlit), or after ``--`` in a clone: ``streamlit run app.py -- --run PATH --qrels PATH``.

Streamlit hands the script ``sys.argv = [script, *arguments after --]``. Pure: no file is touched here (the page
checks the files when it loads them), and nothing exits: a bad argument becomes a problem the page shows.
Arguments that are not ours are ignored, since under pytest (AppTest) sys.argv holds pytest's own arguments; an
unknown option that looks like a misspelling of ours is reported.
"""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Sequence
from dataclasses import dataclass

OPTIONS = ("--run", "--qrels")
USAGE = "ir-metrics-lab --run RUN [RUN ...] --qrels QRELS, or in a clone: streamlit run app.py -- --run ... --qrels ..."


@dataclass(frozen=True)
class CliFiles:
    """Paths given on the command line, as typed (relative to the directory streamlit was started in)."""

    runs: tuple[str, ...] = ()
    qrels: str | None = None
    problems: tuple[str, ...] = ()

    @property
    def given(self) -> bool:
        return bool(self.runs or self.qrels)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse would print usage and exit the server
        raise ValueError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="streamlit run app.py --", add_help=False, allow_abbrev=False)
    parser.add_argument("--run", action="extend", nargs="+", default=[], metavar="RUN")
    parser.add_argument("--qrels", action="append", default=[], metavar="QRELS")
    return parser


def split(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """Separate the app's options from everything else, each in its given order: ``(app's, others)``. The
    ``ir-metrics-lab`` command passes the others to streamlit. ``--run`` takes the paths that follow it, ``--qrels``
    one path (as the parser below reads them); everything after ``--`` is the app's.

    >>> split(["--server.port", "8600", "--run", "a.run", "b.run", "--qrels=q.txt", "--server.headless", "true"])
    (['--run', 'a.run', 'b.run', '--qrels=q.txt'], ['--server.port', '8600', '--server.headless', 'true'])
    """
    ours: list[str] = []
    others: list[str] = []
    wanted = 0  # paths the last option of ours still takes: -1 any number (--run), 1 one (--qrels), 0 none
    for position, arg in enumerate(argv):
        if arg == "--":
            return ours + list(argv[position + 1 :]), others
        if wanted and not arg.startswith("-"):
            ours.append(arg)
            wanted -= 1
        elif arg.split("=", 1)[0] in OPTIONS:
            ours.append(arg)
            wanted = 0 if "=" in arg else -1 if arg == "--run" else 1
        else:
            others.append(arg)
            wanted = 0
    return ours, others


def parse(argv: Sequence[str]) -> CliFiles:
    """Read ``--run`` (one or more paths; may repeat) and ``--qrels`` (one path) from the arguments after ``--``.

    >>> parse(["--run", "a.run", "b.run", "--qrels", "q.txt"])
    CliFiles(runs=('a.run', 'b.run'), qrels='q.txt', problems=())
    >>> parse(["--qrel", "q.txt"]).problems
    ("unknown option '--qrel' (did you mean --qrels?)",)
    """
    problems: list[str] = []
    try:
        options, unknown = _parser().parse_known_args(list(argv))
    except ValueError as error:
        return CliFiles(problems=(f"{error} (usage: {USAGE})",))
    for arg in unknown:
        if arg.startswith("--"):
            option = arg.split("=", 1)[0]
            close = difflib.get_close_matches(option, OPTIONS, n=1, cutoff=0.75)
            if close:
                problems.append(f"unknown option {option!r} (did you mean {close[0]}?)")
    runs = tuple(dict.fromkeys(path for path in options.run if path.strip()))  # a path given twice counts once
    qrels_paths = [path for path in options.qrels if path.strip()]
    if len(qrels_paths) > 1:
        problems.append(f"--qrels was given {len(qrels_paths)} times; using the last one ({qrels_paths[-1]})")
    if any(not path.strip() for path in [*options.run, *options.qrels]):
        problems.append("an empty path was ignored")
    return CliFiles(runs, qrels_paths[-1] if qrels_paths else None, tuple(problems))
