"""How soon does a brand-new visitor see the first number? The Playground, Retriever A vs B, a lesson (DCG & NDCG)
and Evaluate a run (the bundled samples), each opened in a fresh browser context (no cookies, no HTTP cache) on a
warm server, beside a bare one-``st.metric`` page (bench/bare_metric_page.py, its own server) in the same rounds.

Timed in the page's own clock (``performance.now()``, from the start of navigation) by a MutationObserver
installed before any script of the page: the first animation frame after the first number is in the DOM and
visible (an ``st.metric`` value; on A vs B, whose numbers are a table, the side-by-side table's cells), the first frame
with a drawn Plotly chart, and the layout shift accumulated until the run is over and every chart drawn
(``layout-shift`` entries), in all and after the first number (0 means nothing moved when the charts and the
formulas arrived; before the first number, the sidebar's navigation filling in moves the page, as on any
multi-page app). The pages are visited in interleaved
rounds, so the baseline and the app see the same machine load. Prints the medians, the p90 and each page's ratio
to the bare page's median.

Run from the repository root:  .venv/bin/python bench/first_visit.py [--rounds 7]
Nothing is written to the repository; the server logs go to a temporary directory.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIRST_NUMBER = '[data-testid="stMetricValue"]'
PAGES = {  # name: (path, what counts as the first number)
    "bare st.metric page": ("/", FIRST_NUMBER),
    "Playground": ("/", FIRST_NUMBER),
    "Retriever A vs B": ("/a-vs-b", '[data-testid="stMarkdownContainer"] table td'),
    "Lesson: DCG & NDCG": ("/ndcg", FIRST_NUMBER),
    "Evaluate a run": ("/your-data", FIRST_NUMBER),
}
SECOND_PASS_DONE = "() => !document.querySelector('[class*=\"first_paint\"]')"
WATCH = """
(() => {
  const selector = %s;
  const fv = (window.__firstVisit = { number: null, chart: null, shift: 0, shiftAfter: 0, skeletons: null });
  const frame = (key) => requestAnimationFrame(() => { if (fv[key] === null) fv[key] = performance.now(); });
  let numberSeen = false, chartSeen = false;
  const check = () => {
    if (!numberSeen) {
      const el = [...document.querySelectorAll(selector)].find((e) => e.checkVisibility()
        && (e.tagName === "CANVAS" || e.textContent.trim()));
      if (el) {
        numberSeen = true;
        fv.skeletons = document.querySelectorAll('[data-testid="stSkeleton"]').length;
        frame("number");
      }
    }
    if (!chartSeen && document.querySelector('[data-testid="stPlotlyChart"] .main-svg')) {
      chartSeen = true;
      frame("chart");
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      fv.shift += entry.value;
      if (fv.number !== null && entry.startTime > fv.number) fv.shiftAfter += entry.value;
    }
  }).observe({ type: "layout-shift", buffered: true });
})();
"""


def _conftest():
    """The browser-test helpers (server start/stop, Chromium launch, idle wait), loaded from their file."""
    spec = importlib.util.spec_from_file_location("browser_conftest", REPO / "tests" / "browser" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def visit(browser, base: str, path: str, selector: str, helpers) -> dict[str, float | None]:
    import json

    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        context.add_init_script(WATCH % json.dumps(selector))
        page = context.new_page()
        page.set_default_timeout(120_000)
        page.goto(base + path)
        page.wait_for_function("() => window.__firstVisit && window.__firstVisit.number !== null", timeout=120_000)
        helpers.wait_idle(page, 120_000)
        # The app's second pass (ui/first_paint.py): no reserved box or watcher left, then everything drawn.
        page.wait_for_function(SECOND_PASS_DONE, timeout=120_000)
        helpers.wait_idle(page, 120_000)
        page.wait_for_function(helpers.RENDERED_JS, timeout=120_000)
        time.sleep(0.3)  # a last layout shift, if any, is recorded
        return page.evaluate("window.__firstVisit")
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    helpers = _conftest()
    from playwright.sync_api import sync_playwright

    def bare_command(port: int) -> list[str]:
        command = helpers.streamlit_run(port)
        command[command.index("app.py")] = str(REPO / "bench" / "bare_metric_page.py")
        return command

    logs = Path(tempfile.mkdtemp(prefix="first-visit-"))
    app, app_base = helpers.start_server(logs / "app.log")
    bare, bare_base = helpers.start_server(logs / "bare.log", command=bare_command)
    results: dict[str, list[dict]] = {name: [] for name in PAGES}
    try:
        with sync_playwright() as p:
            browser = helpers.launch_browser(p)
            for name, (path, selector) in PAGES.items():  # warm the servers: imports, caches, first runs
                visit(browser, bare_base if name.startswith("bare") else app_base, path, selector, helpers)
            for round_ in range(args.rounds):
                for name, (path, selector) in PAGES.items():
                    base = bare_base if name.startswith("bare") else app_base
                    results[name].append(visit(browser, base, path, selector, helpers))
                print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
            browser.close()
    finally:
        helpers.stop_server(app)
        helpers.stop_server(bare)

    load = os.getloadavg()
    print(f"\n{args.rounds} rounds, {os.cpu_count()} CPUs, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    bare_median = statistics.median(r["number"] for r in results["bare st.metric page"])
    print(
        "\n| page | first number, median (ms) | p90 (ms) | ratio to bare | first chart, median (ms) "
        "| skeletons at first number | layout shift, max | after the first number, max |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, rows in results.items():
        numbers = sorted(r["number"] for r in rows)
        charts = [r["chart"] for r in rows if r["chart"] is not None]
        p90 = numbers[min(len(numbers) - 1, round(0.9 * len(numbers) + 0.5) - 1)]
        chart = f"{statistics.median(charts):.0f}" if charts else "no chart"
        median = statistics.median(numbers)
        print(
            f"| {name} | {median:.0f} | {p90:.0f} | {median / bare_median:.2f} | {chart} "
            f"| {statistics.median(r['skeletons'] for r in rows):.0f} | {max(r['shift'] for r in rows):.3f} "
            f"| {max(r['shiftAfter'] for r in rows):.3f} |"
        )


if __name__ == "__main__":
    main()
