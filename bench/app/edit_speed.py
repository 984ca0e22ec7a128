"""How fast does every edit on every interactive page answer? One table: server time per rerun and, in Chromium,
the time from the edit to the updated numbers on screen, for the default list and a 100-document list.

Pages and edits: Playground (drag, grade, shelve/unshelve, k, gain), Retriever A vs B (drag, grade, k), Multi-query
(drag, k), Swap heatmap (swap, metric), each lesson's own controls (a slider, a radio, a pick), the quiz (drag, seed).
Sizes: the page's default list, and a 100-document list (the playground's maximum, grades 3, 2, 1, 0, 0, 1, ...;
k = 10). The 100-document list reaches the Playground, the lessons and the Swap heatmap in the browser through the
share link (ir_metrics_lab.core.url's schema, unchanged); A vs B and Multi-query have no link, so their 100-document
lists are measured in AppTest only (session state written before the first run). The quiz's lists are generated: one
size.

(a) Server: AppTest runs app.py on the page; each timed run applies one edit (a drop or grade written into the
    ranked-list component's state as the browser sends it, a widget's new value, a button click), alternating
    between two states, after warm-up runs. Median and p90 of the run's wall clock, as a session sees it (what
    st.cache_data kept from the previous state is reused) and with st.cache_data cleared before each run (a state
    not seen before: the verdict is on this one's p90). Budget: 250 ms.
(b) Browser: Debian's Chromium against a live ``streamlit run app.py`` does the same edit as a user (a mouse drag, a
    click on a grade chip or the shelve button, typing k and Enter, arrow keys on a slider, a click on a radio or
    segmented-control option). Timed in the page's clock from the user's input event (drop, click, keydown) to the
    first animation frame where the watched numbers differ from before the edit and no "Running..." status widget
    is shown. Budget: 400 ms (median and p90 are printed; the verdict is on the p90). The browser's edits go back
    and forth too, so its caches are warm as in (a)'s first column.

How the new numbers are checked: in AppTest, after the Playground drag on the default list the NDCG@5 card must show
the value computed here by hand (grades d1..d5 = 3, 2, 3, 0, 1; linear gain). Every other edit, and every browser
edit, is checked by detection only: the watched numbers (metric cards, or the page's table or text) must differ from
their value before the edit, and in AppTest the run must raise nothing. The quiz drag changes no number (the answer
is checked by a button), so its browser figure is to the end of the rerun (a MutationObserver saw the script state
go to ``running`` and it is no longer running).

Run from the repository root:

    .venv/bin/python -m bench.app.edit_speed [--reruns 10] [--edits 10] [--only server|browser] [--page playground]

(--page: a substring of the page names). Nothing is written to the repository.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from math import log2
from pathlib import Path

from bench.app.app_speed import percentile, summary  # the same statistics as the Playground bench
from bench.paths import REPO
from tests.browser import conftest as browser_tests

SERVER_BUDGET_MS = 250
BROWSER_BUDGET_MS = 400
BIG = 100
BIG_K = 10

# Hand arithmetic for the Playground drag on the default list (grades d1..d5 = 3, 2, 3, 0, 1; linear gain; k = 5).
IDCG = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
HAND_NDCG = {
    ("d1", "d2"): (3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)) / IDCG,
    ("d2", "d1"): (2 / log2(2) + 3 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)) / IDCG,
}


def big_scenario(name: str = "d"):
    """A 100-document list: grades cycle 3, 2, 1, 0, 0, 1 down the list; k = 10."""
    from ir_metrics_lab.core.scenario import Scenario

    ranking = tuple(f"{name}{i}" for i in range(1, BIG + 1))
    cycle = (3, 2, 1, 0, 0, 1)
    grades = {doc: cycle[i % len(cycle)] for i, doc in enumerate(ranking)}
    titles = {doc: f"Document {doc}" for doc in ranking}
    return Scenario(ranking, grades=grades, titles=titles, k=BIG_K, scale=3)


# --- the edits ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Edit:
    page: str  # app_pages/<section>/<page>.py
    url: str  # its address
    name: str
    server: Callable  # (at, i) -> None: make the i-th edit before at.run()
    browser: Callable | None  # (page, i) -> None: do it as a user
    watch: str | None = '[data-testid="stMetricValue"]'  # what must change on screen (None: the rerun's end)
    big_browser: bool = True  # the 100-document list reaches this page through the share link
    sizes: tuple[str, ...] = ("default", "100 docs")


def _ranking(at, store: str, which=None):
    """The list's scenario (or, for the quiz, any object with the current ``ranking``)."""
    value = at.session_state[store]
    value = value if which is None else value[which]
    return value if hasattr(value, "ranking") else dataclasses.make_dataclass("Order", ["ranking"])(value)


