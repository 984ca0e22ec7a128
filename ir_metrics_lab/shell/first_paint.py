"""Numbers first, charts after, for a brand-new visitor.

A new browser loads each kind of element's code on first use. Plotly's chunk is about 4.6 MB: while the browser
fetches, parses and runs it, the page's main thread is busy and the metric cards and the ranked list wait with it
(measured by bench/app/first_visit.py: a few times slower than a bare ``st.metric`` page); the code block's highlighter
(1.6 MB), the data grid (1.2 MB) and KaTeX (0.5 MB) weigh too. So a session's first run draws each chart as an
empty box of the chart's height (nothing moves when it arrives), and each formula (st.latex) as an empty box of
its estimated height (``formula_height``: KaTeX's chunk and typesetting held a lesson's first number back by
seconds); pages leave their heavy parts below the numbers (closed expanders, the formulas' tabs) for later
(``charts_now()``); and the widgets that are not the numbers or the list (settings, pickers, buttons: each kind of
widget is one more chunk to fetch and run before the numbers can show) wait in an empty room of their height
(``later``); and a page ends that run right after its first numbers (``rest_next_run``): the rest of the page is
below them and comes with the next run. A tiny script waits until the run has ended and the page has painted with
no placeholder left (or 4 s), then reruns the app: the second run draws the charts, the formulas and the rest.
Every later run draws them at once.

Only a browser can say it has painted: a session with no HTTP headers (AppTest) gets its charts on the first run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass

import streamlit as st

from ir_metrics_lab.session import first_paint_state
from ir_metrics_lab.shell import presenter

_JS = """
export default function (component) {
  const { setTriggerValue } = component;
  let done = false;
  let idleSince = null;
  // Wait for the end of the run: a rerun asked for while the first run is still drawing interrupts it, and the
  // numbers would then come with the charts (a new server's first run, or a busy machine, takes seconds).
  const check = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute("data-test-script-state") !== "notRunning") {
      idleSince = null;
      return;
    }
    if (idleSince === null) idleSince = performance.now();
    // Painted: no placeholder skeleton left (or 4 s after the run ended, if one never goes).
    if (!document.querySelector('[data-testid="stSkeleton"]') || performance.now() - idleSince > 4000) fire();
  };
  const fire = () => {
    if (done) return;
    done = true;
    observer.disconnect();
    clearInterval(timer);
    // two frames: the numbers on screen, then ask for the charts
    requestAnimationFrame(() => requestAnimationFrame(() => setTriggerValue("painted", true)));
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, {
    childList: true, subtree: true, attributes: true, attributeFilter: ["data-test-script-state"],
  });
  const timer = setInterval(check, 250);
  check();
  return () => { observer.disconnect(); clearInterval(timer); };
}
"""
_COMPONENT = st.components.v2.component("irlab_first_paint", js=_JS)
KEY = "first_paint_watch"


def charts_now() -> bool:
    """Draw charts (and other heavy elements) in this run? Yes once the session's first screen has painted, or with
    no browser at all."""
    return first_paint_state.first_paint_done() or not st.context.headers


@dataclass(frozen=True)
class Room:
    """The height (px) of a part drawn ``later``, once drawn: on a wide screen, on a phone (its columns stacked) and
    in presenter mode (larger type). Measured in Chromium at 1440x900, 390x844 and 1920x1080; a browser test
    (tests/browser/test_first_visit_browser.py) holds each room to its part's height."""

    wide: int
    phone: int
    presenter: int

    def here(self) -> int:
        """The height on this session's screen. A phone is told by its browser's User-Agent (``on_phone``): CSS
        would know the width, but a style reaches a new visitor's page a few hundred ms after its first paint."""
        if presenter.is_on():
            return self.presenter
        return self.phone if on_phone() else self.wide


# The rooms most parts need: one labelled widget on a line (a slider, a select box, a number input, a radio row: its
# label above it), one button, and a closed expander (its bar is a button's height). Measured in Chromium; the rooms
# test holds every part to its room.
LABELLED_WIDGET = Room(wide=68, phone=68, presenter=89)
BUTTON = Room(wide=40, phone=40, presenter=53)
CLOSED_EXPANDER = BUTTON


def on_phone() -> bool:
    """Whether this session's browser is a phone's (its User-Agent says "Mobile"), for what a new visitor's first
    paint must size or show before the page's CSS has arrived."""
    return "Mobile" in st.context.headers.get("User-Agent", "")


# st.dataframe's height with its rows all shown (up to 10 at its default height; more scroll inside it): a header and
# its rows, each 35 px (46 px in presenter mode's larger type), and its border (2 px; 3 px at height="content");
# measured in Chromium at 1440, 390 and 1920 px.
_GRID_ROW_PX, _PRESENTER_GRID_ROW_PX, _GRID_BORDER_PX, _GRID_ROWS_SHOWN = 35, 46, 2, 10


def grid_room(rows: int, *, shown_at_most: int = _GRID_ROWS_SHOWN, border_px: int = _GRID_BORDER_PX) -> Room:
    """The room of an st.dataframe of ``rows`` rows (``later``): at its default height unless told how many rows it
    shows at most and its border (height="content" draws them all, with a 3 px border)."""
    shown = min(rows, shown_at_most) + 1
    normal = shown * _GRID_ROW_PX + border_px
    return Room(wide=normal, phone=normal, presenter=shown * _PRESENTER_GRID_ROW_PX + border_px)


