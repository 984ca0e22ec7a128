"""The command lines: ``ir-metrics`` (``python -m metrics``), ``ir-metrics-compare``, ``ir-metrics-explain``, and
what they share."""
