""" "Your data" in a real Chromium: files chosen through the uploaders' file inputs, as a user's file chooser would.

The page is routed in app.py at /your-data. Expected values come from the CLI on the same sample files.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from metrics.cli.ir_metrics import main as cli_main
from tests.browser.axe_audit import assert_accessible
from tests.browser.conftest import UPLOADER, upload

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data" / "samples"
QRELS, DENSE = SAMPLES / "qrels.txt.gz", SAMPLES / "dense.run.gz"
ALERT = '[data-testid="stAlertContentError"]'


def cli_means(qrels: Path, run: Path) -> dict[str, float]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert cli_main([str(qrels), str(run), "--format", "json"]) == 0
    return json.loads(out.getvalue())["all"]


def open_upload(app) -> None:
    app.goto("your-data")
    app.page.get_by_text("Upload files", exact=True).click()
    app.wait_idle()
    expect(app.page.locator(UPLOADER)).to_have_count(3)  # the run, the qrels, the subtopic qrels (in an expander)


def test_upload_sample_files_shows_the_summary(warm_app):
    open_upload(warm_app)
    upload(warm_app, "Run file", DENSE)
    upload(warm_app, "Qrels file", QRELS)
    warm_app.wait_rendered()
    page = warm_app.page
    expect(page.locator(ALERT)).to_have_count(0)
    expect(page.get_by_text("dense.run.gz: 29,800 lines, 298 queries")).to_be_visible()
    assert warm_app.metric_value("Queries evaluated") == "294"
    assert warm_app.metric_value("Only in the qrels") == "6"
    expect(page.get_by_role("heading", name="Means")).to_be_visible()
    summary = page.locator('[data-testid="stDataFrame"]').filter(
        has=page.locator('[role="columnheader"]', has_text="measure")
    )
    expect(summary).to_have_count(1)
    # The grid draws on a canvas; its accessible table mirrors the cells.
    ndcg = f"{cli_means(QRELS, DENSE)['NDCG@10']:.4f}"
    expect(summary.locator('[role="gridcell"]', has_text=ndcg)).to_have_count(1)
    warm_app.screenshot("your_data")
    assert_accessible(page, "Evaluate a run, uploaded files scored")
    assert not warm_app.errors


def test_bad_run_shows_its_line_and_keeps_the_qrels(warm_app):
    open_upload(warm_app)
    upload(warm_app, "Qrels file", QRELS)
    bad = {"name": "bad.run", "mimeType": "text/plain", "buffer": b"1001 Q0 D1 1 2.5 x\n1001 Q0 D2 2 high x\n"}
    upload(warm_app, "Run file", bad)
    page = warm_app.page
    expect(page.locator(ALERT)).to_have_count(1)
    expect(page.locator(ALERT)).to_contain_text("bad.run, line 2: score 'high' is not a number")
    expect(page.get_by_text("qrels.txt.gz: 10,340 judgments, 300 queries")).to_be_visible()
    expect(page.get_by_text("Load a run and its qrels to see the scores.")).to_be_visible()
    expect(page.get_by_text("Traceback")).to_have_count(0)
    warm_app.screenshot("your_data_bad_run")
    assert_accessible(page, "Evaluate a run, a bad run file")
    assert not warm_app.errors
