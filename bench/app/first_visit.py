"""How soon does a brand-new visitor see a page's first content? Every page the app lists (read from app.py), on a
1440x900 screen and in presenter mode at 1920x1080 (``?presenter=1``), each opened in a fresh browser context (no
cookies, no HTTP cache) on a warm server, beside a bare one-``st.metric`` page (bench/app/bare_metric_page.py, its own
server) on the same screen (1440x900, and 1920x1080 for presenter mode) in the same rounds.

Timed in the page's own clock (``performance.now()``, from the start of navigation) by a MutationObserver
installed before any script of the page: the first animation frame after the page's first content is in the DOM and
visible (its first metric value; a page without one: its first table cell, drawn chart, input, or paragraph of the
main area), the first frame with a drawn Plotly chart, the layout shift accumulated before the first content and
after it until the run is over and every chart drawn (``layout-shift`` entries), and in presenter mode the first
frame with the presenter stylesheet in force (the root font at its presenter size) against the first content: the
stylesheet is in the first paint when it is in force no later than that frame. The pages are visited in
interleaved rounds, so the baseline and the app see the same machine load. Prints the medians, the p90 and each
page's ratio to the bare page's median on its screen, and the pages over the goal (1.4x, layout shift 0.05).

Run from the repository root:  .venv/bin/python -m bench.app.first_visit [--rounds 3] [--only /a-vs-b,/ndcg]
With ``--against DIR`` (another checkout, e.g. ``git worktree add DIR main``) each page is also visited on a server
of that checkout, interleaved, so a change is measured against its base under the same load.
Nothing is written to the repository; the server logs go to a temporary directory.
"""

from __future__ import annotations

import argparse
import builtins
import functools
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.paths import REPO
from tests.browser import conftest as browser_tests

# A page's first content, in this order of preference: a metric's number, else what the page opens with.
FIRST_NUMBER = '[data-testid="stMetricValue"]'
FIRST_CONTENT = [
    FIRST_NUMBER,
    '[data-testid="stMain"] [data-testid="stMarkdownContainer"] table td',
    '[data-testid="stMain"] [data-testid="stDataFrame"] canvas',
    '[data-testid="stMain"] [data-testid="stPlotlyChart"] .main-svg',
    '[data-testid="stMain"] input, [data-testid="stMain"] textarea',
    '[data-testid="stMain"] [data-testid="stMarkdownContainer"] p',
]
BARE = "bare st.metric page"
AGAINST = " [base]"  # a page's rows on the --against checkout's server
GOAL_RATIO, GOAL_SHIFT = 1.4, 0.05
PRESENTER_FONT = "21px"  # ir_metrics_lab/shell/presenter.py's root font size: the presenter stylesheet is in force
# A view: its screen, its query string, a phone's browser (touch, a phone's User-Agent: tests/browser/conftest.py).
VIEWS = {
    "wide": ({"width": 1440, "height": 900}, "", False),
    "phone": ({"width": 390, "height": 844}, "", True),
    "presenter": ({"width": 1920, "height": 1080}, "?presenter=1", False),
}


def app_pages() -> dict[str, str]:
    """{title: path} of every page app.py lists (the playground's hidden alias aside), in its order."""
    pages: dict[str, str] = {}
    for call in (REPO / "app.py").read_text(encoding="utf-8").split("st.Page(")[1:]:
        if 'visibility="hidden"' in call.split(")")[0]:
            continue
        title = re.search(r'title="([^"]+)"', call).group(1)
        url_path = re.search(r'url_path="([^"]+)"', call).group(1)
        pages[title] = "/" if "default=True" in call else "/" + url_path
    return pages


