"""Browser-test fixtures: one live Streamlit server per session, Debian's Chromium driven by Playwright.

Playwright's own browser download is not used: the tests drive Debian's Chromium headless shell,
/usr/bin/chromium-headless-shell, and the benchmarks Debian's Chromium, /usr/bin/chromium (scripts/test.sh installs
both). The tests never skip: a missing browser is a failure with a message saying how to install it.

The plain functions here (``start_server``, ``stop_server``, ``launch_browser``, ``wait_idle``, ``metric_value``) are
also imported by the benchmarks (``from tests.browser import conftest``: bench/app/ and bench/classroom/), so they
drive the app exactly as the tests do.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
# Chromium's old headless mode as a program of its own (the one Playwright itself runs headless), from the same source
# and version as CHROMIUM: without the full browser around the page, the browser tests' pages take less CPU
# (docs/performance.md, "The test command"). Tests check what the app does; the benchmarks, which time the app as
# people run it, launch CHROMIUM.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
VIEWPORT = {"width": 1440, "height": 1000}
HEALTH_TIMEOUT_S = 60
IDLE_TIMEOUT_MS = 60_000  # a first run imports pandas/plotly; a 3-run leaderboard under load 9 took over 30 s
# A page's actions and expect's assertions: a click or a rerun on a 2-core box shared with other jobs can take many
# seconds (Playwright's own defaults, 30 s for actions and 5 s for expect, failed tests at load averages over 10). A
# passing wait ends as soon as its condition holds, so only a failure waits this long.
ACTION_TIMEOUT_MS = 30_000

# Streamlit's root element carries the script and connection state (Streamlit 1.67 frontend).
APP_IDLE = '[data-testid="stApp"][data-test-connection-state="CONNECTED"][data-test-script-state="notRunning"]'
STATUS_WIDGET = '[data-testid="stStatusWidget"]'
SKELETON = '[data-testid="stSkeleton"]'
FIRST_PAINT_PENDING = '[class*="first_paint"]'  # ir_metrics_lab/shell/first_paint.py's reserved boxes and its watcher
RENDERED_JS = """() => {
  // Only what is shown: charts in closed tabs or expanders are not drawn until opened.
  const all = (sel) => [...document.querySelectorAll(sel)].filter((el) => el.checkVisibility());
  return all('[data-testid="stPlotlyChart"]').every((el) => el.querySelector(".main-svg"))
    && all('[data-testid="stDataFrame"]').every((el) => el.querySelector("canvas"))
    && all('[data-testid="stMarkdownContainer"] .katex, [data-testid="stLatex"]').every((el) => el.textContent);
}"""
CONTENT_HEIGHT_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const sidebar = document.querySelector('[data-testid="stSidebarContent"]');
  return Math.ceil(Math.max(main ? main.scrollHeight : 0, sidebar ? sidebar.scrollHeight : 0, window.innerHeight));
}"""


# --- server -----------------------------------------------------------------------------------------------------


