"""A shared task in a real Chromium (issue #48): a student on a 390x844 phone joins a team and builds a run by hand
with the keyboard alone (Tab, type, Enter: search, add two documents, move the second up, submit), and the run
stored is the ranking put together; the teacher's page with a running task, and the phone's, pass the accessibility
audit at 1440x900, 390x844 and in presenter mode (1920x1080, text at 7:1). Its own server, with the store in a
temporary folder; the task is created in that store directly (the teacher's page is tested in
tests/test_app_shared_task.py). And a projector running a task whose server is SIGKILLed and started again is back
on its task, with its controls, without a tap (its task cookie)."""

from __future__ import annotations

import os
import re
import signal
import tempfile
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from ir_metrics_lab.core.classroom.store import Store, default_sqlite_url, dispose_engine
from ir_metrics_lab.core.classroom.task_store import CreatedTask, TaskStore
from ir_metrics_lab.core.shared_task import collection
from tests.browser.axe_audit import assert_accessible
from tests.browser.conftest import ARTIFACTS, App, _app, start_server, stop_server
from tests.browser.conftest import PHONE as PHONE_CONTEXT
from tests.browser.keyboard import press, reset, tab_to

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1440, "height": 900}
WAIT_MS = 60_000  # a loaded 2-core box can take seconds per rerun


@pytest.fixture(scope="module")
def task_server() -> Iterator[tuple[str, TaskStore]]:
    """The app's server on a store of its own, and that store (to create the task and read what arrived)."""
    with tempfile.TemporaryDirectory(prefix="irml-task-") as folder:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "IR_METRICS_LAB_DATA_DIR": folder}
        proc, base = start_server(ARTIFACTS / "shared-task-server.log", env=env)
        store = Store(default_sqlite_url(folder))
        try:
            yield base, TaskStore(store)
        finally:
            stop_server(proc)
            dispose_engine(store.url)


def new_task(store: TaskStore) -> CreatedTask:
    documents, topics = collection.sample()
    return store.create_task("Cycling in the city", topics, documents, depth=10, per_item=2)


def open_app(browser, base: str, path: str, viewport: dict, *, phone: bool = False) -> App:
    context = browser.new_context(viewport=viewport, **(PHONE_CONTEXT if phone else {}))
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    app = _app(page, base)
    page.goto(base + path, wait_until="domcontentloaded", timeout=WAIT_MS * 2)
    app.wait_idle(WAIT_MS)
    return app


def enter_on(app: App, wanted) -> str:
    """Tab from the top to the first stop ``wanted`` accepts, press Enter there, wait for the rerun; its label."""
    reset(app.page)
    stop, _ = tab_to(app.page, wanted)
    press(app.page, "Enter")
    app.wait_idle(WAIT_MS)
    return stop.label


def test_a_run_built_by_hand_on_a_phone_with_the_keyboard_alone(browser, task_server):
    base, store = task_server
    code = new_task(store).task.code
    app = open_app(browser, base, f"/task?code={code}", PHONE, phone=True)
    try:
        reset(app.page)
        tab_to(app.page, lambda s: s.name == "Team name (for a team)")
        app.page.keyboard.type("Red")
        press(app.page, "Enter")  # submits the join form
        expect(app.page.get_by_text("You are in team Red.")).to_be_visible(timeout=WAIT_MS)
        app.wait_idle(WAIT_MS)
        reset(app.page)
        tab_to(app.page, lambda s: s.name == "Run name")
        app.page.keyboard.type("by hand")
        tab_to(app.page, lambda s: s.name == "Search the collection")  # leaving the box keeps the name
        app.page.keyboard.type("winter tyres")
        press(app.page, "Enter")  # submits the search form
        app.wait_idle(WAIT_MS)
        first = enter_on(app, lambda s: s.label.startswith("Add ")).removeprefix("Add ")
        expect(app.page.get_by_text(f"{first} added at rank 1.")).to_be_visible(timeout=WAIT_MS)
        second = enter_on(app, lambda s: s.label.startswith("Add ")).removeprefix("Add ")  # the first is disabled
        assert second != first
        enter_on(app, lambda s: s.label == "Move 2 up")
        expect(app.page.get_by_text(f"{second} moved to rank 1.")).to_be_visible(timeout=WAIT_MS)
        assert_accessible(app.page, "a run built by hand (390x844)")
        app.screenshot("shared-task-phone-by-hand")
        enter_on(app, lambda s: s.label == "Submit the run")
        expect(app.page.get_by_text("Run by hand received (1 topic).", exact=False)).to_be_visible(timeout=WAIT_MS)
        assert store.snapshot(code).runs["by hand"].rankings == {"t1": (second, first)}
        assert app.errors == []
    finally:
        app.page.context.close()


