"""``ir-metrics-lab``: start the app from any directory, with Streamlit's own command line (``streamlit run``).

    ir-metrics-lab [STREAMLIT OPTIONS] [--run RUN [RUN ...]] [--qrels QRELS]

``--run`` and ``--qrels`` are the app's options (ir_metrics_lab.core.cli_args: the Evaluate page opens those files,
paths relative to the directory the command was started in); every other argument goes to ``streamlit run``
unchanged, e.g. ``--server.port 8600 --server.headless true``. The settings in the app's .streamlit/config.toml
(installed beside app.py) are in force wherever the command starts: Streamlit >= 1.67 reads the .streamlit/ folder
next to the main script, after ~/.streamlit/ and ./.streamlit/ (so it wins over both); command-line options win over
all of them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ir_metrics_lab.core import cli_args
from ir_metrics_lab.core.paths import APP_SCRIPT

HELP = f"""\
usage: ir-metrics-lab [STREAMLIT OPTIONS] [--run RUN [RUN ...]] [--qrels QRELS]

Start IR Metrics Lab ({APP_SCRIPT}) with streamlit.
  --run RUN [RUN ...]  run files for the Evaluate page (TREC, CSV/TSV, .gz)
  --qrels QRELS        their relevance judgments
Every other option goes to `streamlit run`, e.g. --server.port 8600 --server.headless true
(all of them: `streamlit run --help`).
"""


def streamlit_arguments(argv: Sequence[str]) -> list[str]:
    """The ``streamlit`` command line for ``ir-metrics-lab ARGV``: the app's options go after ``--``.

    >>> streamlit_arguments(["--server.port", "8600", "--run", "a.run"])[2:]
    ['--server.port', '8600', '--', '--run', 'a.run']
    """
    ours, others = cli_args.split(argv)
    return ["run", str(APP_SCRIPT), *others, *(["--", *ours] if ours else [])]


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _, others = cli_args.split(argv)
    if "-h" in others or "--help" in others:
        print(HELP, end="")
        return 0
    typos = cli_args.parse(others).problems  # e.g. --qrel: streamlit would only say "no such option"
    if typos:
        print(f"ir-metrics-lab: {typos[0]}", file=sys.stderr)
        return 2
    from ir_metrics_lab.shell import compressed_static, streamlit_internals  # here: --help and typos answer at once

    compressed_static.install()  # before the server starts, so even the first browser gets Streamlit's files gzipped
    return streamlit_internals.run_command_line(streamlit_arguments(argv))


if __name__ == "__main__":
    sys.exit(main())
