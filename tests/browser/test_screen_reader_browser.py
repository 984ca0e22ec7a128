"""What a screen reader gets (issue #27, item 3), read from the accessibility tree (Playwright's ARIA snapshots), not
from the screen: the ranked list is a list of named items; a move is announced in the list's live region, and the
numbers it changed once, politely, in the app's live region; the navigation is a landmark that marks the current
page.

Default playground preset (metrics.teaching.examples.GRADES_32301): d1..d5 graded 3, 2, 3, 0, 1, k = 5, linear
gain. The expected numbers are written out by hand below.
"""

from __future__ import annotations

from math import log2

import pytest
from playwright.sync_api import expect

from metrics.teaching.examples import GRADES_32301

pytestmark = pytest.mark.browser

WAIT_MS = 30_000
LIST = 'ul[data-list="pg_list"]'
ANNOUNCER = "#irlab-announcer"
COUNT_ANNOUNCEMENTS = """() => {
  window.__announcements = [];
  new MutationObserver(() => {
    const text = document.querySelector('#irlab-announcer').textContent;
    if (text) window.__announcements.push(text);
  }).observe(document.querySelector('#irlab-announcer'), { childList: true, characterData: true, subtree: true });
}"""


def dcg(grades) -> float:
    return sum(g / log2(rank + 1) for rank, g in enumerate(grades, start=1))


def test_the_ranked_list_is_a_list_of_named_items(warm_app):
    app = warm_app
    app.goto("/")
    titles = GRADES_32301.titles
    items = "\n".join(
        f'  - listitem "{doc}, {titles[doc]}, grade {grade}{", relevant" if grade >= 1 else ""}, rank {rank} of 5"'
        for rank, (doc, grade) in enumerate(zip(titles, (3, 2, 3, 0, 1), strict=True), start=1)
    )
    expect(app.page.locator(LIST)).to_match_aria_snapshot(f'- list "Retrieved documents, best first":\n{items}')
    # Each item holds its grade picker and its move and shelve buttons, named for the document.
    expect(app.page.locator(LIST).locator('li[data-doc-id="d4"]')).to_match_aria_snapshot(
        """
        - listitem "d4, Release notes, grade 0, rank 4 of 5":
          - group "Grade of d4":
            - button "Grade 0" [pressed]
            - button "Grade 1"
            - button "Grade 2"
            - button "Grade 3"
          - button "Move d4 up"
          - button "Move d4 down"
          - button "Mark d4 as not retrieved"
        """
    )


def test_a_move_and_the_numbers_it_changed_are_announced_once(warm_app):
    app, page = warm_app, warm_app.page
    app.goto("/")
    page.evaluate(COUNT_ANNOUNCEMENTS)
    page.locator(LIST).locator('li[data-doc-id="d1"] button[data-action="down"]').click()  # d2, d1, d3, d4, d5
    expect(page.locator(LIST).locator("li[data-doc-id]").first).to_have_attribute("data-doc-id", "d2")
    live = page.locator(".rk-live")  # the playground's one list's own live region
    expect(live).to_have_attribute("role", "status")
    expect(live).to_have_text("d1 moved to rank 2 of 5", timeout=WAIT_MS)
    # Of the cards, only NDCG@5 and DCG@5 change: AP, RR, P@5, R@5... count the same relevant ranks 1, 2, 3, 5.
    ideal = dcg([3, 3, 2, 1, 0])
    dcg_before, dcg_after = dcg([3, 2, 3, 0, 1]), dcg([2, 3, 3, 0, 1])
    expected = (
        f"NDCG@5 {dcg_after / ideal:.4f}, down {(dcg_before - dcg_after) / ideal:.4f}; "
        f"DCG@5 {dcg_after:.4f}, down {dcg_before - dcg_after:.4f}"
    )
    expect(page.locator(ANNOUNCER)).to_have_text(expected, timeout=WAIT_MS)
    expect(page.locator(ANNOUNCER)).to_have_attribute("aria-live", "polite")
    app.wait_idle()
    # A page switch and back reruns the playground with the same numbers: nothing new is read.
    page.locator(".st-key-irlab_nav a", has_text="Sources").click()
    expect(page).to_have_url(f"{app.base_url}/sources", timeout=WAIT_MS)
    app.wait_idle()
    page.locator(".st-key-irlab_nav a", has_text="Playground").click()
    app.wait_idle()
    expect(page.locator(LIST).locator("li[data-doc-id]").first).to_have_attribute("data-doc-id", "d2")
    assert page.evaluate("window.__announcements") == [expected]
    assert app.errors == []


def test_the_navigation_is_a_landmark_that_marks_the_current_page(warm_app):
    app, page = warm_app, warm_app.page
    app.goto("/ndcg")
    nav = page.get_by_role("navigation", name="Pages")
    expect(nav).to_match_aria_snapshot(
        """
        - navigation "Pages":
          - paragraph: Play
          - link "Playground"
          - link "Retriever A vs B"
        """
    )
    expect(nav.locator('a[aria-current="page"]')).to_have_count(1)
    expect(nav.locator('a[aria-current="page"]')).to_have_accessible_name("DCG & NDCG")