@pytest.mark.parametrize(
    ("view", "viewport", "query"),
    [("wide", {"width": 1440, "height": 900}, ""), ("presenter", {"width": 1920, "height": 1080}, "&presenter=1")],
)
def test_the_teachers_page_with_a_task_running_is_accessible(browser, task_server, view, viewport, query):
    base, store = task_server
    created = new_task(store)
    link = f"/shared-task?task={created.task.code}&teacher={created.teacher_token}{query}"
    app = open_app(browser, base, link, viewport)
    try:
        expect(app.page.get_by_role("button", name=re.compile("Close submissions"))).to_be_visible(timeout=WAIT_MS)
        assert created.teacher_token not in app.page.url  # the token leaves the address bar
        app.page.get_by_text("Your teacher link (keep it private)").click()
        app.wait_idle(WAIT_MS)
        assert_accessible(app.page, f"the teacher's shared task ({view})", enhanced_contrast=view == "presenter")
        app.screenshot(f"shared-task-teacher-{view}")
        assert app.errors == []
    finally:
        app.page.context.close()


def test_a_killed_server_comes_back_to_the_teachers_task_without_a_tap(browser, tmp_path):
    """The teacher opens the task by its link; the server is SIGKILLed and started again on the same port and data
    folder. With no reload, the page runs again on the new process (a run submitted after the restart is counted:
    the old page could not know it) and still has the teacher's controls, which work."""
    env = {**os.environ, "IR_METRICS_LAB_DATA_DIR": str(tmp_path)}
    log = ARTIFACTS / "shared-task-restart-server.log"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    proc, base = start_server(log, env=env)
    store = Store(default_sqlite_url(tmp_path))
    app = None
    try:
        created = new_task(TaskStore(store))
        code = created.task.code
        app = open_app(browser, base, f"/shared-task?task={code}&teacher={created.teacher_token}", LAPTOP)
        expect(app.page.get_by_role("button", name=re.compile("Close submissions"))).to_be_visible(timeout=WAIT_MS)
        os.killpg(proc.pid, signal.SIGKILL)  # no shutdown: only what was committed survives
        proc.wait(timeout=10)
        proc, restarted = start_server(log.with_suffix(".restarted.log"), env=env, port=int(base.rsplit(":", 1)[1]))
        assert restarted == base
        tasks = TaskStore(store)
        tasks.join(code, "student-after-restart", "Red")
        tasks.submit_run(code, "student-after-restart", "r1", "t1 Q0 d001 1 1.0 r1\n")
        expect(app.page.locator('[data-testid="stMetricValue"]').nth(2)).to_have_text("1", timeout=WAIT_MS * 2)
        app.wait_idle(WAIT_MS)
        assert created.teacher_token not in app.page.url
        app.page.get_by_role("button", name=re.compile("Close submissions")).click()
        expect(app.page.get_by_text("Submissions closed: 1 pooled document dealt to 1 judge.")).to_be_visible(
            timeout=WAIT_MS
        )
        assert tasks.task(code).state == "judging"
    finally:
        if app is not None:
            app.page.context.close()
        stop_server(proc)
        dispose_engine(store.url)