def list_drag(key: str, store: str, which=None):
    """Drag the first card whose grade differs from the top card's above the top card (so the numbers change)."""

    def server(at, i):
        scn = _ranking(at, store, which)
        order = list(scn.ranking)
        grades = getattr(scn, "grades", {})
        j = next((n for n, d in enumerate(order) if grades.get(d, 0) != grades.get(order[0], 0)), 1)
        order.insert(0, order.pop(j))
        at.session_state[key] = {"edit": {"order": order, "nonce": f"bench-drag-{i}"}}

    def browser(page, i):
        lst = page.locator(f'ul[data-testid="ranked-list"][data-list="{key}"]')
        j = lst.evaluate(FIRST_OTHER_GRADE)
        cards = lst.locator("li[data-doc-id]")
        cards.nth(0).evaluate("el => el.scrollIntoView({block: 'center'})")  # a 100-card list is taller than the screen
        src = cards.nth(j).locator(".rk-handle").bounding_box()
        dst = cards.nth(0).bounding_box()
        arm(page)
        page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
        page.mouse.down()
        page.mouse.move(dst["x"] + dst["width"] / 3, dst["y"] + dst["height"] * 0.25, steps=15)
        page.mouse.up()

    return server, browser


# The index of the first card graded differently from the top one (1 when the cards show no grades).
FIRST_OTHER_GRADE = """(list) => {
  const grades = [...list.querySelectorAll('li[data-doc-id]')].map(
    (li) => (li.querySelector('.rk-chip[aria-pressed="true"]') || {}).textContent);
  const j = grades.findIndex((g) => g !== grades[0]);
  return j > 0 ? j : 1;
}"""


def list_grade(key: str, store: str, which=None):
    """Grade the first card 0, then back to its own grade, alternately (a click on its grade chip)."""
    original: dict[str, int] = {}

    def server(at, i):
        scn = _ranking(at, store, which)
        doc = scn.ranking[0]
        original.setdefault(doc, scn.grades.get(doc, 0))
        grade = 0 if scn.grades.get(doc, 0) != 0 else (original[doc] or 1)
        at.session_state[key] = {"edit": {"order": list(scn.ranking), "grades": {doc: grade}, "nonce": f"bg-{i}"}}

    def browser(page, i):
        card = page.locator(f'ul[data-testid="ranked-list"][data-list="{key}"] li[data-doc-id]').first
        card.scroll_into_view_if_needed()
        pressed = card.locator('.rk-chip[aria-pressed="true"]').get_attribute("data-grade")
        top = card.locator(".rk-chip").last.get_attribute("data-grade")  # the scale's top grade
        target = "0" if pressed != "0" else top
        arm(page)
        card.locator(f'.rk-chip[data-grade="{target}"]').click()

    return server, browser


def pg_shelve():
    """Shelve the first relevant card (its ✕), then put it back at the end (the shelf's button), alternately. A
    relevant one: a grade-0 card put back at the end of the list changes no number."""

    def server(at, i):
        scn = at.session_state["scenario"]
        if i % 2 == 0:
            doc = next(d for d in scn.ranking if scn.grades.get(d, 0) > 0)
            order = [d for d in scn.ranking if d != doc]
            at.session_state["pg_list"] = {"edit": {"order": order, "nonce": f"bs-{i}"}}
        else:
            at.button(key=f"pg_retrieve_{scn.shelf[-1]}").click()

    shelved: list[str] = []

    def browser(page, i):
        if i % 2 == 0:
            cards = page.locator('ul[data-testid="ranked-list"][data-list="pg_list"] li[data-doc-id]')
            card = cards.filter(has_not=page.locator('.rk-chip[data-grade="0"][aria-pressed="true"]')).first
            card.scroll_into_view_if_needed()
            shelved.append(card.get_attribute("data-doc-id"))
            arm(page)
            card.locator(".rk-shelve").click()
        else:
            button = page.locator(f".st-key-pg_retrieve_{shelved[-1]} button").first
            button.scroll_into_view_if_needed()
            arm(page)
            button.click()

    return server, browser


