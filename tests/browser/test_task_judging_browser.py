"""The shared task's judging in a browser (issue #48), served by a server of its own that runs
tests/task_judging_app.py (the two views in app.py's frame, until the task's pages are in app.py): a phone at 390x844
judges by keyboard alone, a double tap on Send counts once, the teacher closing judging reaches the phone without a
tap; the projector's board (1920x1080 presenter mode, 1440x900) shows a judgment as it arrives and settles with one
tap. axe-clean in each view (7:1 text in presenter mode)."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from ir_metrics_lab.core.classroom.store import Store, default_sqlite_url, dispose_engine
from ir_metrics_lab.core.classroom.task_store import TaskStore
from tests.browser.axe_audit import assert_accessible
from tests.browser.conftest import ARTIFACTS, PHONE, App, _app, start_server, stop_server, streamlit_run
from tests.browser.keyboard import press, reset, tab_to
from tests.test_app_task_judging import DOCS, RUNS, TOPICS

WAIT_MS = 30_000  # a loaded 2-core box can take seconds per rerun
PHONE_VIEW = {"width": 390, "height": 844}


def _command(port: int) -> list[str]:
    return [part if part != "app.py" else "tests/task_judging_app.py" for part in streamlit_run(port)]


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, TaskStore]]:
    with tempfile.TemporaryDirectory(prefix="irml-judging-") as folder:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "IR_METRICS_LAB_DATA_DIR": folder}
        proc, base = start_server(ARTIFACTS / "task-judging-server.log", command=_command, env=env)
        url = default_sqlite_url(folder)
        try:
            yield base, TaskStore(Store(url))
        finally:
            stop_server(proc)
            dispose_engine(url)


def _task(tasks: TaskStore) -> tuple[str, str, dict]:
    created = tasks.create_task("Cycling", TOPICS, DOCS, depth=2, per_item=2)
    code, token = created.task.code, created.teacher_token
    for student, team in (("ann", "red"), ("bo", "blue"), ("cy", "green"), ("jo", None)):
        tasks.join(code, student, team)
    for (name, body), student in zip(RUNS.items(), ("ann", "bo", "cy"), strict=True):
        tasks.submit_run(code, student, name, body, f"{name}.run")
    return code, token, tasks.close_submissions(code, token)


def _open(browser, base: str, path: str, viewport: dict, *, phone: bool = False) -> App:
    options = {**PHONE, "device_scale_factor": 2} if phone else {}
    page = browser.new_context(viewport=viewport, **options).new_page()
    page.set_default_timeout(60_000)
    app = _app(page, base)
    page.goto(base + path, wait_until="domcontentloaded", timeout=WAIT_MS * 4)
    app.wait_idle(WAIT_MS * 2)
    return app


def _checked_grade(app: App) -> str | None:
    return app.page.evaluate(
        """() => { const r = document.querySelector('[role="radiogroup"] input[type="radio"]:checked');
                   return r ? r.closest("label").innerText.trim() : null; }"""
    )


def test_a_phone_judges_by_keyboard_and_sees_judging_close(browser, served):
    base, tasks = served
    code, token, drawn = _task(tasks)
    mine = sorted(item for item, judges in drawn.items() if "ann" in judges)
    phone = _open(browser, base, f"/?view=phone&code={code}&student=ann", PHONE_VIEW, phone=True)
    try:
        expect(phone.page.get_by_text(f"0 of {len(mine)} judged")).to_be_visible()
        assert_accessible(phone.page, "judging on a phone, first document")
        reset(phone.page)
        tab_to(phone.page, lambda s: s.tag == "INPUT" and "not relevant" in _focused_label(phone))
        press(phone.page, "ArrowDown")
        press(phone.page, "ArrowDown")
        assert _checked_grade(phone).startswith("2 · relevant")
        stop, _ = tab_to(phone.page, lambda s: s.label == "Send grade", limit=5)
        assert stop.previous_changed is not False
        press(phone.page, "Enter")
        expect(phone.page.get_by_text(f"1 of {len(mine)} judged")).to_be_visible(timeout=WAIT_MS)
        assert tasks.snapshot(code).grades == {mine[0]: (2,)}
        phone.page.wait_for_function("() => document.activeElement && document.activeElement.tagName === 'H2'")
        assert_accessible(phone.page, "judging on a phone, after a grade")

        # a double tap on Send: one judgment, the next document untouched
        phone.page.get_by_text("3 · highly relevant").click()
        phone.page.get_by_role("button", name="Send grade").dblclick()
        expect(phone.page.get_by_text(f"2 of {len(mine)} judged")).to_be_visible(timeout=WAIT_MS)
        phone.wait_idle(WAIT_MS)
        grades = tasks.snapshot(code).grades
        assert {item: grades[item] for item in mine if item in grades} == {mine[0]: (2,), mine[1]: (3,)}
        assert tasks.my_items(code, "ann")[0] == mine[2]

        tasks.close(code, token)  # the phone sees it without a tap
        expect(phone.page.get_by_text("The teacher has closed judging")).to_be_visible(timeout=WAIT_MS)
        assert phone.errors == []
    finally:
        phone.page.context.close()


def _focused_label(app: App) -> str:
    return app.page.evaluate("() => { const l = document.activeElement.closest('label'); return l ? l.innerText : '' }")


def test_the_board_shows_judgments_as_they_arrive_and_the_teacher_settles(browser, served):
    base, tasks = served
    code, token, drawn = _task(tasks)
    t1 = sorted(item for item in drawn if item[0] == "t1")
    projector = _open(browser, base, f"/?view=board&presenter=1&code={code}&teacher={token}", {"width": 1920,
                      "height": 1080})  # fmt: skip
    try:
        judged = projector.page.get_by_text("0 / 7", exact=True)
        expect(judged).to_be_visible()
        first, second = drawn[t1[0]]
        tasks.judge(code, first, *t1[0], 3)
        sent = time.monotonic()
        expect(projector.page.get_by_text("1 / 7", exact=True)).to_be_visible(timeout=WAIT_MS)
        print(f"a judgment reached the projector in {time.monotonic() - sent:.2f} s")  # the 2 s promise, watched
        tasks.judge(code, second, *t1[0], 1)  # a disagreement
        expect(projector.page.get_by_text("Disagreements (1)")).to_be_visible(timeout=WAIT_MS)
        projector.wait_idle(WAIT_MS)
        assert_accessible(projector.page, "judging board, presenter mode", enhanced_contrast=True)
        projector.page.get_by_role("radio", name="2 relevant").click()
        expect(projector.page.get_by_text("grades given: 3, 1 · settled: 2")).to_be_visible(timeout=WAIT_MS)
        assert tasks.snapshot(code).settled == {t1[0]: 2}
        assert projector.errors == []
    finally:
        projector.page.context.close()
    wide = _open(browser, base, f"/?view=board&code={code}", {"width": 1440, "height": 900})
    try:
        expect(wide.page.get_by_text("Disagreements (1)")).to_be_visible()
        assert wide.page.get_by_text("Settle:").count() == 0  # no teacher's token, no settling
        assert_accessible(wide.page, "judging board at 1440x900")
    finally:
        wide.page.context.close()
