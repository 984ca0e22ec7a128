"""Every page of the navigation opens in a real Chromium without an exception; screenshots go to tests/artifacts/.

Screenshots are artifacts for a person to look at (one per page), not compared pixel by pixel.
"""

from __future__ import annotations

import re
from math import log2

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WAIT_MS = 15_000
# (sidebar title, url path, the page's h1). The default page (Playground) is served at "/".
PAGES = [
    ("Playground", "", "Playground"),
    ("Retriever A vs B", "a-vs-b", "Retriever A vs B"),
    ("Multi-query", "multi-query", None),
    ("Precision & recall", "precision-recall", None),
    ("Reciprocal rank", "reciprocal-rank", None),
    ("Average precision", "average-precision", None),
    ("DCG & NDCG", "ndcg", None),
]


@pytest.fixture
def app(warm_app):
    """A fresh session per test; the shared browser context keeps the frontend bundles cached."""
    return warm_app


def assert_healthy(app) -> None:
    page = app.page
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    expect(page.get_by_text("Page not found")).to_have_count(0)
    expect(page.locator("h1").first).to_be_visible()
    assert app.errors == [], f"uncaught errors in the page: {app.errors}"


@pytest.mark.parametrize(("title", "path", "h1"), PAGES, ids=[p[1] or "playground" for p in PAGES])
def test_page_opens_without_exception(app, title, path, h1):
    app.goto("/" + path)
    app.wait_rendered()
    assert_healthy(app)
    if h1:
        expect(app.page.locator("h1").first).to_have_text(h1)
    # The sidebar marks the open page.
    current = app.page.locator('[data-testid="stSidebarNav"] a[aria-current="page"]')
    expect(current).to_contain_text(title)
    app.screenshot(path or "playground")


def test_sidebar_navigation_reaches_every_page_and_keeps_the_playground_list(app):
    page = app.page
    app.goto("/")
    lst = page.locator('ul[data-testid="ranked-list"][data-list="pg_list"]')
    lst.locator('li[data-doc-id="d1"] button[data-action="down"]').click()
    expect(lst.locator("li[data-doc-id]").first).to_have_attribute("data-doc-id", "d2", timeout=WAIT_MS)
    app.wait_idle()

    nav = page.locator('[data-testid="stSidebarNav"]')
    for title, path, _ in [*PAGES[1:], PAGES[0]]:
        nav.get_by_role("link", name=re.compile(rf"{re.escape(title)}$")).click()
        expect(page).to_have_url(re.compile(rf"/{re.escape(path)}$"), timeout=WAIT_MS)
        app.wait_idle()
        assert_healthy(app)

    # Back on the playground, d1 is still at rank 2: d2, d1, d3, d4, d5 with grades 2, 3, 3, 0, 1.
    expect(lst.locator("li[data-doc-id]").first).to_have_attribute("data-doc-id", "d2", timeout=WAIT_MS)
    dcg = 2 / log2(2) + 3 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)
    idcg = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6)
    value = app.metric("NDCG@5").locator('[data-testid="stMetricValue"]')
    expect(value).to_have_text(f"{dcg / idcg:.4f}", timeout=WAIT_MS)


def table_rows(app) -> dict[str, list[str]]:
    """The A-vs-B comparison table (a canvas grid) read through its accessible DOM: {metric: [A, B, verdict]}."""
    rows = app.page.locator('[data-testid="stDataFrame"] [role="row"]')
    out: dict[str, list[str]] = {}
    for row in rows.all():
        cells = [c.strip() for c in row.locator('[role="gridcell"]').all_inner_texts()]
        if len(cells) >= 4:
            out[cells[0]] = cells[1:]
    return out


def test_a_vs_b_ties_on_precision_but_not_on_rr_and_ap(app):
    app.goto("/a-vs-b")
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

    expect(app.page.locator('[data-testid="stDataFrame"] [role="gridcell"]').first).to_be_attached(timeout=WAIT_MS)
    rows = table_rows(app)
    for metric, (a, b) in expected.items():
        assert rows[metric][:2] == [f"{a:.4f}", f"{b:.4f}"], (metric, rows[metric])
    assert rows["P@5"][0] == rows["P@5"][1]
    assert rows["RR"][0] != rows["RR"][1]
    assert rows["AP"][0] != rows["AP"][1]