def number(key: str, values: tuple, sidebar: bool = False):
    def server(at, i):
        at.number_input(key=key).set_value(values[i % 2])

    def browser(page, i):
        box = page.locator(f".st-key-{key} input")
        box.scroll_into_view_if_needed()
        box.fill(str(values[i % 2]))
        arm(page)
        box.press("Enter")

    return server, browser


def slider(key: str, kind: str = "slider", step: float = 1):
    """One step left, then back right (arrow keys on the focused thumb): a k slider starts at its top."""

    def server(at, i):
        widget = getattr(at, kind)(key=key)
        value = widget.value + (-step if i % 2 == 0 else step)
        widget.set_value(round(value, 2) if isinstance(value, float) else value)

    def browser(page, i):
        page.locator(f".st-key-{key}").scroll_into_view_if_needed()
        thumb = page.locator(f'.st-key-{key} input[type="range"]')  # react-aria's hidden range input
        thumb.focus()
        arm(page)
        thumb.press("ArrowLeft" if i % 2 == 0 else "ArrowRight")

    return server, browser


def choice(key: str, kind: str, values: tuple):
    def server(at, i):
        getattr(at, kind)(key=key).set_value(values[i % 2])

    def browser(page, i):
        root = page.locator(f".st-key-{key}")
        root.scroll_into_view_if_needed()
        options = 'label:has(input[type="radio"])' if kind == "radio" else "button"
        option = root.locator(options).nth((i + 1) % 2)
        arm(page)
        option.click()

    return server, browser


def button(key: str):
    def server(at, i):
        at.button(key=key).click()

    def browser(page, i):
        b = page.locator(f".st-key-{key} button")
        b.scroll_into_view_if_needed()
        arm(page)
        b.click()

    return server, browser


def unjudged_pick():
    """Mark the second document unjudged, then unmark it (the multiselect)."""

    def server(at, i):
        scn = at.session_state["scenario"]
        at.multiselect(key="lesson_unjudged_unjudged").set_value([scn.ranking[1]] if i % 2 == 0 else [])

    def browser(page, i):
        root = page.locator(".st-key-lesson_unjudged_unjudged")
        root.scroll_into_view_if_needed()
        box = root.locator("input")
        box.focus()
        if i % 2 == 0:
            page.keyboard.type("2. ")  # the option "2. <doc>": the second document
            arm(page)
            page.keyboard.press("Enter")
        else:
            arm(page)
            page.keyboard.press("Backspace")  # the last chip

    return server, browser


# The page's text and formulas (the quiz's exercises; the RR lesson's toy list, whose value is in a sentence).
TEXT = (
    '[data-testid="stMain"] :is([data-testid="stMarkdownContainer"], .katex-html, [data-testid="stMetricValue"])'
    ':not([data-testid="stSlider"] *, [data-testid="stWidgetLabel"] *)'  # not a slider's own value, which moves at once
)


