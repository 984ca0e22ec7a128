"""The app as a user installs it: ``python -m build`` (sdist, then the wheel from the sdist), the wheel installed into
a fresh virtualenv, ``ir-metrics-lab`` started from an empty directory, and the pages checked in Chromium.

Expected values come from the installed ``ir-metrics`` command on the same files. The settings of
.streamlit/config.toml are read from the repository's file, and checked to be in force although the server starts
where there is no .streamlit/ folder (and with an empty HOME, so no ~/.streamlit/ either).
The build test (no warning from our pyproject.toml) lives here too, so the two share one build.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import ACTION_TIMEOUT_MS, IDLE_TIMEOUT_MS, REPO, App, _app, start_server, stop_server

CONFIG = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text())
INSTALL_TIMEOUT_S = 600
# Files the app needs at run time, as the wheel must hold them (paths inside the wheel).
APP_FILES = [
    "ir_metrics_lab/app/app.py",
    "ir_metrics_lab/app/app_pages/play/playground.py",
    "ir_metrics_lab/app/app_pages/your_data/your_data.py",
    "ir_metrics_lab/app/data/samples/qrels.txt.gz",
    "ir_metrics_lab/app/data/samples/dense.run.gz",
    "ir_metrics_lab/app/data/samples/bm25.run.gz",
    "ir_metrics_lab/app/data/shared_task/documents.jsonl",  # a shared task's sample collection
    "ir_metrics_lab/app/data/shared_task/topics.jsonl",
    "ir_metrics_lab/app/assets/icon.png",
    "ir_metrics_lab/app/.streamlit/config.toml",
    "ir_metrics_lab/parts/components/sortable.js",
    "ir_metrics_lab/parts/components/sortable.css",
    "ir_metrics_lab/shell/components/a11y.js",
    "ir_metrics_lab/classroom/reveal_stream.js",  # a phone's reveal stream
    "ir_metrics_lab/core/classroom/store.py",  # every package of ir_metrics_lab is listed in pyproject.toml
    "metrics/__main__.py",
    "metrics/families/dcg.py",  # every package of metrics/ is listed in pyproject.toml
    "metrics/py.typed",  # PEP 561: a type checker reads the installed library's annotations
]


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, **kwargs)
    if result.returncode != 0:
        output = f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        pytest.fail(f"{' '.join(cmd)} exited with {result.returncode}:\n{output}", pytrace=False)
    return result


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> tuple[str, Path]:
    """``python -m build`` of the repository: its whole output and the wheel."""
    out = tmp_path_factory.mktemp("dist")
    # PYTHONDONTWRITEBYTECODE (set on some machines) makes setuptools warn that it skips byte-compiling: a setting
    # of the environment, not of our configuration.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = _run([sys.executable, "-m", "build", "--installer", "uv", "--outdir", str(out), str(REPO)], env=env)
    (wheel,) = out.glob("ir_metrics_lab-*.whl")
    return result.stdout + result.stderr, wheel


def test_build_prints_no_warning_and_the_wheel_holds_the_app(build):
    output, wheel = build
    warnings = [line for line in output.splitlines() if re.search(r"warn|deprecat|!!", line, re.IGNORECASE)]
    assert warnings == [], "\n".join(warnings)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert [f for f in APP_FILES if f not in names] == []
        # every file of the two packages (pyproject.toml lists their sub-packages by hand: a new one must be added)
        tracked = subprocess.run(
            ["git", "ls-files", "metrics", "ir_metrics_lab"], cwd=REPO, capture_output=True, text=True
        )
        assert [f for f in tracked.stdout.split() if f not in names] == []
        # Two names in a user's site-packages, none as generic as "ui" that another distribution could also install.
        top_level = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
        assert top_level == {"metrics", "ir_metrics_lab"}
        packaged_config = archive.read("ir_metrics_lab/app/.streamlit/config.toml")
    assert packaged_config == (REPO / ".streamlit" / "config.toml").read_bytes()


@pytest.fixture(scope="module")
def venv(build, tmp_path_factory) -> Path:
    """A fresh virtualenv (no system site-packages) with the wheel and its dependencies installed by uv, from its
    cache when the test environment was installed by it (scripts/test.sh): seconds faster than pip. No bytecode is
    compiled at install: the server compiles only the modules it imports."""
    _, wheel = build
    root = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--without-pip", str(root)])
    _run([sys.executable, "-m", "uv", "pip", "install", "-q", "--python", str(root / "bin" / "python"), str(wheel)])
    return root


def _installed(venv: Path, expression: str) -> str:
    """A value computed by the venv's interpreter, run outside the repository (so nothing of the clone is seen)."""
    return _run([str(venv / "bin" / "python"), "-c", f"print({expression})"], cwd=venv).stdout.strip()


def _cli_mean(venv: Path, qrels: str, run: str, measure: str) -> float:
    out = _run([str(venv / "bin" / "ir-metrics"), qrels, run, "-m", measure, "--format", "json"], cwd=venv).stdout
    return json.loads(out)["all"][measure]


