"""Fixtures every test file shares, and Hypothesis' settings profiles. For CI: derandomized (each test draws the same
examples on every run), so a red run is reproducible; .ci/run selects it (--hypothesis-profile=ci); elsewhere each run
draws new examples. Neither has a deadline.

At the top level, not in tests/: pytest imports a conftest.py outside a package as the module ``conftest``, the name
tests/browser/conftest.py has, and collecting the doctests of a conftest.py in tests/ then failed with "import file
mismatch"."""

import functools
import os
import shutil
import sys
import tempfile

import pytest
from hypothesis import settings

# No deadline anywhere: Hypothesis fails an example slower than 200 ms by default, and on a 2-core machine shared
# with other jobs a fast example can take longer; speed is measured in bench/, not by the tests.
settings.register_profile("default-no-deadline", deadline=None)
settings.register_profile("ci", derandomize=True, deadline=None)
settings.load_profile("default-no-deadline")


def pytest_configure(config):
    """One folder for what the app caches on disk (ir_metrics_lab.shell.compressed_static.cache_dir), shared by every
    server the run starts (the brotli files one server compressed, the next serves), and not the user's own: made
    by the main process, before its workers start, which inherit it."""
    from ir_metrics_lab.shell.compressed_static import ENV_CACHE_DIR

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        config.app_cache_dir = tempfile.mkdtemp(prefix="ir-metrics-lab-tests-cache-")
        os.environ[ENV_CACHE_DIR] = config.app_cache_dir


def pytest_unconfigure(config):
    if folder := getattr(config, "app_cache_dir", None):
        shutil.rmtree(folder, ignore_errors=True)


# Page scripts that AppTest runs (tests/test_app_task_*.py): each draws a page when imported, so --doctest-modules must
# not import them.
collect_ignore = ["tests/task_judging_page.py", "tests/task_results_page.py"]


# Streamlit's AppTest runs app.py as the ``__main__`` module and leaves it in sys.modules; multiprocessing's spawn (a
# Dask LocalCluster's worker processes) then runs app.py in each child, which fails ("Nanny failed to start worker
# process"). Each test ends with the process's own ``__main__`` back, whichever tests shared its worker.
_MAIN_MODULE = sys.modules["__main__"]


@pytest.fixture(autouse=True)
def _main_module_restored():
    yield
    if sys.modules.get("__main__") is not _MAIN_MODULE:
        sys.modules["__main__"] = _MAIN_MODULE


# Each new AppTest scans every installed distribution's metadata for Streamlit component manifests (streamlit
# 1.67, testing/v1/app_test.py): about 0.8 s a test, most of an AppTest module's time. The installed packages do not
# change during a run, so one scan per test process serves them all.
@pytest.fixture(autouse=True, scope="session")
def _component_manifests_scanned_once():
    from streamlit.components.v2 import manifest_scanner

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            manifest_scanner, "scan_component_manifests", functools.cache(manifest_scanner.scan_component_manifests)
        )
        yield


@pytest.fixture(scope="session")
def postgres_url():
    """A throwaway PostgreSQL cluster (scripts/temporary_postgres.py), one per test process: starting one costs about
    a second, and each store test empties the tables it uses."""
    from ir_metrics_lab.core.classroom import store
    from scripts.temporary_postgres import temporary_postgres

    with temporary_postgres() as url:
        yield url
        store.dispose_engine(url)