SECOND_PASS_DONE = "() => !document.querySelector('[class*=\"first_paint\"]')"
WATCH = """
(() => {
  const selectors = %s, presenterFont = %s;
  const fv = (window.__firstVisit = { seen: {}, chart: null, presenter: null, shifts: [], skeletons: null,
    longTasks: [] });
  const frame = (set) => requestAnimationFrame(() => set(performance.now()));
  let chartSeen = false, presenterSeen = false;
  const visible = (e) => e.checkVisibility() && (e.tagName === "CANVAS" || e.tagName === "INPUT"
    || e.tagName === "TEXTAREA" || e.tagName === "svg" || e.textContent.trim());
  const check = () => {
    for (const selector of selectors) {
      if (!(selector in fv.seen) && [...document.querySelectorAll(selector)].some(visible)) {
        fv.seen[selector] = null;
        if (fv.skeletons === null) fv.skeletons = document.querySelectorAll('[data-testid="stSkeleton"]').length;
        frame((t) => { fv.seen[selector] = t; });
      }
    }
    if (!chartSeen && document.querySelector('[data-testid="stPlotlyChart"] .main-svg')) {
      chartSeen = true;
      frame((t) => { fv.chart = t; });
    }
    if (!presenterSeen && presenterFont && document.documentElement
        && getComputedStyle(document.documentElement).fontSize === presenterFont) {
      presenterSeen = true;
      frame((t) => { fv.presenter = t; });
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true,
    attributes: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) fv.shifts.push([entry.startTime, entry.value]);
  }).observe({ type: "layout-shift", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) fv.longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: "longtask", buffered: true });
})();
"""


# --quick: a visit ends at its first content (its number, else 3 s after the first run's end with content drawn).
QUICK_DONE = """() => {
  const fv = window.__firstVisit, app = document.querySelector('[data-testid="stApp"]');
  if (!fv) return false;
  if (fv.seen[%s] != null) return true;
  if (!app || app.dataset.testScriptState !== "notRunning" || !Object.values(fv.seen).some((t) => t !== null)) {
    return false;
  }
  fv.doneAt = fv.doneAt || performance.now();
  return performance.now() - fv.doneAt > 3000;
}"""


def visit(browser, base: str, path: str, view: str, quick: bool = False) -> dict:
    """One fresh visit: its figures (``_first_content``) by both clocks, and where the time went (``_timeline``).
    ``quick``: the visit ends at its first content, so the layout shift after it and the first chart are not seen."""
    import json

    viewport, query, phone = VIEWS[view]
    context = browser.new_context(viewport=viewport, **(browser_tests.PHONE if phone else {}))
    try:
        presenter_font = PRESENTER_FONT if view == "presenter" else ""
        context.add_init_script(WATCH % (json.dumps(FIRST_CONTENT), json.dumps(presenter_font)))
        page = context.new_page()
        page.set_default_timeout(120_000)
        wire = _Wire(context.new_cdp_session(page))
        told = time.time()  # the browser is told to go: the outside clock starts here
        page.goto(base + path + query)
        if quick:
            page.wait_for_function(QUICK_DONE % json.dumps(FIRST_NUMBER), timeout=120_000)
        else:
            _settle(page)
        figures = _first_content(page.evaluate("window.__firstVisit"))
        timing = page.evaluate(TIMING_JS)
        # Both clocks: the page's starts at its navigation start (timeOrigin), the outside one when goto was called.
        figures["outside"] = timing["timeOrigin"] - told * 1000 + figures["number"]
        figures.update(_timeline(figures["number"], timing, wire))
        return figures
    finally:
        context.close()


def _first_content(fv: dict) -> dict:
    """The visit's figures: its first content is its first metric number if it has one, else the first of the
    others to be drawn; layout shifts before and after that frame."""
    seen = {selector: t for selector, t in fv["seen"].items() if t is not None}
    what = FIRST_NUMBER if FIRST_NUMBER in seen else min(seen, key=seen.get)
    number = seen[what]
    return {
        "what": what,
        "number": number,
        "chart": fv["chart"],
        "presenter": fv["presenter"],
        "shiftBefore": sum(value for start, value in fv["shifts"] if start <= number),
        "shiftAfter": sum(value for start, value in fv["shifts"] if start > number),
    }


