"""Accessibility (issue #27): axe-core finds no violation of the WCAG 2.0, 2.1 and 2.2 A and AA rules, of any
impact, on every page at 1440x900, on a 390x844 phone and in presenter mode at 1920x1080 (there on each page's first
visit, tests/browser/test_first_visit_browser.py).

One tab per view for the whole module (a page switch in one session costs a rerun; a new session a frontend boot):
it moves between pages by the app's own navigation links, so axe is injected once per view. On the wide view the
links are clicked as a person would, and each page is also checked to open without an exception, marked as the
current page in the navigation, and screenshotted into tests/artifacts/ (for a person to look at, not compared). The
phone and presenter views hide the sidebar, so their links are clicked from script there.

``test_the_audit_fails_on_a_broken_page`` checks the audit itself: the same call finds what was broken on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from ir_metrics_lab.core.lessons import quiz
from ir_metrics_lab.shell.compressed_static import PHONE_PAGE
from tests.browser.axe_audit import assert_accessible, audit
from tests.browser.conftest import PHONE, App, _app, assert_healthy
from tests.browser.test_routing_browser import ADDRESSES

pytestmark = pytest.mark.browser

WAIT_MS = 30_000
VIEWS = {
    "wide": {"viewport": {"width": 1440, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, **PHONE},
    "presenter": {"viewport": {"width": 1920, "height": 1080}},
}
# Reflow (WCAG 1.4.10) and zoom (1.4.4): 320 CSS px wide, and a 1440x900 screen zoomed to 200% (720x450 CSS px).
# A reader who asked for less motion (2.3.3) on the same wide screen.
REFLOW_VIEWS = {
    "320px": {"viewport": {"width": 320, "height": 640}},
    "zoom200": {"viewport": {"width": 720, "height": 450}},
    "reduced-motion": {"viewport": {"width": 1440, "height": 900}, "reduced_motion": "reduce"},
}
START = {"wide": "/", "phone": "/", "presenter": "/?presenter=1"}
PAGES = [path for path in ADDRESSES if path != "/playground"]  # the alias runs the same script as "/"
NAV_LINK = ".st-key-irlab_nav a"
PHONE_PAGE_EXIT = "All of IR Metrics Lab"  # app.py's foot link on the phone page
PRESENTER_MENU = (
    '[class*="st-key-pages_menu_"] button'  # presenter mode's menu of pages (ir_metrics_lab/shell/navigation.py)
)


@pytest.fixture(scope="module")
def tabs(browser, app_server) -> Iterator:
    """``tabs(view)``: the module's one App (tab, session) for ``view``, opened on first use."""
    opened: dict[str, App] = {}
    contexts = []

    def tab(view: str) -> App:
        if view not in opened:
            context = browser.new_context(**{**VIEWS, **REFLOW_VIEWS}[view])
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(WAIT_MS)
            opened[view] = _app(page, app_server)
            opened[view].goto(START.get(view, "/"))
        return opened[view]

    try:
        yield tab
    finally:
        for context in contexts:
            context.close()


def show(app: App, path: str, *, as_a_person: bool = False) -> None:
    """Switch ``app``'s session to the page at ``path`` through its navigation link, and wait until it is drawn.
    ``as_a_person``: a real click on the visible link (the phone's sidebar is closed, so there the link is clicked
    from script; presenter mode's links are in its menu of pages, opened first)."""
    if urlparse(app.page.url).path != path:
        title = ADDRESSES[path]
        menu = app.page.locator(PRESENTER_MENU)
        if menu.count():
            menu.click()
        elif not app.page.locator(NAV_LINK).count():  # Join a class has no navigation: its foot link leads back
            app.page.get_by_role("link", name=PHONE_PAGE_EXIT).click()
            expect(app.page.locator(NAV_LINK).first).to_be_attached(timeout=WAIT_MS)
        link = app.page.locator(NAV_LINK).filter(has_text=re.compile(rf"{re.escape(title)}$"))
        if as_a_person:
            link.click()
        else:
            link.evaluate("a => a.click()")
        expect(app.page).to_have_url(re.compile(rf"{re.escape(app.base_url + path)}(\?.*)?$"), timeout=WAIT_MS)
    app.wait_rendered()


def assert_no_violation(app: App, where: str, view: str = "wide", within: str | None = None) -> None:
    """No WCAG A or AA violation; in presenter mode text at 7:1 as well (AAA 1.4.6, for a projector)."""
    assert_accessible(app.page, where, enhanced_contrast=view == "presenter", within=within)
    assert app.errors == [], app.errors


OPEN_EXPANDERS = """() => {
  const closed = [...document.querySelectorAll('[data-testid="stMain"] details:not([open]) > summary')];
  for (const summary of closed) summary.click();
  return closed.length;
}"""
TABS = '[data-testid="stMain"] [role="tab"]'


