"""A brand-new visitor sees the numbers and the ranked list before any chart, and nothing above the charts moves
when they arrive (issue 17, part 1; ir_metrics_lab/shell/first_paint.py). The list lives in a shadow root, out of the
observer's reach; the metric cards sit above it. The timings themselves are bench/app/first_visit.py's."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError

from ir_metrics_lab.shell.first_paint import PRELOAD_KEY
from tests.browser.axe_audit import assert_accessible
from tests.browser.conftest import IDLE_TIMEOUT_MS, PHONE, RENDERED_JS, close_other_tabs, wait_idle
from tests.browser.test_routing_browser import ADDRESSES, RECORD_DIALOGS, SCENARIO, shows_its_page

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


@pytest.mark.parametrize("path", ["/", "/swap-heatmap"])  # the Swap heatmap's picker above the number arrives later
def test_a_new_visitor_gets_numbers_and_list_first_and_charts_after_without_moving_them(browser, app_server, path):
    context = browser.new_context(viewport={"width": 1440, "height": 900})  # no cache: a new visitor
    try:
        context.add_init_script(WATCH)
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(app_server + path)
        wait_idle(page, 90_000)  # the second run included
        page.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', timeout=90_000)
        seen = page.evaluate("window.__seen")
        assert seen["metric"] is not None and seen["chart"] is not None, seen
        assert seen["metric"] < seen["chart"], seen
        top_now = page.locator('[data-testid="stMetricValue"]').first.bounding_box()["y"]
        assert abs(top_now - seen["metricTop"]) <= 1, (top_now, seen)  # the charts below moved nothing above
    finally:
        context.close()


LESSON_WATCH = """
(() => {
  const seen = (window.__lesson = { metric: null, latexAtMetric: null, codeAtMetric: null, roomsAtMetric: null,
    topBeforeFormulas: null });
  // Formulas on the page, not first_paint.preload's (it only fetches KaTeX's code, and is hidden by the app's CSS,
  // which may apply after the first number on a loaded machine).
  const formulas = () => [...document.querySelectorAll(".katex")]
    .filter((el) => el.checkVisibility() && !el.closest(".st-key-__PRELOAD__")).length;
  new MutationObserver(() => {
    const metric = document.querySelector('[data-testid="stMetricValue"]');
    if (!metric || !metric.textContent.trim()) return;
    if (seen.metric === null) {
      seen.metric = performance.now();
      seen.latexAtMetric = formulas();
      seen.codeAtMetric = document.querySelectorAll('[data-testid="stCode"]').length;
      seen.roomsAtMetric = document.querySelectorAll('[class*="st-key-formula_first_paint"]').length;
    }
    // Where the first run left the first number, up to the moment the formulas arrive.
    if (!formulas()) seen.topBeforeFormulas = metric.getBoundingClientRect().top + window.scrollY;
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();
""".replace("__PRELOAD__", PRELOAD_KEY)


def test_a_new_visitor_gets_a_lessons_numbers_before_its_formulas_and_code_in_their_room(browser, app_server):
    """A lesson's first run draws no KaTeX and no code box (their chunks held the first number back): each formula
    is an empty box of its estimated height, and the formulas that arrive next move the numbers by a few px at most
    (ir_metrics_lab.shell.first_paint.formula_height is within 14 px of each formula, and errors partly cancel)."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        context.add_init_script(LESSON_WATCH)
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(app_server + "/ndcg")
        wait_idle(page, 90_000)  # the second run included
        page.locator(".katex >> visible=true").first.wait_for(timeout=90_000)
        seen = page.evaluate("window.__lesson")
        assert seen["metric"] is not None, seen
        assert seen["latexAtMetric"] == 0 and seen["codeAtMetric"] == 0, seen
        assert seen["roomsAtMetric"] >= 3, seen  # step 1's three definitions, at least
        assert page.locator('[class*="st-key-formula_first_paint"]').count() == 0
        metric = page.locator('[data-testid="stMetricValue"]').first
        top_now = metric.evaluate("(el) => el.getBoundingClientRect().top + window.scrollY")
        assert abs(top_now - seen["topBeforeFormulas"]) <= 6, (top_now, seen)
    finally:
        context.close()


ROOMS_WATCH = """
(() => {
  // Each part a new visitor's first run leaves for the next (first_paint.later) is an empty box keyed
  // <key>_first_paint: its height as drawn, by key.
  const rooms = (window.__rooms = {});
  // The step headings on the page when its first number is drawn (ir_metrics_lab.shell.first_paint.rest_next_run).
  window.__headingsAtNumber = null;
  new MutationObserver(() => {
    const number = document.querySelector('[data-testid="stMetricValue"]');
    if (window.__headingsAtNumber === null && number && number.textContent.trim()) {
      window.__headingsAtNumber = [...document.querySelectorAll('[data-testid="stMain"] h3')].map((h) => h.innerText);
    }
    for (const box of document.querySelectorAll('[class*="_first_paint"]')) {
      const key = (box.className.match(/st-key-(\\S+)_first_paint/) || [])[1];
      const height = box.getBoundingClientRect().height;
      if (key && height) rooms[key] = height;
    }
  }).observe(document, { childList: true, subtree: true });
})();
"""
ROOM_VIEWS = {  # the layouts whose rooms differ: a laptop, a phone (columns stacked), a projector (larger type)
    "wide": ({"viewport": {"width": 1440, "height": 900}}, ""),
    "phone": ({"viewport": {"width": 390, "height": 844}, **PHONE}, ""),
    "presenter": ({"viewport": {"width": 1920, "height": 1080}}, "?presenter=1"),
}
ROOM_PAGES = {"/": {"pg_example_picker", "pg_list_controls"}, "/a-vs-b": {"ab_controls", "ab_chart_picker"},
              "/your-data": {"yd_source_picker", "yd_sample_picker", "yd_measure_pickers", "yd_complete_switch"},
              "/ndcg": {"lesson_ndcg_k_slider"},
              "/multi-query": {"multi_query_controls", "multi_query_edge_cases"},
              "/unjudged": {"lesson_unjudged_picker", "lesson_unjudged_list"},
              "/precision-recall": {"lesson_pr_k_slider"}, "/user-models": {"lesson_user_models_p_slider"},
              "/diversity": {"lesson_diversity_aspect_editor", "lesson_diversity_alpha_slider"},
              "/swap-heatmap": {"swap_metric_picker"}, "/quiz": {"quiz_seed_box", "quiz_next_set"},
              "/pr-curve": {"lesson_pr_curve_level_picker", "lesson_pr_curve_steps"},
              "/compare": {"cmp_source_picker", "cmp_runs_picker", "cmp_measures_picker", "cmp_board_settings",
                           "cmp_board_exports", "cmp_view_settings", "cmp_win_tie_loss", "cmp_pair_pickers",
                           "cmp_holm_switch", "cmp_summary", "cmp_metric_picker"},
              "/why-tools-differ": {"td_source_picker", "td_sample_picker", "td_choices"}}  # fmt: skip

# Presenter mode's own parts left for later: the menu of pages on every page, the Playground's settings (no sidebar).
PRESENTER_ROOMS = {path: {"presenter_menu"} | ({"pg_presenter_settings"} if path in ("/", "/playground") else set())
                   for path in ADDRESSES}  # fmt: skip


# A lesson's step below its first numbers, which a new visitor's first run leaves for the next: it ends the page
# there (ir_metrics_lab.shell.first_paint.rest_next_run), since every element below held the numbers back.
STEP_AFTER_NUMBERS = {"/precision-recall": "3. Recall vs capped recall when R > k",
                      "/user-models": "2. The residual: what is still unknown",
                      "/diversity": "2. Rank by rank: new aspects and repeats"}  # fmt: skip


def visits(view: str) -> list[tuple[str, str]]:
    """(path, query) of the first visits each view makes: the pages with rooms; in presenter mode every address the
    app routes, with a scenario in the link (tests/browser/test_routing_browser.py: each opens its own page with no
    "Page not found" dialog); on the wide screen the Playground's alias too."""
    query = ROOM_VIEWS[view][1]
    if view == "presenter":
        return [(path, f"{query}&{SCENARIO}") for path in ADDRESSES]
    extra = ["/playground"] if view == "wide" else []
    return [(path, query) for path in [*ROOM_PAGES, *extra]]


@pytest.mark.parametrize("view", ROOM_VIEWS)
def test_a_first_visit_opens_its_page_and_each_part_left_for_later_arrives_in_a_room_of_its_height(
    browser, app_server, view
):
    """A new session's first run, by the address typed or shared, draws that page with no "Page not found" dialog at any
    moment; the settings, pickers and buttons it leaves out (their code held the numbers back) wait in empty boxes of
    their height (ir_metrics_lab.shell.first_paint.Room): when they arrive, nothing around them moves. In presenter
    mode, once it is all drawn, axe finds no violation with text at 7:1 (tests/browser/test_a11y_browser.py audits the
    other views)."""
    options = ROOM_VIEWS[view][0]
    # Every page in a new tab of one context: each tab is a new session (its first run leaves the parts out), and the
    # browser fetches the app's code once instead of once per page. Each tab stays open until the next is done, so that
    # one shares its renderer process and compiled code (conftest.TEST_BROWSER_ARGS).
    context = browser.new_context(**options)
    try:
        context.add_init_script(ROOMS_WATCH)
        context.add_init_script(RECORD_DIALOGS)
        for path, query in visits(view):
            page = context.new_page()
            page.set_default_timeout(30_000)
            errors: list[str] = []
            page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
            page.goto(app_server + path + query)
            wait_idle(page, 90_000)  # the second run included
            keys = ROOM_PAGES.get(path, set()) | (PRESENTER_ROOMS.get(path, set()) if view == "presenter" else set())
            rooms = page.evaluate("window.__rooms")
            assert set(rooms) >= keys, (path, rooms)
            for key in keys:  # once mounted (a widget's code may still be arriving), the part fills its room
                # Its content's height: the run after the first paint keeps the box at the room's height.
                matches = f"""() => {{
                    const part = document.querySelector(".st-key-{key}");
                    const kids = part ? [...part.children].map((c) => c.getBoundingClientRect()) : [];
                    const shown = kids.filter((r) => r.height > 0);
                    if (!shown.length) return false;
                    const height = Math.max(...shown.map((r) => r.bottom)) - Math.min(...shown.map((r) => r.top));
                    return Math.abs(height - {rooms[key]}) <= 2;
                }}"""
                try:
                    page.wait_for_function(matches, timeout=IDLE_TIMEOUT_MS)  # a loaded box: 10 s was too short
                except TimeoutError:
                    drawn = page.locator(f".st-key-{key}").bounding_box()
                    raise AssertionError((view, path, key, rooms[key], drawn)) from None
            if path in STEP_AFTER_NUMBERS:
                step = STEP_AFTER_NUMBERS[path]
                assert step not in page.evaluate("window.__headingsAtNumber"), (view, path)
                assert page.locator("h3", has_text=step).count() == 1, (view, path)
            assert page.evaluate("window.__dialogs") == [], (view, path + query)
            heading = page.locator("h1").first.inner_text().strip()
            assert shows_its_page(path, heading), (view, path + query, heading)
            if view == "presenter":
                page.wait_for_function(RENDERED_JS, timeout=90_000)
                assert_accessible(page, f"{path} (presenter, first visit)", enhanced_contrast=True)
            assert errors == [], (view, path, errors)
            close_other_tabs(page)
    finally:
        context.close()