def _edits() -> list[Edit]:
    sc = "scenario"
    mq = "multi_queries"
    table = '[data-testid="stMarkdownContainer"] table'
    edits = [
        Edit("playground", "/", "drag", *list_drag("pg_list", sc)),
        Edit("playground", "/", "grade", *list_grade("pg_list", sc)),
        Edit("playground", "/", "shelve / unshelve", *pg_shelve()),
        Edit("playground", "/", "k", *number("pg_k", (3, 5))),
        Edit("playground", "/", "gain", *choice("pg_gain", "radio", ("exp", "linear"))),
        Edit("ab", "/a-vs-b", "drag A", *list_drag("ab_list_A", "ab_scenarios", "A"), watch=table, big_browser=False),
        Edit("ab", "/a-vs-b", "grade", *list_grade("ab_list_A", "ab_scenarios", "A"), watch=table, big_browser=False),
        Edit("ab", "/a-vs-b", "k", *number("ab_k", (3, 5)), watch=table, big_browser=False),
        Edit("multi_query", "/multi-query", "drag Q1", *list_drag("multi_query_Q1_list", mq, "Q1"), big_browser=False),
        Edit("multi_query", "/multi-query", "k", *number("multi_query_k", (3, 2)), big_browser=False),
        Edit("swap_heatmap", "/swap-heatmap", "swap ranks 1, 2", *button("swap_do")),
        Edit(
            "swap_heatmap", "/swap-heatmap", "metric", *choice("swap_metric", "segmented_control", ("AP@k", "NDCG@k"))
        ),
        Edit("lesson_precision_recall", "/precision-recall", "k slider", *slider("lesson_pr_k"), watch=TEXT),
        Edit("lesson_rr", "/reciprocal-rank", "rank slider", *slider("lesson_rr_rank"), watch=TEXT),
        Edit("lesson_ap", "/average-precision", "k slider", *slider("lesson_ap_k"), watch=TEXT),
        Edit("lesson_ndcg", "/ndcg", "k slider", *slider("lesson_ndcg_k"), watch=TEXT),
        Edit("lesson_ndcg", "/ndcg", "gain", *choice("lesson_ndcg_gain", "radio", ("exp", "linear")), watch=TEXT),
        Edit(
            "lesson_pr_curve",
            "/pr-curve",
            "recall level",
            *slider("lesson_pr_curve_level", "select_slider", 0.1),
            watch=TEXT,
        ),
        Edit("lesson_unjudged", "/unjudged", "mark unjudged", *unjudged_pick(), watch=TEXT),
        Edit(
            "lesson_user_models", "/user-models", "patience p", *slider("lesson_user_models_p", step=0.01), watch=TEXT
        ),
        Edit(
            "quiz", "/quiz", "drag", *list_drag("quiz_s1_3_list", "quiz_orders", (1, 3)), watch=None, sizes=("default",)
        ),
        Edit("quiz", "/quiz", "seed", *number("quiz_seed", (2, 1)), watch=TEXT, sizes=("default",)),
    ]
    return edits


# --- (a) server --------------------------------------------------------------------------------------------------


def shown_numbers(at) -> tuple:
    """What the page shows that an edit changes: metric cards, Markdown (tables, sentences) and formulas."""
    return (
        tuple(m.value for m in at.metric),
        tuple(m.value for m in at.markdown),
        tuple(x.value for x in at.latex),
    )


def seed_big(at) -> None:
    """Put a 100-document list in every store the pages read (before the session's first run)."""
    big = big_scenario()
    at.session_state["scenario"] = big
    at.session_state["ab_scenarios"] = {
        "A": big,
        "B": dataclasses.replace(big, ranking=tuple(reversed(big.ranking))),
    }
    queries = {}
    for n, query_id in enumerate(("Q1", "Q2", "Q3")):
        queries[query_id] = dataclasses.replace(big, ranking=big.ranking[n:] + big.ranking[:n])
    at.session_state["multi_queries"] = queries
    at.session_state["multi_query_texts"] = dict.fromkeys(queries, "")


