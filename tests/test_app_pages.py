"""Every routed page renders with no exception, through app.py and on its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.shell import layout, presenter
from tests.markdown_text import styles
from tests.page_scripts import page_scripts

ROOT = Path(__file__).parents[1]
APP = str(ROOT / "app.py")
# Read the routes from app.py itself, so a newly routed page is tested without editing this file.
# A script routed twice (the playground's /playground alias) is one page here.
PAGES = list(dict.fromkeys(str(path.relative_to(ROOT)) for path in page_scripts()))


def test_every_page_file_is_routed():
    assert PAGES[0] == "app_pages/play/playground.py"
    assert sorted(PAGES) == sorted(str(p.relative_to(ROOT)) for p in (ROOT / "app_pages").rglob("*.py"))


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_through_the_app_with_the_app_css_and_the_presenter_css(page):
    """In presenter mode (test_pages_keep_the_playground_state goes through every page without it). app.py sends the CSS
    after the page (ir_metrics_lab.shell.css): a page that cut its run short (st.stop) left the projector unstyled and a
    phone without its layout rules. Nothing goes in the sidebar: a projector shows the page alone, and a sidebar
    appearing as a new visitor's page loads pushed the page 300 px aside."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state["presenter_mode"] = True
    at.run()
    assert not at.exception
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, f"{page} has no title"
    assert layout.CSS in styles(at) and presenter.CSS in styles(at)
    assert not at.sidebar.children


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
    at.switch_page("app_pages/play/playground.py").run()
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


def test_widgets_drawn_again_default_to_the_value_they_show():
    """A browser that mounts a widget late (ir_metrics_lab.shell.first_paint.later, or drawn again after a page switch)
    shows the widget's default until it applies the value sent with it, and one that missed that value sends the default
    back with the next interaction: an upload right after a first visit lost Evaluate's measures. So a widget seeded
    from a saved value has that value as its default (ir_metrics_lab.session.widget_state.sync_widget)."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.number_input(key="pg_k").set_value(3).run()
    at.switch_page("app_pages/your_data/your_data.py").run()
    at.multiselect(key="yd_measures").set_value(["AP", "RR"]).run()
    at.text_input(key="yd_more_measures").set_value("P@7").run()
    at.radio(key="yd_sample_system").set_value("bm25").run()
    at.toggle(key="yd_complete").set_value(True).run()
    at.switch_page("app_pages/your_data/compare_runs.py").run()
    at.toggle(key="cmp_holm").set_value(True).run()
    at.switch_page("app_pages/reference/sources.py").run()
    at.switch_page("app_pages/your_data/compare_runs.py").run()
    holm = at.toggle(key="cmp_holm")
    assert holm.value is True and holm.proto.default is True
    at.switch_page("app_pages/your_data/your_data.py").run()
    measures = at.multiselect(key="yd_measures")
    assert measures.value == ["AP", "RR"]
    assert [measures.options[i] for i in measures.proto.default] == ["AP", "RR"]
    assert at.text_input(key="yd_more_measures").proto.default == "P@7"
    system = at.radio(key="yd_sample_system")
    assert system.value == "bm25" and system.options[system.proto.default].startswith("bm25")
    complete = at.toggle(key="yd_complete")
    assert complete.value is True and complete.proto.default is True
    at.switch_page("app_pages/play/playground.py").run()
    k = at.number_input(key="pg_k")
    assert k.value == 3 and k.proto.default == 3
    assert not at.exception
