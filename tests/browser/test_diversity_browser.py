"""The "Diversity and novelty" lesson in a real Chromium: its cards show the aspects each document covers, and a
mouse drag of a repeating document down raises alpha-nDCG@5 while NDCG@5 falls.

The lesson opens on its example (ir_metrics_lab.core.lessons.diversity.repeated_aspect): d1..d7 graded 3, 3, 2, 2, 1,
1, 1, k = 5; d1..d5 cover price, d6 range, d7 charging. Every expected number is hand arithmetic written out here:
ndeval's gains (1 - alpha)^seen at alpha = 0.5 and the discount 1 / log2(rank + 1), which NDCG's linear gains share.
"""

from __future__ import annotations

from math import log2

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ACTION_TIMEOUT_MS
from tests.browser.test_playground_browser import drag

pytestmark = pytest.mark.browser

LIST = 'ul[data-testid="ranked-list"][data-list="lesson_diversity_list"]'


def dcg(gains: list[float]) -> float:
    return sum(g / log2(i + 2) for i, g in enumerate(gains))


IDEAL_ALPHA_DCG = dcg([1, 1, 1, 0.5, 0.25])  # the greedy ideal: d7 (charging), d6 (range), then price 1, 0.5, 0.25
IDCG = dcg([3, 3, 2, 2, 1])
BEFORE = {"NDCG@5": dcg([3, 3, 2, 2, 1]) / IDCG, "alpha_nDCG@5": dcg([1, 0.5, 0.25, 0.125, 0.0625]) / IDEAL_ALPHA_DCG}
# d2 dragged below d7: the top 5 is d1, d3, d4, d5, d6 (grades 3, 2, 2, 1, 1; price four times, then range)
AFTER = {"NDCG@5": dcg([3, 2, 2, 1, 1]) / IDCG, "alpha_nDCG@5": dcg([1, 0.5, 0.25, 0.125, 1]) / IDEAL_ALPHA_DCG}


def test_the_hand_arithmetic():
    assert {k: f"{v:.4f}" for k, v in BEFORE.items()} == {"NDCG@5": "1.0000", "alpha_nDCG@5": "0.6216"}
    assert {k: f"{v:.4f}" for k, v in AFTER.items()} == {"NDCG@5": "0.8513", "alpha_nDCG@5": "0.7700"}


def expect_metric(app, label: str, value: float) -> None:
    locator = app.metric(label).locator('[data-testid="stMetricValue"]')
    expect(locator).to_have_text(f"{value:.4f}", timeout=ACTION_TIMEOUT_MS)


def test_dragging_a_repeating_document_down_raises_alpha_ndcg_while_ndcg_falls(warm_app):
    app = warm_app
    app.goto("/diversity")
    cards = app.page.locator(f"{LIST} li[data-doc-id]")
    expect(cards).to_have_count(7, timeout=ACTION_TIMEOUT_MS)
    for label, value in BEFORE.items():
        expect_metric(app, label, value)
    d6 = app.page.locator(f'{LIST} li[data-doc-id="d6"]')
    expect(d6.locator(".rk-aspect")).to_have_text(["range"])  # the chip, by name
    expect(d6).to_have_attribute("aria-label", "d6, How far an EV really goes in winter, covers range, grade 1, "
                                 "relevant, rank 6 of 7, below the cutoff k = 5")  # fmt: skip

    drag(app.page, app.page.locator(f'{LIST} li[data-doc-id="d2"]'), app.page.locator(f'{LIST} li[data-doc-id="d7"]'),
         above=False)  # fmt: skip

    expect(cards.last).to_have_attribute("data-doc-id", "d2", timeout=ACTION_TIMEOUT_MS)
    for label, value in AFTER.items():
        expect_metric(app, label, value)
    assert AFTER["alpha_nDCG@5"] > BEFORE["alpha_nDCG@5"] and AFTER["NDCG@5"] < BEFORE["NDCG@5"]
    assert app.errors == []
