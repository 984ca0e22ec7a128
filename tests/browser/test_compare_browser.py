"""The compare page in a real Chromium with uploaded files.

Issue 11, item 1: the "Metrics to compare" box shows the metrics in use, and the results survive every later click
(the correction switches, "Open in playground"). Streamlit skips its stale-widget cleanup when a run ends in
``st.stop()``: the browser forgot a widget that run did not draw while the server kept its value, so the box redrawn
later looked empty while its old value was used, and the next click sent the empty box. Only a browser shows that;
AppTest has no frontend.

Issue 12: three runs uploaded at once make a three-row leaderboard, and its exports download.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from metrics.cli.ir_metrics_compare import main as leaderboard_cli
from tests.browser.axe_audit import assert_accessible
from tests.browser.conftest import IDLE_TIMEOUT_MS, download, upload

pytestmark = pytest.mark.browser

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
RUNS = [SAMPLES / f"{name}.run.gz" for name in ("bm25", "dense", "rrf")]
QRELS = SAMPLES / "qrels.txt.gz"
MULTISELECT = '[data-testid="stMultiSelect"]'


def metrics_box(app):
    return app.page.locator(MULTISELECT).filter(has=app.page.get_by_text("Metrics to compare", exact=True))


def open_with_uploads(app) -> None:
    app.goto("compare")
    app.page.get_by_text("Upload files", exact=True).click()
    app.wait_idle()
    upload(app, "Runs (two or more)", *RUNS)
    upload(app, "Qrels", QRELS)
    app.wait_rendered()


def cli_json() -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert leaderboard_cli([str(QRELS), *map(str, RUNS), "--format", "json"]) == 0
    return json.loads(out.getvalue())


def test_uploaded_results_survive_every_click(warm_app):
    app, page = warm_app, warm_app.page
    open_with_uploads(app)
    for name in ("NDCG@10", "AP", "RR@10"):  # the box shows what the results use
        expect(metrics_box(app).get_by_text(name, exact=True)).to_be_visible()
    page.get_by_text("Bonferroni", exact=True).click()
    app.wait_rendered()
    page.get_by_text("Holm correction for testing several metrics").click()
    app.wait_rendered()
    expect(page.get_by_text("Pick at least one metric")).to_have_count(0)
    expect(page.get_by_text("Bonferroni-corrected over the 3 pairs of runs", exact=False)).to_be_visible()
    expect(metrics_box(app).get_by_text("AP", exact=True)).to_be_visible()
    assert_accessible(page, "Compare runs, three uploaded runs compared")
    page.get_by_role("button", name="Open in playground").click()
    app.wait_idle()
    expect(page.locator("h1").first).to_have_text("Playground")
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_contain_text("Opened query")
    assert not app.errors


def test_three_uploaded_runs_make_a_leaderboard_and_export_it(warm_app):
    app, page = warm_app, warm_app.page
    open_with_uploads(app)
    expected = cli_json()
    board = page.locator('[data-testid="stMarkdownContainer"] table').first  # the leaderboard: the page's first table
    expect(board.locator("tbody tr")).to_have_count(3, timeout=IDLE_TIMEOUT_MS)  # a loaded box: seconds per rerun
    for row in expected["runs"]:
        expect(board.locator("td", has_text=f"{row['letter']} · {row['run']}")).to_have_count(1)
        mean = f"{row['means']['NDCG@10']:.4f}"
        expect(board.locator("td", has_text=mean)).to_have_count(1)
    expect(board.locator("strong", has_text=f"{expected['runs'][1]['means']['NDCG@10']:.4f}")).to_have_count(1)
    app.wait_rendered()
    latex_file = download(page, page.get_by_role("button", name="LaTeX", exact=True))
    assert latex_file.suggested_filename == "leaderboard.tex"
    latex = Path(latex_file.path()).read_text(encoding="utf-8")
    dense = expected["runs"][1]
    assert dense["run"] == "dense" and "\\toprule" in latex and "\\bottomrule" in latex
    assert f"b & dense & \\textbf{{{dense['means']['NDCG@10']:.4f}}}$^{{ac}}$" in latex
    csv_file = download(page, page.get_by_role("button", name="CSV", exact=True))
    csv_text = Path(csv_file.path()).read_text(encoding="utf-8")
    assert csv_text.splitlines()[0].startswith("letter,run,NDCG@10,NDCG@10 beats,NDCG@10 best")
    assert len(csv_text.splitlines()) == 4
    app.screenshot("compare_leaderboard_upload")
    assert not app.errors


def test_a_click_on_the_win_tie_loss_matrix_opens_that_pair(warm_app):
    """Row c (rrf), column a (bm25): the pair view compares bm25 (A) with rrf (B)."""
    app, page = warm_app, warm_app.page
    app.goto("compare")
    expect(page.get_by_text("294 queries are evaluated in both runs (bm25 = A, dense = B).")).to_be_visible()
    grid = page.locator('[data-testid="stDataFrame"]').first  # the matrix: the leaderboard is a static table
    expect(grid.locator('[role="columnheader"]', has_text="a · bm25")).to_have_count(1)
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    # Rows are 35 px under a 35 px header; the run column is narrow, so 420 px in lies in column "a · bm25".
    page.mouse.click(box["x"] + 420, box["y"] + 35 * 3 + 17)
    app.wait_rendered()
    expect(page.get_by_text("294 queries are evaluated in both runs (bm25 = A, rrf = B).")).to_be_visible()
    assert not app.errors