def open_every_expander(app: App) -> None:
    """Open every closed expander of the page (opening one may draw more: repeat until none is left)."""
    for _ in range(5):
        if not app.page.evaluate(OPEN_EXPANDERS):
            return
        app.wait_rendered()


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("view", ["wide", "phone"])
def test_every_page_has_no_axe_violation(tabs, view, path):
    """As drawn on the phone; on the wide screen with every expander open, then every tab shown in turn (axe skips
    what is hidden, so a closed expander or tab would go unchecked). In presenter mode every page is audited, with
    text at 7:1, on its first visit (tests/browser/test_first_visit_browser.py), which opens each one anyway."""
    app = tabs(view)
    show(app, path, as_a_person=view == "wide")
    if view == "wide":
        assert_healthy(app)
        if path == f"/{PHONE_PAGE}":  # no navigation: its icons would fetch a font on a phone's first visit (app.py)
            expect(app.page.get_by_role("link", name="All of IR Metrics Lab")).to_be_visible()
        else:
            expect(app.page.locator(f'{NAV_LINK}[aria-current="page"]')).to_contain_text(ADDRESSES[path])
        app.screenshot(path.strip("/") or "playground-home")
        open_every_expander(app)
    assert_no_violation(app, f"{path} ({view})", view)
    if view != "wide":
        return
    for index in range(app.page.locator(TABS).count()):
        tab = app.page.locator(TABS).nth(index)
        if tab.get_attribute("aria-selected") == "true":
            continue
        name = tab.inner_text().strip()
        tab.click()
        app.wait_rendered()
        open_every_expander(app)
        panel = tab.get_attribute("aria-controls")  # set on the selected tab only
        assert_no_violation(app, f"{path} ({view}), tab {name!r}", within=panel)  # the rest was audited above


BROKEN = """() => {
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  const box = document.createElement("div");
  box.id = "broken-on-purpose";
  box.innerHTML = '<li>an item outside any list</li>'
    + '<p style="color:#aaaaaa">grey on white, 2.3:1</p>'
    + '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
    + '<button></button>';
  main.prepend(box);
}"""


GREY_TEXT = """() => {
  const p = document.createElement("p");
  p.id = "grey-on-purpose";
  p.style.color = "#767676";  /* 4.54:1 on white */
  p.textContent = "grey text";
  document.querySelector('[data-testid="stMainBlockContainer"]').prepend(p);
}"""


def test_the_audit_fails_on_a_broken_page(tabs):
    """The audit sees what a broken page breaks: a list item with no list, low contrast, an image with no text
    alternative, a button with no name (added to a page that passes, then removed)."""
    app = tabs("wide")
    show(app, "/sources")
    app.page.evaluate(BROKEN)
    try:
        found = {violation["id"] for violation in audit(app.page)}
    finally:
        app.page.evaluate("() => document.getElementById('broken-on-purpose').remove()")
    assert {"listitem", "color-contrast", "image-alt", "button-name"} <= found, found
    assert audit(app.page) == []


def test_the_presenter_audit_asks_for_7_to_1(tabs):
    """Text at 4.54:1 passes AA but not presenter mode's AAA 7:1."""
    app = tabs("presenter")
    show(app, "/sources")
    app.page.evaluate(GREY_TEXT)
    try:
        assert audit(app.page) == []
        found = {violation["id"] for violation in audit(app.page, enhanced_contrast=True)}
    finally:
        app.page.evaluate("() => document.getElementById('grey-on-purpose').remove()")
    assert found == {"color-contrast-enhanced"}, found


@pytest.mark.parametrize("view", VIEWS)
def test_a_quiz_answered_right_and_wrong(tabs, view):
    """Seed 1 (the default): the first exercise predicts a number, the fifth compares two systems' MRR, the last asks
    which move raises alpha-nDCG most. The first is answered right (its own answer, to 4 decimals), the other two
    wrong: feedback and worked solutions are shown."""
    exercises = quiz.generate(1)
    first, last, moves = exercises[0], exercises[4], exercises[5]
    assert first.kind == "predict" and last.kind == "mrr" and moves.kind == "aspect_move"
    app = tabs(view)
    show(app, "/quiz")
    page = app.page
    app.enter(page.get_by_label(f"Your {first.label}"), f"{first.answer:.4f}")
    page.get_by_role("button", name="Check").first.click()
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_have_count(1, timeout=WAIT_MS)
    wrong = "B" if last.answer == "A" else "A"
    page.get_by_role("radiogroup", name="Higher MRR").get_by_text(wrong, exact=True).click()
    app.wait_idle()
    page.get_by_role("button", name="Check").nth(4).click()
    expect(page.locator('[data-testid="stAlertContentError"]')).to_have_count(1, timeout=WAIT_MS)
    wrong_move = next(key for key in moves.keys if key != moves.answer)
    page.get_by_role("radiogroup", name="Move").get_by_text(moves.option_text(wrong_move), exact=True).click()
    app.wait_idle()
    page.get_by_role("button", name="Check").last.click()
    expect(page.locator('[data-testid="stAlertContentError"]')).to_have_count(2, timeout=WAIT_MS)
    app.wait_rendered()
    assert_no_violation(app, f"the quiz answered right and wrong ({view})", view)


