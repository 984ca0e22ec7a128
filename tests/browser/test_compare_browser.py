"""The compare page in a real Chromium with uploaded files (issue 11, item 1): the "Metrics to compare" box shows the
metrics in use, and the results survive every later click (the correction switch, "Open in playground").

Streamlit skips its stale-widget cleanup when a run ends in ``st.stop()``: the browser forgets a widget the run did
not draw while the server keeps its value, so a box redrawn later looked empty while its old value was used. Only a
browser shows that; AppTest has no frontend.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
UPLOADER = '[data-testid="stFileUploader"]'
MULTISELECT = '[data-testid="stMultiSelect"]'


def upload(app, label: str, *paths: Path) -> None:
    box = app.page.locator(UPLOADER).filter(has=app.page.get_by_text(label, exact=True))
    box.locator('input[type="file"]').set_input_files(list(paths))
    app.wait_idle()


def metrics_box(app):
    return app.page.locator(MULTISELECT).filter(has=app.page.get_by_text("Metrics to compare", exact=True))


def test_uploaded_results_survive_every_click(warm_app):
    app, page = warm_app, warm_app.page
    app.goto("compare")
    page.get_by_text("Upload files", exact=True).click()
    app.wait_idle()
    upload(app, "Run A", SAMPLES / "bm25.run.gz")
    upload(app, "Run B", SAMPLES / "dense.run.gz")
    upload(app, "Qrels", SAMPLES / "qrels.txt.gz")
    app.wait_rendered()
    for name in ("NDCG@10", "AP", "RR@10"):  # the box shows what the results use
        expect(metrics_box(app).get_by_text(name, exact=True)).to_be_visible()
    page.get_by_text("Holm correction for testing several metrics").click()
    app.wait_rendered()
    expect(page.get_by_text("Pick at least one metric")).to_have_count(0)
    expect(metrics_box(app).get_by_text("AP", exact=True)).to_be_visible()
    page.get_by_role("button", name="Open in playground").click()
    app.wait_idle()
    expect(page.locator("h1").first).to_have_text("Playground")
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_contain_text("Opened query")
    assert not app.errors
