"""Shared links and export in a real Chromium: a link opened in a fresh browser context shows the same numbers.

Expected values are trec_eval's (tests/data/golden_public.json) or hand arithmetic written out here.
"""

from __future__ import annotations

from math import log2

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ACTION_TIMEOUT_MS, download
from tests.golden import PUBLIC

pytestmark = pytest.mark.browser

WAIT_MS = ACTION_TIMEOUT_MS
GOLDEN = {case["id"]: case["expected"] for case in PUBLIC}
IDCG_LINK = "/?docs=d1,d2,d3,d4,d5&grades=3,2,3,0,1&missing=d9:3&k=5"  # pub-seed001-idcg-from-all-qrels
LIST = 'ul[data-testid="ranked-list"][data-list="pg_list"]'
METRICS = ("NDCG@5", "AP", "RR", "DCG@5", "IDCG@5", "P@5", "R@5", "R_cap@5", "F1@5", "HitRate@5")


def golden(case: str, metric: str) -> str:
    return f"{GOLDEN[case][metric]['mean']:.4f}"


def expect_metric(app, label: str, value: str) -> None:
    expect(app.metric(label).locator('[data-testid="stMetricValue"]')).to_have_text(value, timeout=WAIT_MS)


def open_share_panel(app):
    app.page.get_by_text("Share, export, present").click()
    code = app.page.locator('[data-testid="stExpander"] [data-testid="stCode"] code')
    expect(code).to_have_count(1, timeout=WAIT_MS)
    return code


def no_trouble(app) -> None:
    """No "Page not found" modal, no script error, no exception box."""
    assert app.dialogs == [] and app.errors == []
    expect(app.page.locator('[data-testid="stException"]')).to_have_count(0)
    expect(app.page.get_by_text("Page not found")).to_have_count(0)


def test_shared_link_shows_the_golden_numbers_in_a_fresh_browser(app):
    # `app` is a brand-new browser context: no session, cookies or cache from any other test.
    app.goto(IDCG_LINK)
    case = "pub-seed001-idcg-from-all-qrels"
    expect_metric(app, "NDCG@5", golden(case, "NDCG@5"))
    assert app.metric_value("NDCG@5") == "0.8047"  # IDCG over every judged grade: 3, 3, 3, 2, 1
    assert app.metric_value("R@5") == golden(case, "R@5") == "0.8000"  # d9 (grade 3) was never retrieved
    assert app.metric_value("AP") == golden(case, "AP") == "0.7600"
    expect(app.page.get_by_role("button", name="Retrieve", exact=True)).to_have_count(1)  # d9 sits on the shelf
    no_trouble(app)
    code = open_share_panel(app)
    expect(code).to_have_text(app.base_url + IDCG_LINK)
    assert "docs=d1" in app.page.url and "missing=d9" in app.page.url.replace("%3A", ":")
    app.wait_rendered()
    app.screenshot("share")


def test_copied_link_reproduces_an_edited_list(warm_app, app):
    warm_app.goto("/")
    expect_metric(warm_app, "NDCG@5", "0.9724")
    warm_app.page.locator(f'{LIST} li[data-doc-id="d1"] button[data-action="down"]').click()
    # d1 down one: grades 2, 3, 3, 0, 1; IDCG from 3, 3, 2, 1, 0.
    dcg = 2 / log2(2) + 3 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)
    idcg = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6)
    expect_metric(warm_app, "NDCG@5", f"{dcg / idcg:.4f}")
    warm_app.wait_idle()
    code = open_share_panel(warm_app)
    expect(code).to_contain_text("docs=d2,d1,d3,d4,d5&grades=2,3,3,0,1", timeout=WAIT_MS)
    link = code.inner_text().strip()
    shown = {label: warm_app.metric_value(label) for label in METRICS}

    app.page.goto(link)  # a different, fresh browser context
    app.wait_idle()
    expect_metric(app, "NDCG@5", f"{dcg / idcg:.4f}")
    assert {label: app.metric_value(label) for label in METRICS} == shown
    no_trouble(app)


def test_worked_solution_downloads_as_markdown(warm_app):
    warm_app.goto(IDCG_LINK)
    expect_metric(warm_app, "NDCG@5", "0.8047")
    open_share_panel(warm_app)
    worked = download(warm_app.page, warm_app.page.get_by_role("button", name="Worked solution (.md)"))
    assert worked.suggested_filename == "ir-metrics-scenario.md"
    with open(worked.path(), encoding="utf-8") as f:
        text = f.read()
    dcg = 3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)
    idcg = 3 / log2(2) + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 1 / log2(6)  # every judged grade, d9 included
    assert (f"{dcg:.4f}", f"{idcg:.4f}", f"{dcg / idcg:.4f}") == ("6.1487", "7.6410", "0.8047")
    assert r"\mathrm{NDCG@5} &= \frac{6.1487}{7.6410} = 0.8047" in text
    assert "| not retrieved | d9 |" in text
    numbers = download(warm_app.page, warm_app.page.get_by_role("button", name="Numbers (.csv)"))
    assert numbers.suggested_filename == "ir-metrics-scenario.csv"


def test_a_tampered_link_warns_and_loads_the_rest(app):
    app.goto("/?docs=d1,d2,d3,d4,d5&grades=3,2,abc,0,1&k=-1&colour=red")
    warning = app.page.locator('[data-testid="stAlertContentWarning"]')
    expect(warning).to_contain_text("Link key 'grades'", timeout=WAIT_MS)
    expect(warning).to_contain_text("Link key 'k'")
    expect(warning).to_contain_text("Link key 'colour'")
    # d3's grade fell back to 0 and k to 5: grades 3, 2, 0, 0, 1; ideal 3, 2, 1.
    dcg = 3 / log2(2) + 2 / log2(3) + 1 / log2(6)
    idcg = 3 / log2(2) + 2 / log2(3) + 1 / log2(4)
    expect_metric(app, "NDCG@5", f"{dcg / idcg:.4f}")
    assert "colour" not in app.page.url  # the address bar is a clean link again
    no_trouble(app)
