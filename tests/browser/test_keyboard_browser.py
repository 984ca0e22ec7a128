"""Keyboard only (issue #27, item 2): the Playground, A vs B and the quiz worked with the keyboard alone, the numbers
checked after each action; on every page walked, Tab reaches every control with a visible focus change, is never
trapped, and starts with the skip link. (Join a class is walked in test_live_class_browser.py: it needs a poll.)

Default playground preset: d1..d5 graded 3, 2, 3, 0, 1, k = 5, linear gain; NDCG@5 is written out below by hand.
"""

from __future__ import annotations

import re
from math import log2

import pytest
from playwright.sync_api import expect

from ir_metrics_lab.core.lessons import quiz
from tests.browser.keyboard import focused, press, reset, tab_to

pytestmark = pytest.mark.browser

WAIT_MS = 30_000
MAX_STOPS = 250  # more Tab presses than any walked page has stops: a walk that does not end is trapped


def dcg(grades) -> float:
    return sum(g / log2(rank + 1) for rank, g in enumerate(grades, start=1))


def ndcg5(ranked, judged) -> str:
    """NDCG@5 with linear gain, the ideal order from every judged grade (trec_eval's), to 4 decimals."""
    return f"{dcg(ranked[:5]) / dcg(sorted(judged, reverse=True)[:5]):.4f}"


def wait_for_metric(app, label: str, value: str) -> None:
    expect(app.metric(label).locator('[data-testid="stMetricValue"]')).to_have_text(value, timeout=WAIT_MS)
    app.wait_idle()


MIN_STOPS = {"/join": 5}


@pytest.mark.parametrize("path", ["/", "/a-vs-b", "/quiz", "/join"])
def test_tab_starts_at_the_skip_link_shows_focus_and_is_never_trapped(shared_app, path):
    app = shared_app
    app.goto(path)
    app.wait_rendered()
    reset(app.page)
    first = press(app.page, "Tab")
    assert first.testid == "stSkipToContent" and first.name == "Skip to main content", first
    stops = [first]
    while not stops[-1].at_body:
        assert len(stops) < MAX_STOPS, f"{path}: focus trapped; the last stops: {stops[-6:]}"
        stop = press(app.page, "Tab")
        assert stop.previous_changed is not False, f"{path}: no visible focus on {stops[-1]}"
        assert stop.at_body or stop.shown, f"{path}: focus on an element with no box: {stop}"
        stops.append(stop)
    # The walk went through the page's controls, not straight out: the navigation's 20 links and the page's; on /join,
    # which draws no sidebar (app.py), its form (the code, the nickname, Join) and the link to the app's other pages.
    assert len(stops) > MIN_STOPS.get(path, 10), stops


def test_the_skip_link_moves_focus_past_the_navigation(shared_app):
    app = shared_app
    app.goto("/")
    reset(app.page)
    skip = press(app.page, "Tab")
    assert skip.testid == "stSkipToContent"
    box = app.page.get_by_test_id("stSkipToContent").bounding_box()
    assert box and box["y"] >= 0 and box["width"] > 0, box  # shown on screen while focused
    assert press(app.page, "Enter").testid == "stMain"
    after = press(app.page, "Tab")
    assert after.testid != "stPageLink-NavLink", after  # inside the page, not back in the sidebar's links