@pytest.fixture(scope="module")
def installed_app(venv, tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """``ir-metrics-lab`` started from an empty directory, with bm25 given as ``--run`` (the app's own options) and
    streamlit's own options passed through; yields the base URL and the installed samples folder."""
    samples = Path(_installed(venv, "__import__('ir_metrics_lab.core.paths').core.paths.SAMPLES_DIR"))
    assert samples.is_relative_to(venv)  # the installed copy, not the clone's
    empty, home = tmp_path_factory.mktemp("cwd"), tmp_path_factory.mktemp("home")
    env = {**os.environ, "HOME": str(home)}
    env.pop("PYTHONPATH", None)

    def command(port: int) -> list[str]:
        return [
            str(venv / "bin" / "ir-metrics-lab"),
            "--server.port", str(port),
            "--server.headless", "true",
            "--server.address", "127.0.0.1",
            "--run", str(samples / "bm25.run.gz"),
            "--qrels", str(samples / "qrels.txt.gz"),
            "--server.fileWatcherType", "none",
        ]  # fmt: skip

    log = tmp_path_factory.mktemp("log") / "server.log"
    try:
        proc, base = start_server(log, command=command, cwd=empty, env=env)
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield base, samples
    finally:
        stop_server(proc)
    assert list(empty.iterdir()) == []


def _hex_to_rgb(color: str) -> str:
    r, g, b = (int(color.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgb({r}, {g}, {b})"


def _shown_mean(app: App, measure: str) -> float:
    """The mean in the page's "Means" table (its grid's accessible cells hold the full-precision value)."""
    page = app.page
    summary = page.locator('[data-testid="stDataFrame"]').filter(
        has=page.locator('[role="columnheader"]', has_text="measure")
    )
    name_cell = page.locator('[role="gridcell"]', has_text=re.compile(rf"^{re.escape(measure)}$"))
    row = summary.locator('[role="row"]').filter(has=name_cell)
    expect(row).to_have_count(1)
    return float(row.locator('[role="gridcell"]').nth(1).inner_text())


def _expect_shown_mean(app: App, measure: str, expected: float) -> None:
    """The "Means" table shows ``expected`` for ``measure``. Waits for it: the grid fills its new cells a moment after
    the script's run has ended (up to half a second on a busy machine), so a read at once can see the old file's."""
    deadline = time.monotonic() + IDLE_TIMEOUT_MS / 1000
    shown = _shown_mean(app, measure)
    while shown != pytest.approx(expected, rel=0, abs=1e-12) and time.monotonic() < deadline:
        app.page.wait_for_timeout(100)
        shown = _shown_mean(app, measure)
    assert shown == pytest.approx(expected, rel=0, abs=1e-12)


@pytest.mark.browser
def test_installed_app_runs_from_an_empty_directory(installed_app, venv, browser):
    base, samples = installed_app
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    hosts: set[str] = set()
    context.on("request", lambda request: hosts.add(request.url.split("/")[2]))
    try:
        page = context.new_page()
        page.set_default_timeout(ACTION_TIMEOUT_MS)
        app = _app(page, base)

        app.goto("/")
        expect(page.get_by_role("heading", name="Playground")).to_be_visible()
        expect(app.metric("AP")).to_have_count(1)
        expect(page.locator('[data-testid="stException"]')).to_have_count(0)
        # config.toml's theme is in force: the sidebar has its secondary background colour.
        sidebar = page.locator('[data-testid="stSidebar"]')
        expect(sidebar).to_have_css("background-color", _hex_to_rgb(CONFIG["theme"]["secondaryBackgroundColor"]))

        # The files given with --run/--qrels, then the bundled samples: each mean equals the installed CLI's.
        qrels = str(samples / "qrels.txt.gz")
        bm25 = _cli_mean(venv, qrels, str(samples / "bm25.run.gz"), "NDCG@10")
        dense = _cli_mean(venv, qrels, str(samples / "dense.run.gz"), "NDCG@10")
        assert abs(bm25 - dense) > 0.01  # so each check below tells the two files apart
        app.goto("your-data")
        expect(page.get_by_text("bm25.run.gz: 29,800 lines, 298 queries")).to_be_visible()
        _expect_shown_mean(app, "NDCG@10", bm25)

        page.get_by_text("Sample data", exact=True).click()
        expect(page.get_by_text("dense (stronger)", exact=True)).to_be_checked()
        _expect_shown_mean(app, "NDCG@10", dense)

        # config.toml's upload limit is in force, and no usage statistics are sent: no request leaves the server.
        page.get_by_text("Upload files", exact=True).click()
        app.wait_idle()
        limit = CONFIG["server"]["maxUploadSize"]
        instructions = page.locator('[data-testid="stFileUploaderDropzoneInstructions"]')
        expect(instructions.first).to_have_text(f"{limit}MB per file")
        assert hosts == {base.split("/")[2]}
        assert not app.errors
    finally:
        context.close()
