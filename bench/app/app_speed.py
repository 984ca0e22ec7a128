"""How fast does the playground answer a drag? Two measurements, printed as a Markdown table.

(a) Server side: the playground script's run time in AppTest (app.py routing to the default page), one simulated
    drop per rerun (the ranked-list component's state written before ``run()``, as the browser sends it),
    alternating d5 to the top and back, after warm-up runs. Target < 80 ms per run.
(b) Browser: real mouse drags (mouse down / stepped move / up) in Debian's Chromium against a live
    ``streamlit run app.py``, alternating d5 to the top and back. Each is timed in the page's own clock, from the
    drop event to the first animation frame where the NDCG@5 card shows the new value (hand-computed here) and
    Streamlit's "Running..." status widget is not shown (target: median < 250 ms), and to the first frame where the
    rerun has also finished (``data-test-script-state="notRunning"``: the formulas and charts redrawn too).

Run from the repository root:

    .venv/bin/python -m bench.app.app_speed [--reruns 20] [--drags 20] [--only server|browser]

Nothing is written to the repository; the server log goes to a temporary file.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from math import log2
from pathlib import Path

from bench.paths import REPO
from tests.browser import conftest as browser_tests

LIST_KEY = "pg_list"
TOP = ["d5", "d1", "d2", "d3", "d4"]  # d5 dragged above d1
DEFAULT = ["d1", "d2", "d3", "d4", "d5"]

# Hand arithmetic (grades d1..d5 = 3, 2, 3, 0, 1; linear gain; k = 5), not our library's output.
IDCG = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6)
NDCG = {
    tuple(DEFAULT): (3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)) / IDCG,  # 0.9724
    tuple(TOP): (1 / log2(2) + 3 / log2(3) + 2 / log2(4) + 3 / log2(5) + 0 / log2(6)) / IDCG,  # 0.8199
}


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def summary(values_ms: list[float]) -> dict[str, float]:
    return {
        "n": len(values_ms),
        "median": statistics.median(values_ms),
        "p90": percentile(values_ms, 90),
        "mean": statistics.fmean(values_ms),
        "min": min(values_ms),
        "max": max(values_ms),
    }


# --- (a) server side ---------------------------------------------------------------------------------------------


def server_side(reruns: int, warmup: int) -> tuple[list[float], list[float]]:
    """Wall-clock and process CPU milliseconds per rerun (CPU time is what a busy shared box does not inflate)."""
    import logging

    from streamlit.testing.v1 import AppTest

    # AppTest calls format_func outside a script run and Streamlit warns about it on every rerun.
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").disabled = True
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    wall: list[float] = []
    cpu: list[float] = []
    for i in range(warmup + reruns):
        target = TOP if i % 2 == 0 else DEFAULT
        at.session_state[LIST_KEY] = {"edit": {"order": list(target), "nonce": f"bench-{i}"}}
        start, start_cpu = time.perf_counter(), time.process_time()
        at.run()
        elapsed, elapsed_cpu = (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000
        assert not at.exception, at.exception
        shown = {m.label: m.value for m in at.metric}.get("NDCG@5")
        expected = f"{NDCG[tuple(target)]:.4f}"
        assert shown == expected, f"rerun {i}: NDCG@5 shows {shown}, expected {expected}"
        if i >= warmup:
            wall.append(elapsed)
            cpu.append(elapsed_cpu)
    return wall, cpu


# --- (b) browser ------------------------------------------------------------------------------------------------

# Stamp the drop in the page's clock (drag events are composed, so the document sees drops inside the shadow root).
INSTALL_DROP_CLOCK = """() => {
  if (!window.__benchDrop) {
    window.__benchDrop = true;
    document.addEventListener('drop', () => { window.__dropAt = performance.now(); }, true);
  }
  window.__dropAt = null; window.__numbersAt = null; window.__idleAt = null; window.__statusSeen = false;
}"""

# Polled every animation frame. numbersAt: NDCG@5 shows the expected value and no "Running..." status widget is
# shown (the target's definition). idleAt: in addition the run has finished (the frontend has processed the whole
# rerun: formulas and charts redrawn too).
UPDATED = """(expected) => {
  const cards = [...document.querySelectorAll('[data-testid="stMetric"]')];
  const card = cards.find((m) => {
    const label = m.querySelector('[data-testid="stMetricLabel"]');
    return label && label.textContent.trim() === 'NDCG@5';
  });
  const value = card && card.querySelector('[data-testid="stMetricValue"]');
  const now = performance.now();
  const running = document.querySelector('[data-testid="stStatusWidget"]');
  if (running) window.__statusSeen = true;
  if (!value || value.textContent.trim() !== expected || window.__dropAt === null || running) return false;
  if (window.__numbersAt === null) window.__numbersAt = now;
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  window.__idleAt = now;
  return true;
}"""


def browser_drags(drags: int, warmup: int) -> tuple[list[float], list[float], int]:
    from playwright.sync_api import sync_playwright

    browser_tests.require_chromium()
    log = Path(tempfile.mkstemp(prefix="app_speed_streamlit_", suffix=".log")[1])
    proc, base = browser_tests.start_server(log)
    numbers: list[float] = []
    idle: list[float] = []
    status_seen = 0
    try:
        with sync_playwright() as p:
            browser = browser_tests.launch_browser(p)
            try:
                page = browser.new_context(viewport=browser_tests.VIEWPORT).new_page()
                page.goto(base + "/")
                browser_tests.wait_idle(page)
                lst = page.locator(f'ul[data-testid="ranked-list"][data-list="{LIST_KEY}"]')
                lst.locator("li[data-doc-id]").first.wait_for()
                for i in range(warmup + drags):
                    up = i % 2 == 0
                    target = TOP if up else DEFAULT
                    expected = f"{NDCG[tuple(target)]:.4f}"
                    lst.evaluate("el => el.scrollIntoView({block: 'center'})")
                    src = lst.locator('li[data-doc-id="d5"] .rk-handle').bounding_box()
                    dst = lst.locator(f'li[data-doc-id="{"d1" if up else "d4"}"]').bounding_box()
                    page.evaluate(INSTALL_DROP_CLOCK)
                    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
                    page.mouse.down()
                    page.mouse.move(
                        dst["x"] + dst["width"] / 3, dst["y"] + dst["height"] * (0.25 if up else 0.75), steps=15
                    )
                    page.mouse.up()
                    page.wait_for_function(UPDATED, arg=expected, polling="raf", timeout=30_000)
                    t = page.evaluate("[window.__dropAt, window.__numbersAt, window.__idleAt, window.__statusSeen]")
                    order = [li.get_attribute("data-doc-id") for li in lst.locator("li[data-doc-id]").all()]
                    assert order == target, f"drag {i}: order {order}, expected {target}"
                    if i >= warmup:
                        numbers.append(t[1] - t[0])
                        idle.append(t[2] - t[0])
                        status_seen += bool(t[3])
                    browser_tests.wait_idle(page)
            finally:
                browser.close()
    finally:
        browser_tests.stop_server(proc)
        log.unlink(missing_ok=True)
    return numbers, idle, status_seen


# --- report -----------------------------------------------------------------------------------------------------


def row(name: str, s: dict[str, float], target: str) -> str:
    spread = f"{s['min']:.0f}-{s['max']:.0f} ms"
    return f"| {name} | {s['n']} | {s['median']:.0f} ms | {s['p90']:.0f} ms | {spread} | {target} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reruns", type=int, default=20, help="timed AppTest reruns (after --warmup)")
    parser.add_argument("--drags", type=int, default=20, help="timed browser drags (after --warmup)")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--only", choices=["server", "browser"])
    args = parser.parse_args(argv)

    rows: list[str] = []
    verdicts: list[tuple[str, bool]] = []
    notes: list[str] = []
    if args.only in (None, "server"):
        wall, cpu = server_side(args.reruns, args.warmup)
        s, c = summary(wall), summary(cpu)
        rows.append(row("playground script run, one drop per rerun (AppTest, wall clock)", s, "< 80 ms"))
        rows.append(row("the same runs, process CPU time", c, ""))
        verdicts.append(("server run, median < 80 ms", s["median"] < 80))
    if args.only in (None, "browser"):
        numbers, idle, status_seen = browser_drags(args.drags, args.warmup)
        n = summary(numbers)
        i = summary(idle)
        rows.append(row("mouse drop → NDCG@5 shows the new value, no status widget (Chromium)", n, "median < 250 ms"))
        rows.append(row("mouse drop → the rerun finished: formulas and charts redrawn too (Chromium)", i, ""))
        verdicts.append(("drop → NDCG@5 updated, median < 250 ms", n["median"] < 250))
        notes.append(f"the status widget was shown after {status_seen} of {len(idle)} drops")

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    when = time.strftime("%Y-%m-%d %H:%M")
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load} (1/5/15 min), {when}\n")
    print("| measure | n | median | p90 | range | target |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    print()
    for name, ok in verdicts:
        print(f"- {name}: {'met' if ok else 'NOT met'}")
    for note in notes:
        print(f"- {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
