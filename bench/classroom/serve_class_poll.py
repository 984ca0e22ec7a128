"""A class answering a live poll: how many answers arrive, how fast the projector shows them, how much memory the
server holds. Against SQLite and against PostgreSQL (a throwaway cluster: scripts/temporary_postgres.py).

One local server (``streamlit run app.py`` on 127.0.0.1, a free port; nothing listens beyond loopback). The projector is
a real Chromium page (1920x1080, presenter mode) on *Ask the class*: it opens a poll on the playground's list and shows
the live answer count. The students (``--students``, at most 200) are threads that join by the code and answer at random
moments spread over ``--window`` seconds (at most 60); every fifth changes the answer once. They write through
ir_metrics_lab.core.classroom.store into the same database as the server, as another app replica would: this measures
the database and the projector's live count, not 60 phone browsers (tests/browser/test_live_class_browser.py drives real
phones through the pages). A MutationObserver in the projector page stamps each change of the count (Date.now(), the
same clock as the threads' time.time()).

Printed per back end: answers sent (distinct students), answers received (in the database, and on the projector),
the projector's update latency (from the commit of the n-th answer to the count showing n: median, 95th percentile,
max), the server's CPU while the projector waits for answers (its live count reruns twice a second; ms of CPU per
second over 5 s, before the students start), and the server's memory (RSS of its process tree) before the poll and
after the round. Streamlit's settings come from the environment as usual, e.g.
``STREAMLIT_RUNNER_POST_SCRIPT_GC=true`` to compare with its default full garbage collection after every run.

Run from the repository root:  .venv/bin/python -m bench.classroom.serve_class_poll [--students 60] [--window 10]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from bench.classroom.serve_class import tree_rss_mib
from ir_metrics_lab.core.classroom import store as store_module
from ir_metrics_lab.core.classroom.store import Store
from scripts.temporary_postgres import temporary_postgres
from tests.browser import conftest as browser_tests

MAX_STUDENTS, MAX_WINDOW_S = 200, 60
IDLE_S = 5.0  # how long the server's CPU is sampled while the projector waits
COUNT = '.st-key-live_count [data-testid="stMetricValue"]'
OBSERVE_JS = """(selector) => {
  window.__counts = [];
  const record = () => {
    const el = document.querySelector(selector);
    if (el) window.__counts.push([Date.now(), el.textContent.trim()]);
  };
  new MutationObserver(record).observe(document.body, {subtree: true, childList: true, characterData: true});
  record();
}"""


@contextlib.contextmanager
def database(backend: str) -> Iterator[tuple[str, dict[str, str]]]:
    """The database URL and the server's environment for it."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="irml-bench-") as folder:
            yield store_module.default_sqlite_url(folder), {"IR_METRICS_LAB_DATA_DIR": folder}
    else:
        with temporary_postgres() as url:
            yield url, {"IR_METRICS_LAB_DATABASE_URL": url}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def students(url: str, code: str, count: int, window_s: float, seed: int) -> tuple[list[float], int, list[str]]:
    """``count`` threads join and answer at random moments in the window. Returns the commit times (time.time()) of
    first answers, how many answers were sent in all (changes included) and any errors."""
    rng = random.Random(seed)
    delays = sorted(rng.uniform(0, window_s * 0.8) for _ in range(count))
    committed: list[float] = []
    errors: list[str] = []
    sent = [0]
    lock = threading.Lock()
    start = time.monotonic()
    shared = Store(url)  # one pool for the threads, as one replica has

    def student(n: int, delay: float) -> None:
        time.sleep(max(0.0, start + delay - time.monotonic()))
        try:
            poll = shared.poll(code)  # joining: the code is looked up
            student_id = store_module.new_student_id()
            shared.answer(poll.code, poll.round, student_id, f"{0.9 + n % 10 / 100:.2f}")
            with lock:
                committed.append(time.time())
                sent[0] += 1
            if n % 5 == 0:
                time.sleep(rng.uniform(0.2, 1.0))
                shared.answer(poll.code, poll.round, student_id, "0.97")  # a change: still one answer
                with lock:
                    sent[0] += 1
        except Exception as error:  # counted and printed: a lost answer must show
            with lock:
                errors.append(repr(error))

    threads = [threading.Thread(target=student, args=(n, d)) for n, d in enumerate(delays)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=window_s + 60)
    return sorted(committed), sent[0], errors


