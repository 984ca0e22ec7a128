"""The Swap heatmap in a real Chromium: hovering a cell tells the swap's change, clicking it makes the swap, on the
default list and on a 100-document list (its click layer draws nothing, so only a browser shows that it works).

Expected values are hand arithmetic written out here.
"""

from __future__ import annotations

from math import log2
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ACTION_TIMEOUT_MS

pytestmark = pytest.mark.browser

WAIT_MS = ACTION_TIMEOUT_MS
# The pixel centre of the cell (rank i, swap with rank j), from plotly's own axes (its graph div keeps them).
CELL_CENTRE = """([i, j]) => {
  const gd = document.querySelector('.js-plotly-plot');
  const box = gd.getBoundingClientRect();
  const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
  return [box.left + xa._offset + xa.d2p(j), box.top + ya._offset + ya.d2p(i)];
}"""


def ndcg5(grades: list[int]) -> float:
    """NDCG@5 with linear gains, the ideal order of the default list's grades 3, 2, 3, 0, 1 being 3, 3, 2, 1, 0."""
    ideal = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
    return sum(g / log2(r + 1) for r, g in enumerate(grades, start=1)) / ideal


def open_heatmap(app, query: str = "") -> None:
    app.goto("/swap-heatmap" + query)
    expect(app.page.locator(".js-plotly-plot")).to_have_count(1, timeout=WAIT_MS)  # a new visitor: maybe a run later
    app.wait_idle()


def hover(app, i: int, j: int, text: str) -> tuple[float, float]:
    chart = app.page.locator(".js-plotly-plot")
    chart.scroll_into_view_if_needed()
    x, y = app.page.evaluate(CELL_CENTRE, [i, j])
    app.page.mouse.move(x, y)
    expect(chart.locator(".hoverlayer")).to_contain_text(text, timeout=WAIT_MS)
    return x, y


def hover_and_click(app, i: int, j: int, text: str) -> None:
    x, y = hover(app, i, j, text)
    app.page.mouse.click(x, y)
    expect(app.page.get_by_text(f"Swapped ranks {i} and {j}.")).to_be_visible(timeout=WAIT_MS)
    app.wait_idle()


def test_hovering_a_cell_tells_the_change_and_clicking_it_swaps(warm_app):
    open_heatmap(warm_app)  # the default list d1..d5 graded 3, 2, 3, 0, 1; NDCG@5
    change = ndcg5([3, 0, 3, 2, 1]) - ndcg5([3, 2, 3, 0, 1])  # ranks 2 and 4 swapped
    hover_and_click(warm_app, 2, 4, f"Swap rank 2 (d2) ↔ rank 4 (d4)ΔNDCG@5 = {change:+.4f}Click to swap")
    expect(warm_app.metric("NDCG@5").locator('[data-testid="stMetricValue"]')).to_have_text(
        f"{ndcg5([3, 0, 3, 2, 1]):.4f}", timeout=WAIT_MS
    )
    assert not warm_app.errors


def test_a_cell_far_down_a_100_document_list_swaps(warm_app):
    docs = [f"d{n}" for n in range(1, 101)]
    grades = [(3, 2, 1, 0, 0, 1)[n % 6] for n in range(100)]
    open_heatmap(warm_app, f"?docs={quote(','.join(docs))}&grades={quote(','.join(map(str, grades)))}&k=10")
    hover_and_click(warm_app, 50, 7, "Swap rank 50 (d50) ↔ rank 7 (d7)")
    hover(warm_app, 7, 50, "Swap rank 7 (d50) ↔ rank 50 (d7)")  # the redrawn map has the two docs' new places
    assert not warm_app.errors


def test_the_swap_by_rank_controls_work_from_the_keyboard(warm_app):
    open_heatmap(warm_app)
    page = warm_app.page
    for key, rank in (("swap_i", "2"), ("swap_j", "4")):  # drawn by the run after a new visitor's first
        page.locator(f".st-key-{key} input").focus()
        page.keyboard.press("ControlOrMeta+a")
        page.keyboard.type(rank)
        page.keyboard.press("Enter")
        warm_app.wait_idle()
    page.locator(".st-key-swap_do button").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_text("Swapped ranks 2 and 4.")).to_be_visible(timeout=WAIT_MS)
    expect(warm_app.metric("NDCG@5").locator('[data-testid="stMetricValue"]')).to_have_text(
        f"{ndcg5([3, 0, 3, 2, 1]):.4f}", timeout=WAIT_MS
    )
