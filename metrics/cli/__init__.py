"""The command lines: ``ir-metrics`` (``python -m metrics``), ``ir-metrics-compare`` (``python -m
metrics.leaderboard``), and what they share."""
