"""How many students can one server hold? Opens browser sessions against one live server, one after another, and
records the server's memory (RSS) as they accumulate. Printed as a Markdown table.

Each session is its own Chromium browser context (no shared cookies or storage: a separate student) that opens the
playground (``/``), then goes to "Evaluate a run" through the sidebar (the same Streamlit session) and waits until
the sample run's means are drawn; the tab then stays open, so every session is still connected while the next ones
arrive. After each step of sessions the server's RSS is read from /proc (the server and any child processes).
At the end every tab is checked to be still connected and idle, and then a whole class acts at once: every tab
clicks "Playground" in the sidebar, one right after the other (a page switch: a full run of the playground in
each session), and the time from the first click until the last tab is idle again is the burst time.

The loop is bounded: at most ``--sessions`` sessions, and it stops early when a session does not become idle within
``--timeout`` seconds or the server's RSS exceeds ``--max-rss-mib``.

Run from the repository root:  .venv/bin/python -m bench.classroom.serve_class [--sessions 40] [--step 5]
The server is ``streamlit run app.py`` on 127.0.0.1 and a free port (as the browser tests start it); nothing is
written to the repository.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from tests.browser import conftest as browser_tests

PAGE_SIZE = 4096


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(child) for child in task.read_text().split()]
    return found


def tree_rss_mib(pid: int) -> float:
    """Resident memory of a process and its descendants, in MiB (from /proc/PID/statm)."""
    total, todo, seen = 0, [pid], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            total += int(Path(f"/proc/{current}/statm").read_text().split()[1]) * PAGE_SIZE
            todo += _children(current)
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total / (1 << 20)


def open_session(browser, base: str, timeout_ms: int):
    """One student: a new context, the playground, then "Evaluate a run" with the sample data. Returns the context
    and the seconds from opening the page to the means drawn."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=browser_tests.VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    started = time.perf_counter()
    page.goto(base + "/")
    browser_tests.wait_idle(page, timeout_ms)
    expect(page.get_by_role("heading", name="Playground")).to_be_visible()
    page.get_by_role("link", name="Evaluate a run").click()
    expect(page.get_by_role("heading", name="Means")).to_be_visible(timeout=timeout_ms)
    browser_tests.wait_idle(page, timeout_ms)
    return context, time.perf_counter() - started


def burst(contexts, timeout_ms: int) -> tuple[float, float]:
    """Every session switches to the playground at once: seconds to issue the clicks, and from the first click until
    the last session has finished its run."""
    pages = [context.pages[0] for context in contexts]
    started = time.perf_counter()
    for page in pages:
        page.get_by_role("link", name="Playground").click(no_wait_after=True)
    clicked = time.perf_counter() - started
    for page in pages:
        page.get_by_role("heading", name="Playground").wait_for(timeout=timeout_ms)
        browser_tests.wait_idle(page, timeout_ms)
    return clicked, time.perf_counter() - started


def measure(
    sessions: int, step: int, timeout_s: float, max_rss_mib: float
) -> tuple[list[tuple], float, int, str, tuple[float, float]]:
    from playwright.sync_api import sync_playwright

    browser_tests.require_chromium()
    log = Path(tempfile.mkstemp(prefix="serve_class_streamlit_", suffix=".log")[1])
    proc, base = browser_tests.start_server(log)
    rows: list[tuple] = []
    stopped = ""
    try:
        time.sleep(2)
        idle_rss = tree_rss_mib(proc.pid)
        with sync_playwright() as p:
            browser = browser_tests.launch_browser(p)
            contexts = []
            try:
                target = 1
                while len(contexts) < sessions and not stopped:
                    seconds = []
                    while len(contexts) < min(target, sessions):
                        try:
                            context, took = open_session(browser, base, int(timeout_s * 1000))
                        except Exception as error:  # a timeout is the answer here, not a crash
                            stopped = f"session {len(contexts) + 1} did not finish: {type(error).__name__}"
                            break
                        contexts.append(context)
                        seconds.append(took)
                    time.sleep(1)  # let the last run's messages settle before reading memory
                    rss = tree_rss_mib(proc.pid)
                    if seconds:
                        rows.append((len(contexts), rss, statistics.median(seconds), max(seconds)))
                    if rss > max_rss_mib:
                        stopped = f"server RSS {rss:.0f} MiB passed --max-rss-mib {max_rss_mib:.0f}"
                    target = step if target == 1 else target + step
                connected = sum(
                    context.pages[0].locator(browser_tests.APP_IDLE).count() == 1
                    for context in contexts
                    if context.pages
                )
                burst_s = burst(contexts, int(timeout_s * 1000)) if contexts else (0.0, 0.0)
            finally:
                browser.close()
    finally:
        browser_tests.stop_server(proc)
        log.unlink(missing_ok=True)
    return rows, idle_rss, connected, stopped, burst_s


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=40, help="most sessions to open (default 40)")
    parser.add_argument("--step", type=int, default=5, help="sessions between memory readings (default 5)")
    parser.add_argument("--timeout", type=float, default=90, help="seconds a session may take to load (default 90)")
    parser.add_argument("--max-rss-mib", type=float, default=8000, help="stop when the server passes this RSS")
    args = parser.parse_args(argv)

    rows, idle_rss, connected, stopped, burst_s = measure(args.sessions, args.step, args.timeout, args.max_rss_mib)
    print(f"server RSS before any session: {idle_rss:.0f} MiB")
    print("| sessions open | server RSS | per session after the first | load time, median (max) of the step |")
    print("|---:|---:|---:|---:|")
    first = rows[0][1] if rows else 0.0
    for count, rss, median_s, max_s in rows:
        per = f"{(rss - first) / (count - 1):.1f} MiB" if count > 1 else "-"
        print(f"| {count} | {rss:.0f} MiB | {per} | {median_s:.1f} s ({max_s:.1f} s) |")
    total = rows[-1][0] if rows else 0
    print(f"\n{connected} of {total} sessions still connected and idle at the end.")
    clicked, done = burst_s
    print(f"All {total} switching to the playground (clicks issued over {clicked:.1f} s): the last one was idle")
    print(f"{done:.1f} s after the first click.")
    if stopped:
        print(f"Stopped early: {stopped}.")
    return 0 if rows and connected == total else 1


if __name__ == "__main__":
    raise SystemExit(main())
