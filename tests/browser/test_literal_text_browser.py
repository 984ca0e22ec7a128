"""User text in a real Chromium: a shared link whose titles are hostile Markdown/HTML/LaTeX makes no element, opens
no dialog, runs no script, and every title reads back from the page exactly as typed (line breaks included)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ir_metrics_lab.core import url
from ir_metrics_lab.core.markdown import AUTOLINK_BREAK
from ir_metrics_lab.core.scenario import Scenario
from tests.browser.conftest import ACTION_TIMEOUT_MS

pytestmark = pytest.mark.browser

WAIT_MS = ACTION_TIMEOUT_MS
TITLES = [
    "HEADING\n===",
    "**bold** _it_ ~~s~~",
    "[click](javascript:alert(1))",
    "<img src=x onerror=alert(1)>",
    "$x^2$ \\frac{1}{2}",
    ":red[red] :material/home: :smile:",
    "# h1 | a | b\n> quote\n- item",
    "https://example.com www.example.com a@b.org mailto:a@b.org",
]
SHELF = [f"s{i}" for i in range(len(TITLES))]
# Elements the titles would create if they were read as Markdown, HTML, LaTeX or Streamlit directives.
FORBIDDEN = "h1, h2, em, del, a, img, blockquote, li, .katex, table, [data-testid='stIconMaterial'], span[style*=color]"


def test_hostile_titles_make_no_element_and_read_back_literally(app):
    titles = dict(zip(SHELF, TITLES, strict=True))
    link = url.relative_link(Scenario(("d1",), tuple(SHELF), {"d1": 1, **dict.fromkeys(SHELF, 1)}, titles))
    app.goto(link)
    shelf = app.page.locator('[data-testid="stMarkdownContainer"]').filter(has_text="grade 1")
    expect(shelf).to_have_count(len(TITLES), timeout=WAIT_MS)
    shown = [
        text.replace(AUTOLINK_BREAK, "") for text in shelf.evaluate_all("(nodes) => nodes.map((n) => n.innerText)")
    ]
    assert shown == [f"{doc} · {title}\ngrade 1" for doc, title in zip(SHELF, TITLES, strict=True)]
    found = f"(nodes) => nodes.flatMap((n) => [...n.querySelectorAll({FORBIDDEN!r})]).map((e) => e.outerHTML)"
    made = shelf.evaluate_all(found)
    assert made == []
    assert app.dialogs == [] and app.errors == []
    app.screenshot("literal-titles")
