"""A server restart under a live class: how long until a phone shows a reveal made just after the new process answers,
and until the projector is back on its poll, against a change pushed to the same phone on the running server?

One loopback server (``streamlit run app.py``, SQLite in a temporary folder), a projector (Chromium, 1920x1080, on
*Ask the class*) and a phone (Chromium, 390x844, touch). The projector opens a poll, the phone answers. Reference,
on the running server: the teacher resets the answers (through the store, as another device with the teacher's
link would) and the time until the phone's page no longer shows its answer is a change pushed by the process's
watcher. Then the phone answers again, the server is killed (SIGKILL) and started again on the same port and data
folder; the moment it answers its health check, another answer is written and the poll revealed (through the
store). Timed from that moment: each page's websocket connected again, the phone showing the reveal, the projector
showing it (its poll back, from its teacher cookie).

With ``--failover``: two replicas behind HAProxy sharing a throwaway PostgreSQL (scripts/serve_class.py), the
projector and the phone on the same replica (the phone given the projector's ``irml_replica`` cookie), and that
replica killed (SIGKILL) instead; the answer and the reveal are written the moment it dies. No reference.

Prints one line per run and the ratio of the phone's recovery to the reference. Run from the repository root:
    .venv/bin/python -m bench.classroom.serve_class_restart [--runs 3] [--failover]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import tempfile
import time
from pathlib import Path

from ir_metrics_lab.core.classroom import identity
from ir_metrics_lab.core.classroom.store import Store, default_sqlite_url, dispose_engine
from tests.browser import conftest as browser_tests

TIMEOUT_S = 120
CONNECTED = '[data-testid="stApp"][data-test-connection-state="CONNECTED"]'
COUNT = '.st-key-live_count [data-testid="stMetricValue"]'
REVEALED = "The answer: 0.97 · 1 of 2 right"


def _until(checks: dict, start: float) -> dict[str, float]:
    """Seconds from ``start`` until each check (name: callable) first holds, polled every 50 ms."""
    seen: dict[str, float] = {}
    while len(seen) < len(checks) and time.monotonic() - start < TIMEOUT_S:
        for name, check in checks.items():
            if name not in seen and check():
                seen[name] = time.monotonic() - start
        time.sleep(0.05)
    missing = set(checks) - set(seen)
    if missing:
        raise RuntimeError(f"not seen within {TIMEOUT_S} s: {sorted(missing)}")
    return seen


def _answer(phone, expect) -> None:
    phone.get_by_label("Your answer (2 decimal places)").fill("0.97")
    phone.get_by_role("button", name="Send answer").tap()
    expect(phone.get_by_text("Answer sent")).to_be_visible(timeout=TIMEOUT_S * 1000)


def one_run(browser, folder: str) -> dict[str, float]:
    from playwright.sync_api import expect

    env = {**os.environ, "IR_METRICS_LAB_DATA_DIR": folder}
    proc, base = browser_tests.start_server(None, env=env)
    projector_context = browser.new_context(viewport={"width": 1920, "height": 1080})
    phone_context = browser.new_context(viewport={"width": 390, "height": 844}, **browser_tests.PHONE)
    try:
        projector, phone = projector_context.new_page(), phone_context.new_page()
        for page in (projector, phone):
            page.set_default_timeout(TIMEOUT_S * 1000)
        projector.goto(base + "/ask-the-class?presenter=1")
        projector.get_by_role("button", name="Open the poll").click()
        expect(projector.locator(COUNT)).to_have_text("0", timeout=TIMEOUT_S * 1000)
        code = projector.locator(".st-key-live_join_code").inner_text().strip().replace("-", "")
        held = next(c["value"] for c in projector_context.cookies() if c["name"] == identity.TEACHER_COOKIE)
        _, token = identity.held_teacher(held)
        phone.goto(f"{base}/join?code={code}")
        _answer(phone, expect)
        browser_tests.wait_idle(phone)

        store = Store(default_sqlite_url(folder))
        start = time.monotonic()
        store.reset(code, token)
        # pushed: the page ran again (its "Answer sent" is shown once) and found no answer
        shown = phone.get_by_text(re.compile("Answer sent|Your answer: 0.97"))
        reference = _until({"pushed": lambda: shown.count() == 0}, start)
        _answer(phone, expect)
        dispose_engine(store.url)

        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        proc, _ = browser_tests.start_server(None, env=env, port=int(base.rsplit(":", 1)[1]))
        start = time.monotonic()
        store = Store(default_sqlite_url(folder))
        store.answer(code, 1, "another-student", "0.5")
        store.reveal(code, token)
        dispose_engine(store.url)
        seen = _until(
            {
                "phone connected": lambda: phone.locator(CONNECTED).count() == 1,
                "projector connected": lambda: projector.locator(CONNECTED).count() == 1,
                "phone reveal": lambda: phone.get_by_text("Your answer 0.97 is right.").count() == 1,
                "projector reveal": lambda: projector.get_by_text(REVEALED).count() == 1,
            },
            start,
        )
        return {"reference push": reference["pushed"], **seen}
    except Exception:
        for name, page in (("projector", projector), ("phone", phone)):
            print(name, page.url, page.locator("[data-testid=stMain]").inner_text()[:900].replace("\n", " | "))
        raise
    finally:
        projector_context.close()
        phone_context.close()
        browser_tests.stop_server(proc)


def one_failover(browser) -> dict[str, float]:
    from playwright.sync_api import expect

    from scripts.serve_class import serving
    from scripts.temporary_postgres import temporary_postgres

    with (
        temporary_postgres() as url,
        tempfile.TemporaryDirectory(prefix="irml-failover-") as logs,
        serving(2, url, logs=Path(logs)) as served,
    ):
        projector_context = browser.new_context(viewport={"width": 1920, "height": 1080})
        phone_context = browser.new_context(viewport={"width": 390, "height": 844}, **browser_tests.PHONE)
        try:
            projector = projector_context.new_page()
            projector.set_default_timeout(TIMEOUT_S * 1000)
            projector.goto(served.base + "/ask-the-class?presenter=1")
            projector.get_by_role("button", name="Open the poll").click()
            expect(projector.locator(COUNT)).to_have_text("0", timeout=TIMEOUT_S * 1000)
            code = projector.locator(".st-key-live_join_code").inner_text().strip().replace("-", "")
            cookies = {c["name"]: c["value"] for c in projector_context.cookies()}
            _, token = identity.held_teacher(cookies[identity.TEACHER_COOKIE])
            replica = cookies["irml_replica"]  # app1, app2: HAProxy's name for the replica
            phone_context.add_cookies([{"name": "irml_replica", "value": replica, "url": served.base}])
            phone = phone_context.new_page()
            phone.set_default_timeout(TIMEOUT_S * 1000)
            phone.goto(f"{served.base}/join?code={code}")
            _answer(phone, expect)
            browser_tests.wait_idle(phone)
            os.kill(served.app_pids[int(replica.removeprefix("app")) - 1], signal.SIGKILL)
            start = time.monotonic()
            store = Store(url)
            store.answer(code, 1, "another-student", "0.5")
            store.reveal(code, token)
            dispose_engine(url)
            return _until(
                {
                    "phone reveal": lambda: phone.get_by_text("Your answer 0.97 is right.").count() == 1,
                    "projector reveal": lambda: projector.get_by_text(REVEALED).count() == 1,
                },
                start,
            )
        finally:
            projector_context.close()
            phone_context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--failover", action="store_true", help="two replicas behind HAProxy; kill one")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = browser_tests.launch_browser(playwright)
        for run in range(1, args.runs + 1):
            if args.failover:
                seen = one_failover(browser)
                timings = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in seen.items())
                print(f"run {run}, a replica killed: {timings}; load {os.getloadavg()[0]:.1f}")
                continue
            with tempfile.TemporaryDirectory(prefix="irml-restart-") as folder:
                seen = one_run(browser, folder)
            timings = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in seen.items())
            ratio = seen["phone reveal"] / seen["reference push"]
            print(f"run {run}: {timings}; phone recovery / reference {ratio:.1f}x; load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
