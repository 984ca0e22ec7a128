"""What does Streamlit's frontend charge a page's first number for the frame every page of the app sends besides its
own content? The bare one-``st.metric`` page (bench/app/bare_metric_page.py) as it is, in the wide layout, with the
app's sidebar (20 page links and its text), then also with a style block, a custom component and a formula after
the number (the app's CSS, its accessibility script and first-paint watcher, the KaTeX preload), each on its own
server, visited in fresh browser contexts in interleaved rounds and timed as bench/app/first_visit.py times the app's
pages (both clocks: in the page from its navigation start, and from outside from the moment the browser is told to
go), each visit ending at its first content. Each variant's ratio is to the bare page's median in the same rounds.

Run from the repository root:  .venv/bin/python -m bench.app.first_visit_floor [--rounds 5] [--views wide,phone]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

from bench.app.bare_servers import bare_page_servers
from bench.app.first_visit import VIEWS, visit
from tests.browser import conftest as browser_tests

VARIANTS = {
    "bare": [],
    "wide": ["wide"],
    "wide, the app's sidebar": ["wide", "links"],
    "+ a style block after the number": ["wide", "links", "css"],
    "+ a custom component": ["wide", "links", "css", "component"],
    "+ a formula": ["wide", "links", "css", "component", "latex"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--views", default="wide", help="some of " + ", ".join(VIEWS))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    views = args.views.split(",")
    times: dict[tuple[str, str], list[dict]] = {(name, view): [] for view in views for name in VARIANTS}
    with bare_page_servers(VARIANTS, "first-visit-floor-") as servers, sync_playwright() as playwright:
        browser = browser_tests.launch_browser(playwright)
        for base in servers.values():
            visit(browser, base, "/", views[0], quick=True)  # warm each server
        for round_ in range(args.rounds):
            for view in views:
                for name, base in servers.items():
                    times[name, view].append(visit(browser, base, "/", view, quick=True))
            print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
        browser.close()
    load = os.getloadavg()
    print(f"\n{args.rounds} rounds, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    print("\n| bare page | view | in the page: median (min-max), ms | ratio | from outside | ratio "
          "| server: to number | deltas before it | files before it |")  # fmt: skip
    print("|---|---|---|---:|---|---:|---:|---:|---:|")
    for (name, view), rows in times.items():
        cells = []
        for key in ("number", "outside"):
            values = [r[key] for r in rows]
            floor = statistics.median(r[key] for r in times["bare", view])
            median = statistics.median(values)
            cells += [f"{median:.0f} ({min(values):.0f}-{max(values):.0f})", f"{median / floor:.2f}"]
        server = statistics.median(r["numberMsg"] - r["asked"] for r in rows)
        deltas = statistics.median(len(r["deltasBefore"]) for r in rows)
        files = statistics.median(r["files"] for r in rows)
        print(f"| {name} | {view} | {' | '.join(cells)} | {server:.0f} | {deltas:.0f} | {files:.0f} |")


if __name__ == "__main__":
    main()
