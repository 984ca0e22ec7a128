"""``python -m metrics QRELS RUN``: the ``ir-metrics`` command (metrics.cli.ir_metrics)."""

from metrics.cli.ir_metrics import cli

if __name__ == "__main__":
    cli()