def server_times(edit: Edit, size: str, reruns: int, warmup: int, *, cold: bool = False) -> list[float]:
    """Wall-clock ms per timed run. ``cold``: st.cache_data is cleared before each run, so nothing an earlier run
    computed is reused (the edits go back and forth between two states, which a cache would otherwise remember)."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    if size != "default":
        seed_big(at)
    at.run()  # the default page first: AppTest switches pages only after a run
    at.switch_page(str(next((REPO / "app_pages").rglob(f"{edit.page}.py")).relative_to(REPO)))
    at.run()
    assert not at.exception, at.exception
    wall: list[float] = []
    for i in range(warmup + reruns):
        before = shown_numbers(at)
        edit.server(at, i)
        if cold:
            st.cache_data.clear()
        start = time.perf_counter()
        at.run()
        elapsed = (time.perf_counter() - start) * 1000
        assert not at.exception, f"{edit.page} {edit.name} run {i}: {at.exception}"
        if edit.watch is not None:
            assert shown_numbers(at) != before, f"{edit.page} {edit.name} run {i}: nothing shown changed"
        if edit.page == "playground" and edit.name == "drag" and size == "default":
            order = tuple(at.session_state["scenario"].ranking[:2])
            shown = {m.label: m.value for m in at.metric}.get("NDCG@5")
            assert shown == f"{HAND_NDCG[order]:.4f}", f"drag {i}: NDCG@5 shows {shown}, by hand {HAND_NDCG[order]}"
        if i >= warmup:
            wall.append(elapsed)
    return wall


# --- (b) browser -------------------------------------------------------------------------------------------------

# Stamps the user's input in the page's clock and records when a rerun starts (a MutationObserver sees every change
# of the app's script state, even a rerun shorter than a frame).
ARM = """() => {
  if (!window.__benchArmed) {
    window.__benchArmed = true;
    for (const type of ['drop', 'click', 'keydown']) {
      document.addEventListener(type, () => {
        if (window.__armed) { window.__editAt = performance.now(); window.__armed = false; }
      }, true);
    }
    const app = document.querySelector('[data-testid="stApp"]');
    new MutationObserver(() => {
      if (app.getAttribute('data-test-script-state') === 'running' && window.__editAt !== null) window.__ran = true;
    }).observe(app, { attributes: true, attributeFilter: ['data-test-script-state'] });
  }
  window.__armed = true; window.__editAt = null; window.__numbersAt = null; window.__ran = false;
}"""

SNAPSHOT = """(sel) => [...document.querySelectorAll(sel)].map((el) => el.textContent.trim()).join('|')"""

# Polled every animation frame: the watched text differs from before and no status widget (the numbers are on
# screen), or, with no watch, the rerun has started and ended.
UPDATED = """([sel, before]) => {
  if (window.__editAt === null) return false;
  const running = document.querySelector('[data-testid="stStatusWidget"]');
  const app = document.querySelector('[data-testid="stApp"]');
  const idle = app.getAttribute('data-test-script-state') !== 'running';
  if (sel === null) {
    if (!window.__ran || !idle || running) return false;
  } else {
    const now = [...document.querySelectorAll(sel)].map((el) => el.textContent.trim()).join('|');
    if (now === before || running) return false;
  }
  window.__numbersAt = performance.now();
  return true;
}"""


def arm(page) -> None:
    page.evaluate(ARM)


def browser_times(
    edits: list[Edit], edits_per: int, warmup: int, failed: dict[tuple[str, str, str], int]
) -> dict[tuple[str, str, str], list[float]]:
    """Milliseconds from each edit's input event to the new numbers on screen; an edit whose numbers did not change
    within 15 s (or that could not be made) is counted in ``failed`` and the page reloaded."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    from ir_metrics_lab.core import url

    browser_tests.require_chromium()
    log = Path(tempfile.mkstemp(prefix="edit_speed_streamlit_", suffix=".log")[1])
    proc, base = browser_tests.start_server(log)
    link = "?" + "&".join(f"{k}={v}" for k, v in _encoded(url.to_query_params(big_scenario())).items())
    results: dict[tuple[str, str, str], list[float]] = {}
    try:
        with sync_playwright() as p:
            browser = browser_tests.launch_browser(p)
            try:
                for edit in edits:
                    for size in edit.sizes:
                        if size != "default" and not edit.big_browser:
                            continue
                        context = browser.new_context(viewport=browser_tests.VIEWPORT)
                        page = context.new_page()
                        page.goto(base + edit.url + (link if size != "default" else ""))
                        browser_tests.wait_idle(page)
                        times: list[float] = []
                        for i in range(warmup + edits_per):
                            before = page.evaluate(SNAPSHOT, edit.watch) if edit.watch else None
                            try:
                                edit.browser(page, i)
                                page.wait_for_function(UPDATED, arg=[edit.watch, before], polling="raf", timeout=15_000)
                            except PlaywrightError as error:  # counted and shown in the table, not hidden
                                failed[(edit.page, edit.name, size)] = failed.get((edit.page, edit.name, size), 0) + 1
                                print(f"  {edit.page} {edit.name} {size} edit {i}: {str(error)[:200]}", file=sys.stderr)
                                page.reload()
                                browser_tests.wait_idle(page)
                                continue
                            t = page.evaluate("[window.__editAt, window.__numbersAt]")
                            if i >= warmup:
                                times.append(t[1] - t[0])
                            browser_tests.wait_idle(page)
                        results[(edit.page, edit.name, size)] = times
                        context.close()
                        print(f"  browser {edit.page} {edit.name} {size}: {_fmt(times)}", file=sys.stderr)
            finally:
                browser.close()
    finally:
        browser_tests.stop_server(proc)
        log.unlink(missing_ok=True)
    return results


