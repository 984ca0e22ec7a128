"""The pages in a real Chromium: every promised page is routed, the Playground's list follows the user to a lesson
and back, and A vs B's deep link. tests/browser/test_a11y_browser.py clicks every navigation link on the wide view:
each page opens without an exception and is screenshotted into tests/artifacts/.

The pages are read from app.py's ``st.Page(...)`` calls, so a new route is covered without editing this file.
"""

from __future__ import annotations

import ast
import re
import time
from math import log2
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.conftest import ACTION_TIMEOUT_MS, assert_healthy

pytestmark = pytest.mark.browser

WAIT_MS = ACTION_TIMEOUT_MS
APP_PY = Path(__file__).resolve().parents[2] / "app.py"
# The pages the product promises; each must be routed.
REQUIRED = {
    "Playground",
    "Retriever A vs B",
    "Multi-query",
    "Precision & recall",
    "Reciprocal rank",
    "Average precision",
    "DCG & NDCG",
}


def routes() -> list[tuple[str, str, bool]]:
    """(title, url path, default?) of every st.Page in app.py that the sidebar shows, in order (a hidden page, such
    as the /playground alias, has no sidebar link: tests/browser/test_routing_browser.py opens it by address)."""
    found = []
    for node in ast.walk(ast.parse(APP_PY.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Page":
            kw = {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}
            if kw.get("visibility") != "hidden":
                found.append((kw["title"], kw.get("url_path", ""), bool(kw.get("default", False))))
    return found


ROUTES = routes()


def test_every_promised_page_is_routed():
    routed = {title for title, _, _ in ROUTES}
    assert not REQUIRED - routed, f"not routed in app.py: {sorted(REQUIRED - routed)}"
    assert [title for title, _, default in ROUTES if default] == ["Playground"]


NAV = ".st-key-irlab_nav"  # the app's own page links (ir_metrics_lab/shell/navigation.py)


def open_from_sidebar(app, title: str) -> None:
    """Click the sidebar link to ``title``, as a person would. Retried briefly: the sidebar is redrawn after each
    page run."""
    nav = app.page.locator(NAV)
    link = nav.get_by_role("link", name=re.compile(rf"(^|\s){re.escape(title)}$"))
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        try:
            if link.is_visible():
                link.click(timeout=2_000)
                return
        except PlaywrightError:
            pass  # redrawn under the click: look again
        if time.monotonic() > deadline:
            raise AssertionError(f"no sidebar link {title!r}: {nav.inner_text()!r}")
        app.page.wait_for_timeout(100)


def url_re(path: str, default: bool):
    # The default page lives at "/"; pages may add their state as query parameters.
    return re.compile(rf"/{'' if default else re.escape(path)}(\?.*)?$")


def test_the_playground_list_follows_the_user_to_a_lesson_and_back(warm_app):
    """Plain session keys survive page switches: the NDCG lesson works on the list as left on the Playground."""
    app = warm_app
    page = app.page
    app.goto("/")
    lst = page.locator('ul[data-testid="ranked-list"][data-list="pg_list"]')
    lst.locator('li[data-doc-id="d1"] button[data-action="down"]').click()
    expect(lst.locator("li[data-doc-id]").first).to_have_attribute("data-doc-id", "d2", timeout=WAIT_MS)
    app.wait_idle()
    # d1 at rank 2: d2, d1, d3, d4, d5 with grades 2, 3, 3, 0, 1.
    dcg = 2 / log2(2) + 3 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)
    idcg = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6)
    expected = f"{dcg / idcg:.4f}"  # 0.9140

    open_from_sidebar(app, "DCG & NDCG")
    expect(page).to_have_url(url_re("ndcg", False), timeout=WAIT_MS)
    app.wait_idle()
    assert_healthy(app)
    # The lesson's first NDCG@5 card ("2. Your list") is the playground list's.
    expect(app.metric("NDCG@5").first.locator('[data-testid="stMetricValue"]')).to_have_text(expected)

    open_from_sidebar(app, "Playground")
    expect(page).to_have_url(url_re("", True), timeout=WAIT_MS)
    app.wait_idle()
    expect(lst.locator("li[data-doc-id]")).to_have_count(5, timeout=WAIT_MS)
    order = [li.get_attribute("data-doc-id") for li in lst.locator("li[data-doc-id]").all()]
    assert order == ["d2", "d1", "d3", "d4", "d5"]
    expect(app.metric("NDCG@5").locator('[data-testid="stMetricValue"]')).to_have_text(expected, timeout=WAIT_MS)


AB_TABLE = '[data-testid="stMarkdownContainer"] table'


def table_rows(app) -> dict[str, list[str]]:
    """The A-vs-B comparison table (Markdown, drawn as an HTML table): {metric: [A, B, verdict]}."""
    out: dict[str, list[str]] = {}
    for row in app.page.locator(AB_TABLE + " tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        if len(cells) >= 4:
            out[cells[0]] = cells[1:]
    return out


def test_a_vs_b_deep_link_ties_on_precision_but_not_on_rr_and_ap(warm_app):
    app = warm_app
    app.goto("/a-vs-b")  # a deep link, in a new session
    app.wait_rendered()
    assert_healthy(app)
    # Both lists hold n1, n2, n3, r1, r2 with r1 and r2 relevant (R = 2).
    # A = n1, n2, r1, r2, n3: relevant at ranks 3 and 4.  B = r1, r2, n1, n2, n3: relevant at ranks 1 and 2.
    expected = {
        "P@5": (2 / 5, 2 / 5),
        "RR": (1 / 3, 1 / 1),
        "AP": ((1 / 3 + 2 / 4) / 2, (1 / 1 + 2 / 2) / 2),
    }
    for side, ids in (("A", ["n1", "n2", "r1", "r2", "n3"]), ("B", ["r1", "r2", "n1", "n2", "n3"])):
        cards = app.page.locator(f'ul[data-testid="ranked-list"][data-list="ab_list_{side}"] li[data-doc-id]')
        assert [c.get_attribute("data-doc-id") for c in cards.all()] == ids

    expect(app.page.locator(AB_TABLE + " td").first).to_be_attached(timeout=WAIT_MS)
    rows = table_rows(app)
    for metric, (a, b) in expected.items():
        assert rows[metric][:2] == [f"{a:.4f}", f"{b:.4f}"], (metric, rows[metric])
    assert rows["P@5"][0] == rows["P@5"][1]
    assert rows["RR"][0] != rows["RR"][1]
    assert rows["AP"][0] != rows["AP"][1]