# A phone's context: touch, and a phone browser's User-Agent (ir_metrics_lab.shell.first_paint.Room.here tells a phone
# by it; playwright's is_mobile does not change it).
PHONE = {
    "is_mobile": True,
    "has_touch": True,
    "user_agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/130.0.0.0 Mobile Safari/537.36",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def streamlit_run(port: int) -> list[str]:
    """``streamlit run app.py`` on ``port`` (from the repository root), as the browser tests start the app."""
    return [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.headless", "true",
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip


def launcher(port: int) -> list[str]:
    """``ir-metrics-lab`` on ``port`` (``python -m ir_metrics_lab``), as a teacher starts it for a class
    (docs/how-to/serve-a-class.md)."""
    return [
        sys.executable, "-m", "ir_metrics_lab",
        "--server.headless", "true",
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip


def port_taken(port: int) -> bool:
    """Whether another socket holds ``port`` on 127.0.0.1 now."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return True
        return False


def start_server(
    log_path: Path | None = None,
    command: Callable[[int], list[str]] = streamlit_run,
    cwd: Path = REPO,
    env: dict[str, str] | None = None,
    port: int | None = None,
) -> tuple[subprocess.Popen, str]:
    """Start the app (``command(port)``, by default ``streamlit run app.py`` from the repo root) on ``port`` (a free
    one if none); return the process and its base URL once the server answers its health check.

    A free port is free when chosen, not when the server binds it: between the two, another process on the machine
    (an outgoing connection's local port, another suite's server) can take it. If the server exits while its port is
    held by someone else, another free port is chosen."""
    for _ in range(3 if port is None else 1):
        chosen = port or free_port()
        try:
            return _start_server(chosen, log_path, command, cwd, env)
        except _PortTaken:
            continue
    raise RuntimeError(f"streamlit could not bind {f'port {port}' if port else 'a free port'}: another process held it")


class _PortTaken(Exception):
    pass


def _start_server(port, log_path, command, cwd, env) -> tuple[subprocess.Popen, str]:
    cmd = command(port)
    log = open(log_path, "w") if log_path else subprocess.DEVNULL  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    if log_path:
        log.close()  # the child keeps its own handle
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + HEALTH_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            if port_taken(port):
                raise _PortTaken(port)
            tail = log_path.read_text()[-3000:] if log_path else ""
            raise RuntimeError(f"streamlit exited with code {proc.returncode} before it was healthy:\n{tail}")
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
            if r.status == 200:
                return proc, base
        time.sleep(0.2)
    stop_server(proc)
    raise RuntimeError(f"streamlit did not answer {base}/_stcore/health within {HEALTH_TIMEOUT_S} s")


def stop_server(proc: subprocess.Popen) -> None:
    """Terminate the server and everything it started (it runs in its own process group)."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


# --- browser ----------------------------------------------------------------------------------------------------


DEBIAN_PACKAGES = {CHROMIUM: "chromium", HEADLESS_SHELL: "chromium-headless-shell"}


def require_chromium(executable: str = CHROMIUM) -> None:
    if not os.access(executable, os.X_OK):
        package = DEBIAN_PACKAGES[executable]
        pytest.fail(
            f"{executable} is missing: the browser tests need Debian's {package} "
            f"(`apt-get install {package}`, which scripts/test.sh does). "
            "Playwright's own browser download is not used.",
            pytrace=False,
        )


def launch_browser(playwright, js_flags: str = "", executable: str = CHROMIUM, extra_args: Sequence[str] = ()):
    args = [*CHROMIUM_ARGS, *([f"--js-flags={js_flags}"] if js_flags else []), *extra_args]
    return playwright.chromium.launch(executable_path=executable, headless=True, args=args)


# --- page helpers -----------------------------------------------------------------------------------------------


# What wait_idle waits for, checked in the page at one moment (open shadow roots included, as Playwright's locators
# see them): one idle, connected app; no "Running..." status widget; no placeholder skeleton (after a page's first run
# the frontend can show them for seconds while it mounts the elements); no box a new session's first run left for its
# second run (ir_metrics_lab/shell/first_paint.py). Polled in the page every IDLE_POLL_MS: Playwright's expect backs
# off to a poll every 500 ms, which left a test's chain of processes idle for a quarter of a second per wait.
IDLE_STATE_JS = """() => {
  const roots = [document];
  for (const root of roots) for (const el of root.querySelectorAll("*")) if (el.shadowRoot) roots.push(el.shadowRoot);
  const count = (selector) => roots.reduce((n, root) => n + root.querySelectorAll(selector).length, 0);
  return { idleApp: count(__APP_IDLE__), statusWidget: count(__STATUS__), skeleton: count(__SKELETON__),
           firstPaintPending: count(__PENDING__) };
}"""
for _name, _selector in {"__APP_IDLE__": APP_IDLE, "__STATUS__": STATUS_WIDGET, "__SKELETON__": SKELETON,
                         "__PENDING__": FIRST_PAINT_PENDING}.items():  # fmt: skip
    IDLE_STATE_JS = IDLE_STATE_JS.replace(_name, json.dumps(_selector))
IDLE_JS = f"""() => {{
  const s = ({IDLE_STATE_JS})();
  return s.idleApp === 1 && s.statusWidget === 0 && s.skeleton === 0 && s.firstPaintPending === 0;
}}"""
IDLE_POLL_MS = 50


def wait_idle(page, timeout_ms: int = IDLE_TIMEOUT_MS) -> None:
    """Wait until the script has finished its run (a new session's second run included, first_paint.py), the
    "Running..." status widget is gone and nothing is still a placeholder skeleton."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(IDLE_JS, polling=IDLE_POLL_MS, timeout=timeout_ms)
    except PlaywrightTimeout:
        state = page.evaluate(IDLE_STATE_JS)
        raise AssertionError(f"the app was not idle within {timeout_ms} ms: {state} ({page.url})") from None


UPLOADER = '[data-testid="stFileUploader"]'
FILE_CHIP = '[data-testid="stFileChip"]'  # one per file an uploader holds


def upload(app, label: str, *files) -> None:
    """Give the uploader labelled ``label`` these files (paths, or Playwright's name/mimeType/buffer dicts) and wait
    for the run they cause to end. The uploader lists the files while they are still being sent, before that run
    begins, so the wait is for the end of a run the server began after the files were handed over
    (``App.run_caused``): a next upload then meets a settled page, not one a run is about to redraw (CI saw the second
    of two quick uploads lost under load). Not the page's script state: a quick run's "running" can be batched away
    before the page draws it."""
    from playwright.sync_api import expect

    box = app.page.locator(UPLOADER).filter(has=app.page.get_by_text(label, exact=True))
    expect(box).to_be_visible(timeout=IDLE_TIMEOUT_MS)  # drawn by the last run: wait_idle then waits for its end
    app.wait_idle()
    try:
        with app.run_caused(f"the upload to {label!r}"):
            box.locator('input[type="file"]').set_input_files(list(files))
            expect(box.locator(FILE_CHIP)).to_have_count(len(files), timeout=IDLE_TIMEOUT_MS)
    except AssertionError:
        app.screenshot(f"upload-lost-{label.lower().replace(' ', '-')}")  # what CI saw, for a person to look at
        raise


def download(page, button):
    """Click a download ``button`` (a locator) and return the Download. Waits for the app to be idle and the button
    enabled first: a click during a rerun can land on a button that is being replaced, and be lost. A run can still
    begin between that wait and the click (a component reporting its first value): with no download after half the
    idle timeout (a loaded machine took over 15 s to start one), the button is clicked once more, as a person would."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    def click(timeout_ms: int):
        wait_idle(page)
        expect(button).to_be_enabled(timeout=IDLE_TIMEOUT_MS)
        with page.expect_download(timeout=timeout_ms) as info:
            button.click()
        return info.value

    try:
        return click(IDLE_TIMEOUT_MS // 2)
    except PlaywrightTimeout:
        return click(IDLE_TIMEOUT_MS)


def in_first_screen(locator, viewport_height: int = 1080) -> bool:
    """Whether the element is wholly on the first screen (a projector's 1080 px unless told), without scrolling."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport_height


def metric_locator(page, label: str):
    """The st.metric whose label is exactly ``label``."""
    exact = re.compile(rf"^\s*{re.escape(label)}\s*$")
    label_el = page.locator('[data-testid="stMetricLabel"]').filter(has_text=exact)
    return page.locator('[data-testid="stMetric"]').filter(has=label_el)


def metric_value(page, label: str) -> str:
    """The displayed value of the st.metric labelled ``label`` (exactly one must exist)."""
    return metric_locator(page, label).locator('[data-testid="stMetricValue"]').inner_text(timeout=10_000).strip()


class App:
    """A page on the live app plus the helpers the tests share."""

    def __init__(self, page, base_url: str, errors: list[str], dialogs: list[str], runs: list[str]):
        self.page = page
        self.base_url = base_url
        self.errors = errors  # uncaught page errors (JS exceptions)
        self.dialogs = dialogs  # alert/confirm/prompt messages (each is dismissed)
        self.runs = runs  # the server's script runs for this page, in order: RUN_STARTED, then how each ended

    @contextlib.contextmanager
    def run_caused(self, by: str, timeout_ms: int = IDLE_TIMEOUT_MS) -> Iterator[None]:
        """After the block, wait for the end of a script run the server began after the block began, then for the
        page to be idle: the next action meets a settled page. A run already under way when the block began (the
        last click's, say) does not count: it can end before the block's own run begins, and a second upload or a
        reload made then was lost (seen in CI). The page's events are handled while it waits. ``by`` names the
        action, for the failure message."""
        began = len(self.runs)
        yield
        deadline = time.monotonic() + timeout_ms / 1000
        while not self._a_run_ended_since(began):
            assert time.monotonic() < deadline, f"no script run began and ended after {by}"
            self.page.wait_for_timeout(50)
        self.wait_idle(timeout_ms)

    def enter(self, box, text: str, timeout_ms: int = IDLE_TIMEOUT_MS) -> None:
        """Type ``text`` into the text box ``box`` (a locator) and commit it with Enter, then wait for the run the
        commit causes (``run_caused``): the next action meets a settled page."""
        box.fill(text)
        with self.run_caused(f"entering {text!r}", timeout_ms):
            box.press("Enter")

    def _a_run_ended_since(self, began: int) -> bool:
        since = self.runs[began:]
        return RUN_STARTED in since and since[-1] not in (RUN_STARTED, "FINISHED_EARLY_FOR_RERUN")

    def goto(self, path: str = "/") -> None:
        self.page.goto(self.base_url + ("/" + path.lstrip("/") if path else "/"))
        self.wait_idle()

    def wait_idle(self, timeout_ms: int = IDLE_TIMEOUT_MS) -> None:
        wait_idle(self.page, timeout_ms)

    def metric(self, label: str):
        return metric_locator(self.page, label)

    def metric_value(self, label: str) -> str:
        return metric_value(self.page, label)

    def wait_rendered(self, timeout_ms: int = IDLE_TIMEOUT_MS) -> None:
        """Idle, and the lazily mounted elements drawn: Plotly SVGs, dataframe canvases and KaTeX."""
        self.wait_idle(timeout_ms)
        self.page.wait_for_function(RENDERED_JS, timeout=timeout_ms)

    def screenshot(self, name: str) -> Path:
        """A screenshot of the whole page into tests/artifacts/<name>.png.

        Streamlit scrolls inside its main element, so Playwright's full_page only sees the viewport: the viewport is
        made as tall as the content for the shot, then restored."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        size = self.page.viewport_size or VIEWPORT
        height = self.page.evaluate(CONTENT_HEIGHT_JS)
        try:
            if height > size["height"]:
                self.page.set_viewport_size({"width": size["width"], "height": min(height, 12_000)})
                self.wait_rendered()
            self.page.screenshot(path=str(path), full_page=True)
        finally:
            self.page.set_viewport_size(size)
        return path


# --- fixtures ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def app_server() -> Iterator[str]:
    """Base URL of a live ``streamlit run app.py`` (started once per session, killed at the end)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        proc, base = start_server(ARTIFACTS / "streamlit-server.log")
    except RuntimeError as e:
        pytest.fail(str(e), pytrace=False)
    try:
        yield base
    finally:
        stop_server(proc)


# V8's optimizing compilers (Maglev, TurboFan) compile hot functions on background threads: for pages that live a few
# seconds that CPU is mostly spent for nothing (docs/performance.md, "The test command"). Tests check what the app
# does, not how fast, so only the tests' browser goes without them; the benchmarks, which time the app as people run
# it, launch Chromium with V8's defaults.
TEST_JS_FLAGS = "--no-opt --no-maglev"
# One renderer process for a context's tabs of the app (Chromium gives each new tab its own by default): a new tab
# opened while another is open reuses that process and the frontend code it has compiled, so tests that open tab
# after tab keep one open (docs/performance.md, "The test command"). Like the flags above, for the tests' browser
# only; each tab is still a new Streamlit session with its own first run.
TEST_BROWSER_ARGS = ["--process-per-site"]


def close_other_tabs(page) -> None:
    """Close every tab of ``page``'s context but ``page``: a test's tab, left open for the next test's to share its
    renderer (``TEST_BROWSER_ARGS``), and closed when that one is done."""
    for other in page.context.pages:
        if other is not page:
            other.close()


@pytest.fixture(scope="session")
def browser() -> Iterator:
    require_chromium(HEADLESS_SHELL)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=ACTION_TIMEOUT_MS)

    with sync_playwright() as p:
        b = launch_browser(p, js_flags=TEST_JS_FLAGS, executable=HEADLESS_SHELL, extra_args=TEST_BROWSER_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser) -> Iterator:
    """A page in a fresh browser context (no cookies, no HTTP cache)."""
    context = browser.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    pg.set_default_timeout(ACTION_TIMEOUT_MS)
    try:
        yield pg
    finally:
        context.close()


@pytest.fixture(scope="session")
def warm_context(browser, app_server) -> Iterator:
    """One browser context for the session: its HTTP cache keeps the frontend bundles between tests.

    It opens the app once first, which fills the cache, and keeps that tab open: the tests' new tabs share its
    renderer process and the code compiled there (``TEST_BROWSER_ARGS``)."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        first = context.new_page()
        first.goto(app_server + "/")
        wait_idle(first)
        yield context
    finally:
        context.close()


@pytest.fixture
def warm_page(warm_context) -> Iterator:
    """A new tab in the shared context: a new Streamlit session (fresh session_state), loaded from a warm cache."""
    pg = warm_context.new_page()
    pg.set_default_timeout(ACTION_TIMEOUT_MS)
    try:
        yield pg
    finally:
        pg.close()


@pytest.fixture(scope="module")
def shared_app(warm_context, app_server) -> Iterator[App]:
    """One tab (one Streamlit session) for a whole test module, for tests that put the state back themselves: a new
    session costs a frontend boot and a first run (seconds on a busy 2-core box), a rerun a fraction of that."""
    page = warm_context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT_MS)
    app = _app(page, app_server)
    app.goto("/")
    try:
        yield app
    finally:
        page.close()


@pytest.fixture
def app(page, app_server) -> App:
    """The live app in a fresh context."""
    return _app(page, app_server)


@pytest.fixture
def warm_app(warm_page, app_server) -> App:
    """The live app in a new tab of the shared context: a fresh session, but cached static files."""
    return _app(warm_page, app_server)


@pytest.fixture
def another_browser(browser, app_server) -> Iterator:
    """A factory for more users: each call opens the app's page in its own new browser context (no shared session,
    cookies or storage), closed at teardown."""
    contexts = []

    def open_app() -> App:
        context = browser.new_context(viewport=VIEWPORT)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(ACTION_TIMEOUT_MS)
        return _app(page, app_server)

    try:
        yield open_app
    finally:
        for context in contexts:
            context.close()


# What a failed test's page showed, for a red CI run whose only record is its text: the app's state, the messages on
# screen and the address; the screenshot goes to tests/artifacts/failed-<test>.png for a local run.
FAILURE_STATE_JS = f"""() => ({{
  state: ({IDLE_STATE_JS})(),
  messages: [...document.querySelectorAll(
    '[data-testid="stAlert"], [data-testid="stException"], [data-testid="stToast"]')]
    .map((el) => el.innerText.trim()).filter(Boolean),
}})"""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and call.when == "call":
        app = next((v for v in getattr(item, "funcargs", {}).values() if isinstance(v, App)), None)
        if app is not None:
            with contextlib.suppress(Exception):  # a closed or crashed page has nothing to tell
                shown = app.page.evaluate(FAILURE_STATE_JS)
                name = re.sub(r"[^\w.-]+", "_", item.name)[:120]
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                app.page.screenshot(path=str(ARTIFACTS / f"failed-{name}.png"))
                report.sections.append(
                    ("page at failure", f"{app.page.url}\n{json.dumps(shown, indent=1, ensure_ascii=False)}")
                )
    return report


def assert_healthy(app: App) -> None:
    """The page drew its title, with no exception, no "Page not found" and no uncaught error in the page."""
    from playwright.sync_api import expect

    page = app.page
    exceptions = page.locator('[data-testid="stException"]')
    assert exceptions.count() == 0, f"the page shows an exception: {exceptions.all_inner_texts()}"
    expect(page.get_by_text("Page not found")).to_have_count(0)
    expect(page.locator("h1").first).to_be_visible()
    assert app.errors == [], f"uncaught errors in the page: {app.errors}"


RUN_STARTED = "RUN_STARTED"


def run_event(payload: str | bytes) -> str | None:
    """``RUN_STARTED`` if this websocket frame from the server begins a script run (Streamlit's new_session message,
    sent for every run, a fragment's too), how the run ended if it is the end-of-run message, else None."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    if not isinstance(payload, bytes):
        return None
    message = ForwardMsg.FromString(payload)
    kind = message.WhichOneof("type")
    if kind == "new_session":
        return RUN_STARTED
    if kind == "script_finished":
        return ForwardMsg.ScriptFinishedStatus.Name(message.script_finished)
    return None


def _app(page, base_url: str) -> App:
    """``page`` as an App; call it before the page opens the app, so that its websocket is watched."""
    errors: list[str] = []
    dialogs: list[str] = []
    runs: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def _dialog(d) -> None:
        dialogs.append(d.message)
        d.dismiss()

    def _frame(payload) -> None:
        if event := run_event(payload):
            runs.append(event)

    page.on("dialog", _dialog)
    page.on("websocket", lambda socket: socket.on("framereceived", _frame))
    return App(page, base_url, errors, dialogs, runs)
