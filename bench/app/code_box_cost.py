"""What one code box costs the browser on each page view, shown or not: the bare one-``st.metric`` page
(bench/app/bare_metric_page.py) against the same page with a closed expander holding a code box (``-- code``), as a
lesson's "Show the code" was drawn before ir_metrics_lab/parts/lazy_expander.py. Each view is a new tab of one warm
browser context (the frontend's files cached and compiled, as a reader moving between pages has them), timed by the
renderer's main thread (Chrome's ``Performance.getMetrics`` TaskDuration, from the tab's opening to the page idle),
both servers alternated in each round. Chromium as people run it, and with the tests' V8 flags (optimizers off).

Run from the repository root:  .venv/bin/python -m bench.app.code_box_cost [--rounds 8]
"""

from __future__ import annotations

import argparse
import os
import statistics

from bench.app.bare_servers import bare_page_servers
from tests.browser import conftest as browser_tests

PAGES = {"bare": [], "with a closed code box": ["code"]}
ENGINES = {"V8's defaults": "", "the tests' flags": browser_tests.TEST_JS_FLAGS}


def main_thread_seconds(context, base: str) -> float:
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(base)
    browser_tests.wait_idle(page)
    page.wait_for_timeout(300)  # the frontend's work after the run's end
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    page.close()
    return metrics["TaskDuration"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    seconds: dict[tuple[str, str], list[float]] = {(e, p): [] for e in ENGINES for p in PAGES}
    with bare_page_servers(PAGES, "code-box-cost-") as servers, sync_playwright() as playwright:
        for engine, flags in ENGINES.items():
            browser = browser_tests.launch_browser(playwright, js_flags=flags)
            context = browser.new_context(viewport={"width": 1440, "height": 900})
            for base in servers.values():
                main_thread_seconds(context, base)  # fill the cache, compile the frontend
            for _ in range(args.rounds):
                for name, base in servers.items():
                    seconds[engine, name].append(main_thread_seconds(context, base))
            browser.close()
    load = os.getloadavg()
    print(f"\n{args.rounds} views of each page, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    print("\n| Chromium | page | main thread per view: median (min-max), s | more than the bare page |")
    print("|---|---|---|---:|")
    for (engine, name), values in seconds.items():
        more = statistics.median(values) - statistics.median(seconds[engine, "bare"])
        print(f"| {engine} | {name} | {statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f}) "
              f"| {more:+.2f} s |")  # fmt: skip


if __name__ == "__main__":
    main()
