"""The browser tests' helpers (tests/browser/conftest.py: app server start and stop, Chromium launch, idle wait) for
the benchmarks, so that they drive the app exactly as the tests do. Loaded from the file: tests/ is not installed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

CONFTEST = Path(__file__).resolve().parents[1] / "tests" / "browser" / "conftest.py"


def browser_conftest():
    """tests/browser/conftest.py as a module."""
    spec = importlib.util.spec_from_file_location("browser_conftest", CONFTEST)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
