"""A brand-new visitor sees the numbers and the ranked list before any chart, and nothing above the charts moves
when they arrive (issue 17, part 1; ui/first_paint.py). The list lives in a shadow root, out of the observer's
reach; the metric cards sit above it. The timings themselves are bench/first_visit.py's."""

from __future__ import annotations

import pytest

from tests.browser.conftest import wait_idle

pytestmark = pytest.mark.browser

WATCH = """
(() => {
  const seen = (window.__seen = { metric: null, chart: null, metricTop: null });
  new MutationObserver(() => {
    const metric = document.querySelector('[data-testid="stMetricValue"]');
    if (seen.metric === null && metric && metric.textContent.trim()) {
      seen.metric = performance.now();
      seen.metricTop = metric.getBoundingClientRect().top;
    }
    if (seen.chart === null && document.querySelector('[data-testid="stPlotlyChart"]')) seen.chart = performance.now();
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();
"""


def test_a_new_visitor_gets_numbers_and_list_first_and_charts_after_without_moving_them(browser, app_server):
    context = browser.new_context(viewport={"width": 1440, "height": 900})  # no cache: a new visitor
    try:
        context.add_init_script(WATCH)
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(app_server + "/")
        wait_idle(page, 90_000)  # the second run included
        page.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', timeout=90_000)
        seen = page.evaluate("window.__seen")
        assert seen["metric"] is not None and seen["chart"] is not None, seen
        assert seen["metric"] < seen["chart"], seen
        top_now = page.locator('[data-testid="stMetricValue"]').first.bounding_box()["y"]
        assert abs(top_now - seen["metricTop"]) <= 1, (top_now, seen)  # the charts below moved nothing above
    finally:
        context.close()
