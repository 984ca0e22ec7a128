"""What the accessibility walk of the browser tests spends on each page (tests/browser/test_a11y_browser.py, one tab
per view moving by the app's navigation): busy CPU-seconds of the whole machine for the page switch, the screenshot
into tests/artifacts/, opening every expander, the axe audit, and each tab shown in turn with its panel audited (the
wide view's steps; the phone and presenter views do the switch and the audit). The browser is the tests' (Chromium's
headless shell, V8's optimizers off); nothing here asserts. Run it on a quiet machine: anything else is counted too.

Run from the repository root:  .venv/bin/python -m bench.app.audit_walk_cost [--view wide|phone|presenter]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import time
from collections.abc import Iterator

from bench.suite_cpu import busy_cpu_seconds
from tests.browser import conftest as browser_tests
from tests.browser import test_a11y_browser as walk
from tests.browser.axe_audit import audit

STEPS = ("switch", "screenshot", "expanders", "axe", "tabs")


@contextlib.contextmanager
def spending(steps: collections.Counter, step: str) -> Iterator[None]:
    """Add the machine's busy CPU-seconds during the block to ``steps[step]``."""
    began = busy_cpu_seconds()
    try:
        yield
    finally:
        steps[step] += busy_cpu_seconds() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--view", choices=walk.VIEWS, default="wide")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    wide = args.view == "wide"
    spent: dict[str, dict[str, float]] = {}
    server, base = browser_tests.start_server()
    try:
        with sync_playwright() as playwright:
            browser = browser_tests.launch_browser(
                playwright,
                js_flags=browser_tests.TEST_JS_FLAGS,
                executable=browser_tests.HEADLESS_SHELL,
                extra_args=browser_tests.TEST_BROWSER_ARGS,
            )
            page = browser.new_context(**walk.VIEWS[args.view]).new_page()
            app = browser_tests._app(page, base)
            app.goto(walk.START[args.view])
            app.wait_rendered()
            for path in walk.PAGES:
                steps = spent[path] = collections.Counter()
                with spending(steps, "switch"):
                    walk.show(app, path, as_a_person=wide)
                if wide:
                    with spending(steps, "screenshot"):
                        app.screenshot("audit-walk-cost")
                    with spending(steps, "expanders"):
                        walk.open_every_expander(app)
                with spending(steps, "axe"):
                    audit(page, enhanced_contrast=args.view == "presenter")
                for index in range(page.locator(walk.TABS).count() if wide else 0):
                    tab = page.locator(walk.TABS).nth(index)
                    if tab.get_attribute("aria-selected") == "true":
                        continue
                    with spending(steps, "tabs"):
                        tab.click()
                        app.wait_rendered()
                        walk.open_every_expander(app)
                        audit(page, within=tab.get_attribute("aria-controls"))
            browser.close()
    finally:
        browser_tests.stop_server(server)
    load = os.getloadavg()
    print(f"\nThe {args.view} walk, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average after "
          f"{load[0]:.2f} / {load[1]:.2f}: busy CPU-seconds of the machine per page and step")  # fmt: skip
    print("\n| page | " + " | ".join(STEPS) + " | all |")
    print("|---|" + "---:|" * (len(STEPS) + 1))
    totals: collections.Counter = collections.Counter()
    for path, steps in spent.items():
        totals.update(steps)
        print(f"| {path} | " + " | ".join(f"{steps[s]:.1f}" for s in STEPS) + f" | {sum(steps.values()):.1f} |")
    print("| **all** | " + " | ".join(f"{totals[s]:.1f}" for s in STEPS) + f" | {sum(totals.values()):.1f} |")


if __name__ == "__main__":
    main()