def _settle(page) -> None:
    """Wait for the page's first content, the end of its runs and every chart drawn."""
    seen = "() => window.__firstVisit && Object.values(window.__firstVisit.seen).some((t) => t !== null)"
    page.wait_for_function(seen, timeout=120_000)
    browser_tests.wait_idle(page, 120_000)
    # The app's second pass (ir_metrics_lab/shell/first_paint.py): no reserved box or watcher left, then everything
    # drawn.
    page.wait_for_function(SECOND_PASS_DONE, timeout=120_000)
    browser_tests.wait_idle(page, 120_000)
    page.wait_for_function(browser_tests.RENDERED_JS, timeout=120_000)
    time.sleep(0.3)  # a last layout shift, if any, is recorded


# Chromium's timings in the page's clock: the document, the script and style files fetched, the main thread's long
# tasks.
TIMING_JS = """() => ({
  timeOrigin: performance.timeOrigin,
  document: performance.getEntriesByType("navigation")[0].responseEnd,
  files: performance.getEntriesByType("resource").filter((e) => /\\.(js|css)(\\?|$)/.test(e.name))
    .map((e) => [e.name.split("/").pop(), e.startTime, e.responseEnd, e.encodedBodySize]),
  longTasks: window.__firstVisit.longTasks,
})"""


class _Wire:
    """The app's WebSocket frames as Chromium's network stack saw them (DevTools protocol: not delayed by a busy main
    thread), in the browser's monotonic clock, with the document request's wall time to map them to the page's."""

    def __init__(self, cdp) -> None:
        self.sent: list[float] = []
        self.got: list[tuple[float, str]] = []
        self.wall_minus_mono: float | None = None
        cdp.on("Network.requestWillBeSent", self._request)
        cdp.on("Network.webSocketFrameSent", lambda e: self.sent.append(e["timestamp"]))
        cdp.on("Network.webSocketFrameReceived", lambda e: self.got.append((e["timestamp"], e["response"])))
        cdp.send("Network.enable")

    def _request(self, event: dict) -> None:
        if self.wall_minus_mono is None and event.get("type") == "Document":
            self.wall_minus_mono = event["wallTime"] - event["timestamp"]


def _message_kind(payload: dict) -> str:
    """A ForwardMsg's kind: its type, and for an element its element type ("delta:metric"), for a block "block"."""
    import base64

    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    if payload.get("opcode") != 2:
        return "text"
    msg = ForwardMsg.FromString(base64.b64decode(payload["payloadData"]))
    kind = msg.WhichOneof("type") or "?"
    if kind == "delta":
        delta = msg.delta.WhichOneof("type")
        if delta == "new_element":
            return "delta:" + (msg.delta.new_element.WhichOneof("type") or "?")
        return "delta:" + ("block" if delta == "add_block" else delta or "?")
    return kind


