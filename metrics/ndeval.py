"""``python -m metrics.ndeval [options] QRELS RUN``: the ``ir-ndeval`` command (metrics.cli.ir_ndeval), ndeval 4.5's
output byte for byte."""

from metrics.cli.ir_ndeval import cli

if __name__ == "__main__":
    cli()