def run(backend: str, count: int, window_s: float, seed: int) -> dict[str, object]:
    from playwright.sync_api import expect, sync_playwright

    with database(backend) as (url, env), sync_playwright() as playwright:
        browser = browser_tests.launch_browser(playwright)  # first: a browser that fails to start leaks no server
        proc, base = browser_tests.start_server(env={**os.environ, **env})
        try:
            page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
            page.set_default_timeout(60_000)
            page.goto(base + "/ask-the-class?presenter=1")
            browser_tests.wait_idle(page, 60_000)
            page.get_by_role("button", name="Open the poll").click()
            expect(page.locator(COUNT)).to_have_text("0", timeout=60_000)
            code = page.locator(".st-key-live_join_code").inner_text().strip().replace("-", "")
            rss_before = tree_rss_mib(proc.pid)
            cpu_before = cpu_seconds(proc.pid)
            page.wait_for_timeout(IDLE_S * 1000)  # the projector's count reruns; nobody answers yet
            idle_cpu_ms = (cpu_seconds(proc.pid) - cpu_before) / IDLE_S * 1000
            page.evaluate(OBSERVE_JS, COUNT)
            began = time.monotonic()
            commits, sent_total, errors = students(url, code, count, window_s, seed)
            answered_in = time.monotonic() - began
            with contextlib.suppress(Exception):
                expect(page.locator(COUNT)).to_have_text(str(len(commits)), timeout=15_000)
            changes = page.evaluate("window.__counts")
            rss_after = tree_rss_mib(proc.pid)
            poll = Store(url).poll(code)
            received = Store(url).count(code, poll.round)
        finally:
            browser.close()
            browser_tests.stop_server(proc)
            store_module.dispose_engine(url)
    latencies = []
    for n, committed in enumerate(commits, 1):
        # the count only includes committed answers, so it first reaches n after the n-th commit
        shown = next((t / 1000 for t, text in changes if text.isdigit() and int(text) >= n), None)
        if shown is not None:
            latencies.append(max(shown - committed, 0.0))
    return {
        "backend": backend,
        "students": count,
        "sent": len(commits),
        "sent_with_changes": sent_total,
        "received": received,
        "projector": changes[-1][1] if changes else "?",
        "errors": errors,
        "answered_in_s": answered_in,
        "latencies": latencies,
        "rss_before": rss_before,
        "idle_cpu_ms": idle_cpu_ms,
        "rss_after": rss_after,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--window", type=float, default=10.0, help="seconds over which the students answer")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not 1 <= args.students <= MAX_STUDENTS or not 1 <= args.window <= MAX_WINDOW_S:
        parser.error(f"--students 1..{MAX_STUDENTS}, --window 1..{MAX_WINDOW_S} s")
    print(
        "| back end | sent | received (database / projector) | answered within | projector latency median / p95 / "
        "max | server CPU, projector waiting | server RSS before → after |"
    )
    print("|---|---:|---|---:|---|---:|---|")
    failed = False
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    for backend in args.backends.split(","):
        r = run(backend, args.students, args.window, args.seed)
        lat = r["latencies"]
        p95 = statistics.quantiles(lat, n=20)[-1] if len(lat) >= 2 else float("nan")
        print(
            f"| {r['backend']} | {r['sent']} ({r['sent_with_changes']} with changes) | {r['received']} / "
            f"{r['projector']} | {r['answered_in_s']:.1f} s | {statistics.median(lat):.2f} / {p95:.2f} / "
            f"{max(lat):.2f} s ({len(lat)} updates) | {r['idle_cpu_ms']:.0f} ms/s | {r['rss_before']:.0f} → "
            f"{r['rss_after']:.0f} MiB |",
            flush=True,
        )
        print(f"  load average after: {os.getloadavg()[0]:.1f}", flush=True)
        if r["errors"]:
            print(f"  errors: {r['errors'][:5]}")
        failed |= r["sent"] != r["received"] or bool(r["errors"]) or r["sent"] != args.students
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
