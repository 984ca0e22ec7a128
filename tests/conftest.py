"""Hypothesis' settings profile for CI: derandomized (each test draws the same examples on every run), so a red run
is reproducible. .ci/run selects it (--hypothesis-profile=ci); elsewhere each run draws new examples."""

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