def _timeline(number: float, timing: dict, wire: _Wire) -> dict:
    """Where a visit's time went, in the page's clock (ms from its navigation start): the document; the frontend's
    code (script and style files finished before the first content, and their bytes); the WebSocket's first frame
    out (the frontend has run and asks for the script's run); the server's first run (from that frame to the
    element holding the first number, and to the end of the run, as the network stack received them); the deltas
    sent before that number and what they were; the main thread's long tasks before the first content."""
    to_page = (lambda mono: mono * 1000 + wire.wall_minus_mono * 1000 - timing["timeOrigin"]) if (
        wire.wall_minus_mono is not None) else (lambda mono: float("nan"))  # fmt: skip
    files = [f for f in timing["files"] if f[2] <= number]
    kinds = [(to_page(t), _message_kind(payload)) for t, payload in wire.got]
    asked = to_page(wire.sent[0]) if wire.sent else float("nan")
    number_msg = next((t for t, k in kinds if k == "delta:metric"), None)
    first_delta = next((t for t, k in kinds if k.startswith("delta:")), float("nan"))
    finished = next((t for t, k in kinds if k == "script_finished"), float("nan"))
    until = number_msg if number_msg is not None else first_delta
    before = [k.removeprefix("delta:") for t, k in kinds if k.startswith("delta:") and t < until]
    return {
        "document": timing["document"],
        "files": len(files),
        "fileBytes": sum(f[3] for f in files),
        "filesDone": max((f[2] for f in files), default=0.0),
        "asked": asked,
        "numberMsg": number_msg if number_msg is not None else float("nan"),
        "finished": finished,
        "deltasBefore": before,
        "longTasks": sum(
            min(start + duration, number) - start for start, duration in timing["longTasks"] if start < number
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="comma-separated paths (default: every page app.py lists)")
    parser.add_argument("--views", default=",".join(VIEWS), help="some of " + ", ".join(VIEWS) + " (default: all)")
    parser.add_argument(
        "--quick", action="store_true", help="end each visit at its first content (no layout shift after it, no chart)"
    )
    parser.add_argument(
        "--against", type=Path, help="another checkout of the app, visited interleaved (its rows: [base])"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    def bare_command(port: int) -> list[str]:
        command = browser_tests.streamlit_run(port)
        command[command.index("app.py")] = str(Path(__file__).with_name("bare_metric_page.py"))
        return command

    pages = app_pages()
    if args.only:
        wanted = args.only.split(",")
        pages = {title: path for title, path in pages.items() if path in wanted}
    views = args.views.split(",")
    checkouts = [""] + ([AGAINST] if args.against else [])
    visits = [(BARE, "/", view) for view in views] + [
        (title + checkout, path, view) for view in views for title, path in pages.items() for checkout in checkouts
    ]
    logs = Path(tempfile.mkdtemp(prefix="first-visit-"))
    app, app_base = browser_tests.start_server(logs / "app.log")
    bare, bare_base = browser_tests.start_server(logs / "bare.log", command=bare_command)
    against, against_base = (
        browser_tests.start_server(logs / "against.log", cwd=args.against) if args.against else (None, "")
    )

    def base_of(title: str) -> str:
        return bare_base if title == BARE else against_base if title.endswith(AGAINST) else app_base

    results: dict[tuple[str, str], list[dict]] = {(title, view): [] for title, _, view in visits}
    try:
        with sync_playwright() as p:
            browser = browser_tests.launch_browser(p)
            # Warm the servers (imports, caches, first runs): each page once, on the first view.
            for title, path, view in visits:
                if view == views[0]:
                    visit(browser, base_of(title), path, view, args.quick)
            for round_ in range(args.rounds):
                for index, (title, path, view) in enumerate(visits):
                    results[title, view].append(visit(browser, base_of(title), path, view, args.quick))
                    if index % 8 == 7:  # the baseline again, so that every page is near one in time
                        results[BARE, view].append(visit(browser, bare_base, "/", view, args.quick))
                print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
                if round_ + 1 < args.rounds:  # so far, in case the run is cut short
                    report(results, round_ + 1, sys.stderr, args.quick)
            browser.close()
    finally:
        browser_tests.stop_server(app)
        browser_tests.stop_server(bare)
        if against is not None:
            browser_tests.stop_server(against)
    report(results, args.rounds, sys.stdout, args.quick)


def _median(rows: list[dict], key: str) -> float:
    values = [r[key] for r in rows if r[key] == r[key]]  # NaN: not seen in that visit
    return statistics.median(values) if values else float("nan")


def report(results: dict[tuple[str, str], list[dict]], rounds: int, out, quick: bool = False) -> None:
    """Print the tables to ``out``; with ``quick`` the layout shift after the first content and the first chart were
    not measured ("—")."""
    print = functools.partial(builtins.print, file=out)
    load = os.getloadavg()
    print(f"\n{rounds} rounds, {os.cpu_count()} CPUs, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    bare = {view: rows for (title, view), rows in results.items() if title == BARE}
    print(
        "\nThe first content by both clocks, ms, medians (min-max): in the page (from its navigation start) and from "
        "outside (from the moment the browser is told to go)."
    )
    print(
        "\n| page | view | first content | in the page | ratio | from outside | ratio | first chart "
        "| layout shift before it, max | after it, max | presenter style in the first paint |"
    )
    print("|---|---|---|---|---:|---|---:|---:|---:|---:|---|")
    over = []
    for (title, view), rows in results.items():
        charts = [r["chart"] for r in rows if r["chart"] is not None]
        chart = "—" if quick else f"{statistics.median(charts):.0f}" if charts else "no chart"
        after = "—" if quick else f"{max(r['shiftAfter'] for r in rows):.3f}"
        ratio = {key: _median(rows, key) / _median(bare[view], key) for key in ("number", "outside")}
        spread = {key: f"{_median(rows, key):.0f} ({min(r[key] for r in rows):.0f}-{max(r[key] for r in rows):.0f})"
                  for key in ("number", "outside")}  # fmt: skip
        what = "number" if rows[0]["what"] == FIRST_NUMBER else (rows[0]["what"] or "").split(" ")[-1]
        before = max(r["shiftBefore"] for r in rows)
        styled = "—"
        if view == "presenter" and title != BARE:
            late = [r for r in rows if r["presenter"] is None or r["presenter"] > r["number"]]
            styled = "yes" if not late else f"no ({len(late)} of {len(rows)} visits)"
        print(
            f"| {title} | {view} | {what} | {spread['number']} | {ratio['number']:.2f} | {spread['outside']} "
            f"| {ratio['outside']:.2f} | {chart} | {before:.3f} "
            f"| {after} | {styled} |"
        )
        if title != BARE and not title.endswith(AGAINST) and max(ratio.values()) > GOAL_RATIO:
            over.append(f"{title} ({view}): {ratio['number']:.2f}x in the page, {ratio['outside']:.2f}x from outside")
    within = sum(1 for title, _ in results if title != BARE and not title.endswith(AGAINST)) - len(over)
    print(f"\nWithin {GOAL_RATIO}x the bare page on the same screen by both clocks: {within} of {within + len(over)}")
    for line in over:
        print(f"- over: {line}")
    print(
        "\nWhere the time went, ms from navigation start, medians: the navigation start after the browser was told "
        "to go; the document received; the script and style files finished before the first content (count, kB, "
        "the last one's end); the WebSocket's first frame out (the frontend has run); the server's first run, "
        "from that frame to the number's element and to the run's end (as the network stack received them); "
        "the deltas before the number (median count; their kinds, the first visit's); the main thread's long tasks "
        "before it."
    )
    print(
        "\n| page | view | nav. start | document | files | kB | files done | asks run | number sent | run ends "
        "| server: to number | to run end | deltas before | long tasks | first content | kinds before the number |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for (title, view), rows in results.items():
        for r in rows:
            r["navStart"] = r["outside"] - r["number"]
            r["fileKB"] = r["fileBytes"] / 1000
            r["toNumber"] = r["numberMsg"] - r["asked"]
            r["toEnd"] = r["finished"] - r["asked"]
            r["nDeltas"] = len(r["deltasBefore"])
        cells = " | ".join(f"{_median(rows, key):.0f}" for key in (
            "navStart", "document", "files", "fileKB", "filesDone", "asked", "numberMsg", "finished", "toNumber",
            "toEnd", "nDeltas", "longTasks", "number"))  # fmt: skip
        kinds = ", ".join(f"{k} x{n}" if n > 1 else k for k, n in _counts(rows[0]["deltasBefore"]).items())
        print(f"| {title} | {view} | {cells} | {kinds} |")


def _counts(kinds: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    return counts


if __name__ == "__main__":
    main()