def test_streamlits_menu_and_its_dialog(tabs):
    """Streamlit's menu (Print, Record a screencast) and the screencast's dialog, and a selectbox's open list.
    (The app's own popups, the charts' text alternatives, are the next test.)"""
    app = tabs("wide")
    app.goto("/why-tools-differ")  # loaded afresh: earlier tests in this tab leave its widgets in other states
    app.wait_idle()
    page = app.page
    measure = page.get_by_role("group").filter(has=page.get_by_role("combobox", name=re.compile("^Measure")))
    measure.get_by_role("button", name="Open").click()  # the chevron: a click in the box opens it only once
    # the list is open when its options show
    expect(page.get_by_role("option").first).to_be_visible()
    assert_no_violation(app, "a selectbox's list open")
    page.keyboard.press("Escape")
    page.locator('[data-testid="stMainMenu"] button').click()
    expect(page.get_by_role("menuitem").first).to_be_visible()
    assert_no_violation(app, "the main menu open")
    page.locator('[data-testid="stMainMenuItem-recordScreencast"]').click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    assert_no_violation(app, "the screencast dialog")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)


@pytest.mark.parametrize("view", VIEWS)
def test_a_chart_as_text(tabs, view):
    """The app's own popup: a chart's text alternative, open (the PR curve's: two series, eleven levels)."""
    app = tabs(view)
    show(app, "/pr-curve")
    app.page.get_by_role("button", name="Chart as text").first.click()
    body = app.page.locator('[data-testid="stPopoverBody"]')
    expect(body.locator("table")).to_be_visible()
    expect(body).to_contain_text("Line chart")
    assert_no_violation(app, f"a chart as text ({view})", view)
    app.page.keyboard.press("Escape")
    expect(body).to_have_count(0)


# Elements past the screen's right edge (or its left), outside any box that scrolls sideways, in the main area
# (its own sideways scroll counts too), and text cut short by an ellipsis (a label Streamlit draws on one line). Not
# counted: what is hidden (KaTeX's MathML copy for screen readers, a transparent or clipped element such as a slider's
# native input, an SVG pattern's tile).
CUT_OFF = """() => {
  const width = document.documentElement.clientWidth;
  const main = document.querySelector('[data-testid="stMain"]');
  const scrolls = (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  const hidden = (el) => {
    const s = getComputedStyle(el);
    return s.opacity === "0" || s.clip !== "auto" || s.clipPath !== "none" || el.closest(".katex-mathml, defs")
      || (el.tagName === "INPUT" && el.type === "range");
  };
  const cut = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) walk(el.shadowRoot);
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (style.textOverflow === "ellipsis" && style.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1
          && el.checkVisibility() && !hidden(el)) {  // not a file uploader's transparent, 0-wide native input
        cut.push(`${el.tagName} ends in an ellipsis: "${(el.textContent || "").slice(0, 40)}"`);
        continue;
      }
      if (!box.width || !box.height || (box.right <= width + 1 && box.left >= -1)) continue;
      if (!el.checkVisibility() || hidden(el)) continue;
      let up = el.parentElement || el.getRootNode().host;
      while (up && up !== main && !scrolls(up)) up = up.parentElement || (up.getRootNode && up.getRootNode().host);
      if (up && up !== main) continue;  // inside its own sideways-scrolling box
      const text = (el.textContent || "").slice(0, 40);
      cut.push(`${el.tagName} ${Math.round(box.left)}..${Math.round(box.right)} "${text}"`);
      if (cut.length > 8) return;
    }
  };
  walk(main);
  return { page: document.documentElement.scrollWidth - width, main: main.scrollWidth - main.clientWidth, cut };
}"""
ZOOMED = ["/", "/a-vs-b", "/quiz", "/ndcg", "/compare", "/ask-the-class"]  # the busiest layouts


@pytest.mark.parametrize(("view", "path"), [("320px", path) for path in PAGES] + [("zoom200", path) for path in ZOOMED])
def test_every_page_reflows_with_nothing_cut_off(tabs, view, path):
    """Only vertical scrolling at 320 px and at 200% zoom: a wide table or formula scrolls in its own box, and no
    label, metric or option is cut short."""
    app = tabs(view)
    show(app, path)
    open_every_expander(app)
    found = app.page.evaluate(CUT_OFF)
    assert found == {"page": 0, "main": 0, "cut": []}, f"{path} ({view}): {found}"


def test_reduced_motion_stops_the_lists_animations(tabs):
    transition = """() => getComputedStyle(
      document.querySelector('[data-testid="stMain"] [data-testid="stBidiComponentIsolated"]')
        .shadowRoot.querySelector('li[data-doc-id]')).transitionDuration"""
    wide, reduced = tabs("wide"), tabs("reduced-motion")
    for app in (wide, reduced):
        show(app, "/")
    assert set(wide.page.evaluate(transition).split(", ")) == {"0.12s"}
    assert set(reduced.page.evaluate(transition).split(", ")) == {"0s"}