def later(key: str, draw: Callable[[], None], room: Room | None = None) -> None:
    """Draw a part that is not the numbers or the list (settings, a picker, buttons) once the first screen has
    painted. On a new visitor's first run its place is an empty box of ``room``'s height, so nothing moves when it
    arrives; no room for a part with nothing after it (the end of the sidebar). Both runs draw one container here,
    so the elements after it keep their places while the second run replaces the first's."""
    if charts_now():
        # One box, whose height its room matches (a browser test measures both). The run after the first paint keeps
        # the room's height: a widget's label is drawn a moment after the widget, and the box would be shorter.
        height = room.here() if room is not None and first_paint_state.second_run() else "content"
        with st.container(key=key, height=height, border=False):
            draw()
        return
    box = f"{key}_first_paint"
    if room is None:
        st.container(key=box)
    else:
        st.container(height=room.here(), border=False, key=box)


def box(key: str, room: Room):
    """A container for an element whose code the browser fetches on a new visitor's first run (the ranked list):
    on that run it is ``room`` px tall (a few px more, so a list a little taller than measured needs no scrollbar),
    so what follows does not move when the element is drawn; afterwards as tall as its content."""
    if charts_now():
        return st.container(key=key)
    return st.container(height=room.here() + 4, border=False, key=key)


class _RestNextRun(Exception):
    """Raised by ``rest_next_run`` to end a new visitor's first run of a page; caught by ``page_run``."""


def rest_next_run() -> None:
    """Call in a page right after its first numbers: a new visitor's first run ends the page here, and the run after
    the first paint draws the rest below them. Every element of a run is a React update on a busy main thread, and
    each new kind of widget a chunk of code to fetch: on the lessons, the elements below the numbers (more steps,
    sliders, tables, buttons) held the numbers back by 0.1-0.35 s (the README; bench/app/first_visit.py --against).
    What comes later is below the numbers, so nothing on screen moves when it arrives."""
    if not charts_now():
        raise _RestNextRun


@contextmanager
def page_run() -> Iterator[None]:
    """Wrap ``page.run()`` in app.py: a page that rests its first run (``rest_next_run``) ends there, and app.py
    goes on (its CSS, the formulas' preload and ``end_run`` still come)."""
    with suppress(_RestNextRun):
        yield


def end_run() -> None:
    """Call once per run, at the end of app.py: the run after the first paint is over."""
    first_paint_state.end_second_run()


def watch() -> None:
    """Call once per run in app.py (in the sidebar; in presenter mode, in the row at the top), before the page:
    until the first paint, the script that reports it."""
    first_paint_state.reset_formula_rooms()
    if not charts_now():
        _COMPONENT(key=KEY, on_painted_change=first_paint_state.set_first_paint_done)


# A display formula's height in px at the normal type, by its lines (rows of an aligned block): a line, a line with
# a fraction, a line with a big operator's limits (sum, max, prod under it), a cases block. Fitted to the app's 42
# formulas as Chromium drew them (the lessons and the playground, 1440 and 390 px wide: a formula scrolls sideways,
# so its height does not depend on the width); within 14 px of each. Presenter mode draws them 1.4 times as tall.
_FORMULA_PX = {"base": 20.5, "line": 32.7, "fraction": 12.6, "limits": 15.4, "cases": 27.3}
_PRESENTER_FORMULA_SCALE = 1.4
_LIMITS = re.compile(r"\\(?:sum|max|prod)_")


def formula_height(latex: str, *, presenter_on: bool = False) -> int:
    """The estimated height (px) of ``latex`` drawn by st.latex, its element's margins included."""
    aligned = re.search(r"\\begin\{aligned\}(.*)\\end\{aligned\}", latex, re.S)
    lines = aligned.group(1).split("\\\\") if aligned else [latex]
    px = _FORMULA_PX["base"] + sum(
        _FORMULA_PX["line"]
        + _FORMULA_PX["fraction"] * ("\\frac" in line)
        + _FORMULA_PX["limits"] * bool(_LIMITS.search(line))
        + _FORMULA_PX["cases"] * ("\\begin{cases}" in line)
        for line in lines
    )
    return round(px * (_PRESENTER_FORMULA_SCALE if presenter_on else 1))


def formula_room(latex: str, where: object = st) -> None:
    """The first run's stand-in for a formula: an empty box of its estimated height (its key marks it as a
    first-paint placeholder, as the charts' boxes are)."""
    height = formula_height(latex, presenter_on=presenter.is_on())
    where.container(height=height, border=False, key=f"formula_first_paint_{first_paint_state.count_formula_room()}")


def formulas_follow() -> None:
    """Say that this run leaves formulas for the next in a room of its own (the playground's tabs): ``preload`` then
    fetches KaTeX's code, as for a formula's room."""
    first_paint_state.count_formula_room()


PRELOAD_KEY = "formulas_first_paint_preload"


def preload() -> None:
    """Call once per run in app.py, after the page: on a new visitor's first run, one hidden formula at the end, so
    the browser fetches KaTeX's code while the numbers are already on screen. Without it the second run's formulas
    waited for that code in boxes shorter than the formulas, and the page jumped up (about 150 px on the DCG & NDCG
    lesson), then down. A page with no formula to come (A vs B, Evaluate) fetches nothing: KaTeX's 265 kB would
    only compete with its numbers."""
    if not charts_now() and first_paint_state.formula_rooms():
        with st.container(key=PRELOAD_KEY):  # hidden by ir_metrics_lab.shell.layout's CSS
            st.latex(r"\mathrm{NDCG}")
