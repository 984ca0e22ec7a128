"""Settings for the whole test session, made before any test module imports its libraries."""

import os

# ranx (the reference in tests/test_tool_profiles.py and tests/test_leaderboard.py) is numba code: on a fresh venv its
# parallel kernels take about a minute of CPU to compile, for runs of a few queries each. numba runs the same Python
# source uncompiled when told so (NUMBA_DISABLE_JIT; it must be set before numba is imported): the same rules, the same
# numbers, no compile. Set NUMBA_DISABLE_JIT=0 to check against the compiled kernels.
os.environ.setdefault("NUMBA_DISABLE_JIT", "1")
