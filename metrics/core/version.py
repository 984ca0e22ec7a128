"""The package's version: pyproject.toml is the one place the number is written, read back from the installed
package's metadata on first use (the look-up scans the installed distributions, which ``import metrics`` need not)."""

from __future__ import annotations

from functools import cache


@cache
def version() -> str:
    """``metrics.__version__`` and every command's ``--version``."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("ir-metrics-lab")
    except PackageNotFoundError:  # a source tree that was never installed
        return "unknown"
