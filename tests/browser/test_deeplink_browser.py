"""Deep links open their page with no "Page not found" dialog, on a freshly started server too (issue 11, item 4).

A fresh server's first session goes through Streamlit's legacy pages/ router, which reports /your-data as missing
before app.py's st.navigation runs the right page (ui.deeplink explains it). Each test here that needs that first
session starts its own server: the session-wide one has been opened already.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, start_server, stop_server, wait_idle

pytestmark = pytest.mark.browser

DIALOG = '[role="dialog"]'
SETTLE_S = 1.5  # the dialog, when sent, mounts within a few hundred ms of the page


@pytest.fixture
def fresh_server() -> Iterator[str]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    proc, base = start_server(ARTIFACTS / "streamlit-fresh-server.log")
    try:
        yield base
    finally:
        stop_server(proc)


def open_link(browser, url: str):
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    wait_idle(page)
    time.sleep(SETTLE_S)
    return context, page


def test_a_deep_link_on_a_fresh_server_opens_its_page_without_a_dialog(browser, fresh_server):
    context, page = open_link(browser, fresh_server + "/your-data")
    try:
        expect(page.locator(DIALOG)).to_have_count(0)
        expect(page.locator("h1").first).to_have_text("Evaluate a run")
        page.get_by_role("link", name="Quiz").click()  # the page is usable: nothing covers it
        wait_idle(page)
        expect(page.locator("h1").first).to_have_text("Quiz")
    finally:
        context.close()


def test_a_link_named_like_a_page_file_opens_inside_the_app_on_a_fresh_server(browser, fresh_server):
    # /playground matches pages/playground.py: the legacy router would run that file alone, without app.py's frame
    context, page = open_link(browser, fresh_server + "/playground?docs=a,b&grades=1,0&k=2")
    try:
        expect(page.locator(DIALOG)).to_have_count(0)
        expect(page.locator("h1").first).to_have_text("Playground")
        expect(page.get_by_role("link", name="Retriever A vs B")).to_be_visible()  # the app's navigation
        expect(page.get_by_role("link", name="lesson ap")).to_have_count(0)  # not the legacy file list
    finally:
        context.close()


def test_a_mistyped_link_still_says_page_not_found(browser, app_server):
    context, page = open_link(browser, app_server + "/no-such-page")
    try:
        expect(page.locator(DIALOG)).to_have_count(1)
        expect(page.locator(DIALOG)).to_contain_text("Page not found")
    finally:
        context.close()