def _encoded(params: dict[str, str]) -> dict[str, str]:
    from urllib.parse import quote

    return {k: quote(v, safe="") for k, v in params.items()}


# --- report ------------------------------------------------------------------------------------------------------


def _fmt(values: list[float]) -> str:
    if not values:
        return "–"
    s = summary(values)
    return f"{s['median']:.0f} / {percentile(values, 90):.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reruns", type=int, default=10, help="timed AppTest runs per edit and size")
    parser.add_argument("--edits", type=int, default=10, help="timed browser edits per edit and size")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--only", choices=["server", "browser"])
    parser.add_argument("--page", help="only pages whose name contains this")
    args = parser.parse_args(argv)

    # AppTest calls format_func outside a script run and Streamlit warns about it on every rerun.
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").disabled = True
    edits = [e for e in _edits() if not args.page or args.page in e.page]
    load_before = os.getloadavg()
    server: dict[tuple[str, str, str], list[float]] = {}
    cold: dict[tuple[str, str, str], list[float]] = {}
    if args.only in (None, "server"):
        for edit in edits:
            for size in edit.sizes:
                key = (edit.page, edit.name, size)
                server[key] = server_times(edit, size, args.reruns, args.warmup)
                cold[key] = server_times(edit, size, args.reruns, args.warmup, cold=True)
                print(f"  server {' '.join(key)}: {_fmt(server[key])}, cold {_fmt(cold[key])}", file=sys.stderr)
    failed: dict[tuple[str, str, str], int] = {}
    browser = browser_times(edits, args.edits, args.warmup, failed) if args.only in (None, "browser") else {}

    load_after = os.getloadavg()
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {when}; load average (1/5/15 min) "
        f"{', '.join(f'{x:.1f}' for x in load_before)} before, {', '.join(f'{x:.1f}' for x in load_after)} after\n"
    )
    print(f"| page | edit | list | server run, median / p90 (≤ {SERVER_BUDGET_MS} ms) | the same, caches cleared | "
          f"edit → numbers on screen in Chromium, median / p90 (≤ {BROWSER_BUDGET_MS} ms) | verdict |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    failures = 0
    for edit in edits:
        for size in edit.sizes:
            key = (edit.page, edit.name, size)
            s, c, b = server.get(key, []), cold.get(key, []), browser.get(key, [])
            ok = all(
                (
                    not c or percentile(c, 90) <= SERVER_BUDGET_MS,  # the cold runs: a state not seen before
                    not b or percentile(b, 90) <= BROWSER_BUDGET_MS,
                    not failed.get(key),
                )
            )
            failures += not ok
            measured = s or b
            verdict = ("pass" if ok else "**over**") if measured else "–"
            if size != "default" and not edit.big_browser and args.only != "server":
                verdict += " (no browser figure: no link carries this list)"
            if failed.get(key):
                verdict += f" ({failed[key]} browser edits failed)"
            print(f"| {edit.page} | {edit.name} | {size} | {_fmt(s)} | {_fmt(c)} | {_fmt(b)} | {verdict} |")
    print(f"\n{failures} of {sum(len(e.sizes) for e in edits)} rows over budget (p90 against the budget).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
