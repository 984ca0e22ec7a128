"""Every page of the navigation opens in a real Chromium without an exception, with a screenshot for review."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_app_opens_without_exception(app):
    app.goto("/")
    expect(app.page.locator('[data-testid="stException"]')).to_have_count(0)
    expect(app.page.locator("h1")).not_to_have_count(0)
    app.screenshot("home")
    assert app.errors == []
