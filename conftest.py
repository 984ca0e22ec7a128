"""Hypothesis' settings profile for CI: derandomized (each test draws the same examples on every run), so a red run
is reproducible. .ci/run selects it (--hypothesis-profile=ci); elsewhere each run draws new examples.

At the top level, not in tests/: pytest imports a conftest.py outside a package as the module ``conftest``, the name
tests/browser/conftest.py has, and collecting the doctests of a conftest.py in tests/ then failed with "import file
mismatch"."""

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