def test_the_playground_by_keyboard_alone(warm_app):
    """Move d1 down (Alt+↓), grade it 1 (key 1), shelve it (its ✕ button), put it back (Retrieve): NDCG@5 after each."""
    app, page = warm_app, warm_app.page
    app.goto("/")
    app.wait_rendered()
    assert app.metric_value("NDCG@5") == ndcg5([3, 2, 3, 0, 1], [3, 2, 3, 0, 1])  # 0.9724
    reset(page)
    card, _ = tab_to(page, lambda s: s.doc == "d1")
    assert card.name == "d1, Install guide, grade 3, relevant, rank 1 of 5"

    press(page, "Alt+ArrowDown")  # d2, d1, d3, d4, d5
    wait_for_metric(app, "NDCG@5", ndcg5([2, 3, 3, 0, 1], [3, 2, 3, 0, 1]))
    assert focused(page).doc == "d1"  # focus follows the card through the rerun

    press(page, "1")  # d1 graded 1
    wait_for_metric(app, "NDCG@5", ndcg5([2, 1, 3, 0, 1], [1, 2, 3, 0, 1]))
    assert focused(page).name == "d1, Install guide, grade 1, relevant, rank 2 of 5"

    tab_to(page, lambda s: s.name == "Mark d1 as not retrieved")
    press(page, "Enter")  # d2, d3, d4, d5; d1 judged but not retrieved
    wait_for_metric(app, "NDCG@5", ndcg5([2, 3, 0, 1], [1, 2, 3, 0, 1]))

    tab_to(page, lambda s: s.label == "Retrieve")
    press(page, "Enter")  # d1 back at the end: d2, d3, d4, d5, d1
    wait_for_metric(app, "NDCG@5", ndcg5([2, 3, 0, 1, 1], [1, 2, 3, 0, 1]))
    expect(page.locator('ul[data-list="pg_list"] li[data-doc-id]').last).to_have_attribute("data-doc-id", "d1")
    assert app.errors == []


def ab_column(app, side: str) -> list[str]:
    """The values of retriever ``side``'s column in A vs B's metric table."""
    table = app.page.locator("table").filter(has=app.page.locator("th", has_text="verdict"))
    column = 1 if side == "A" else 2
    return [row.locator("td").nth(column).inner_text() for row in table.locator("tbody tr").all()]


def test_a_vs_b_by_keyboard_alone(warm_app):
    """Retriever A's first relevant card moved up with Alt+↑: A's numbers change, B's do not."""
    app, page = warm_app, warm_app.page
    app.goto("/a-vs-b")
    app.wait_rendered()
    before = {side: ab_column(app, side) for side in "AB"}
    reset(page)
    card, _ = tab_to(page, lambda s: s.list == "ab_list_A" and s.doc is not None and ", relevant," in s.name)
    rank = int(re.search(r", rank (\d) of 5$", card.name).group(1))
    assert rank > 1, card  # A's preset: its relevant documents sit in the middle
    press(page, "Alt+ArrowUp")
    expect(page.locator(f'ul[data-list="ab_list_A"] li[data-doc-id="{card.doc}"]')).to_have_attribute(
        "data-rank", str(rank - 1), timeout=WAIT_MS
    )
    app.wait_idle()
    assert ab_column(app, "A") != before["A"]
    assert ab_column(app, "B") == before["B"]
    assert app.errors == []


def test_the_quiz_by_keyboard_alone(warm_app):
    """Seed 1: the first exercise answered by typing and pressing Check from the keyboard; the score goes to 1 / 1;
    the reorder exercise's list moves with Alt+↓."""
    first = quiz.generate(1)[0]
    app, page = warm_app, warm_app.page
    app.goto("/quiz")
    app.wait_rendered()
    assert app.metric_value("Score this session") == "0 / 0"
    reset(page)
    tab_to(page, lambda s: s.name == f"Your {first.label}")
    page.keyboard.type(f"{first.answer:.4f}")
    tab_to(page, lambda s: s.label == "Check")
    press(page, "Enter")
    wait_for_metric(app, "Score this session", "1 / 1")
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_have_count(1)

    reorder = next(i for i, ex in enumerate(quiz.generate(1)) if ex.kind == "reorder")
    card, _ = tab_to(page, lambda s: s.list is not None and s.list.endswith(f"_{reorder}_list") and s.doc is not None)
    press(page, "Alt+ArrowDown")
    moved = page.locator(f'ul[data-list="{card.list}"] li[data-doc-id="{card.doc}"]')
    expect(moved).to_have_attribute("data-rank", "2", timeout=WAIT_MS)
    assert app.errors == []
