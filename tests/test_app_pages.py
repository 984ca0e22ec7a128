"""Every routed page renders with no exception, through app.py and on its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).parents[1]
APP = str(ROOT / "app.py")
# Read the routes from app.py itself, so a newly routed page is tested without editing this file.
# A script routed twice (the playground's /playground alias) is one page here.
PAGES = list(dict.fromkeys(re.findall(r'st\.Page\(\s*"([^"]+)"', (ROOT / "app.py").read_text(encoding="utf-8"))))


def test_every_page_file_is_routed():
    assert PAGES[0] == "app_pages/playground.py"
    assert sorted(PAGES) == sorted(f"app_pages/{p.name}" for p in (ROOT / "app_pages").glob("*.py"))


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_through_the_app(page):
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, f"{page} has no title"


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_standalone(page):
    at = AppTest.from_file(str(ROOT / page), default_timeout=30).run()
    assert not at.exception, [e.value for e in at.exception]


def test_pages_keep_the_playground_state():
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.session_state["pg_list"] = {"edit": {"order": ["d5", "d1", "d2", "d3", "d4"], "nonce": "x"}}
    at.run()
    ndcg = next(m.value for m in at.metric if m.label == "NDCG@5")
    for page in PAGES[1:]:
        at.switch_page(page).run()
        assert not at.exception
    at.switch_page("app_pages/playground.py").run()
    assert next(m.value for m in at.metric if m.label == "NDCG@5") == ndcg != "0.9724"


def test_no_pages_folder_beside_app_py():
    # A pages/ folder beside app.py sends a fresh server's first session through Streamlit's legacy router, which
    # shows "Page not found" for every st.navigation path (tests/browser/test_routing_browser.py watches for it).
    assert not (ROOT / "pages").exists()


def test_the_readme_page_table_names_every_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## What is in the app") : readme.index("A playground scenario lives")]
    titles = re.findall(r'st\.Page\(\s*"[^"]+",\s*title="([^"]+)"', (ROOT / "app.py").read_text(encoding="utf-8"))
    assert len(titles) >= 17
    assert [title for title in titles if f"**{title}" not in table and f", {title}" not in table] == []
