"""Hypothesis' settings profiles. For CI: derandomized (each test draws the same examples on every run), so a red run
is reproducible; .ci/run selects it (--hypothesis-profile=ci); elsewhere each run draws new examples. Neither has a
deadline.

At the top level, not in tests/: pytest imports a conftest.py outside a package as the module ``conftest``, the name
tests/browser/conftest.py has, and collecting the doctests of a conftest.py in tests/ then failed with "import file
mismatch"."""

from hypothesis import settings

# No deadline anywhere: Hypothesis fails an example slower than 200 ms by default, and on a 2-core machine shared
# with other jobs a fast example can take longer; speed is measured in bench/, not by the tests.
settings.register_profile("default-no-deadline", deadline=None)
settings.register_profile("ci", derandomize=True, deadline=None)
settings.load_profile("default-no-deadline")
