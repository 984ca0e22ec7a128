"""Presenter mode: large type, large metric values and charts, no sidebar (a menu of pages instead), for a projector.

It is one plain session-state flag (``ir_metrics_lab.session.presenter_state.presenter_on``), so it survives page
switches. The look is a static style block sent with ir_metrics_lab.shell.css (it takes no space on the page).
Nothing in it comes from the user. Streamlit 1.67 has no per-session option for this: ``theme.baseFontSize`` in
config.toml applies to every session of the server.

Wiring (app.py, every page): ``presenter.apply()`` before ``page.run()`` and ``presenter.sidebar_toggle()`` in the
shared sidebar. In presenter mode app.py draws no sidebar, and ``apply()`` draws an "Exit presenter mode" button and
the menu of pages at the top of the page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import streamlit as st

from ir_metrics_lab.core.figures import palette
from ir_metrics_lab.session import presenter_state, widget_state
from ir_metrics_lab.shell import css

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

SIDEBAR_KEY = "presenter_sidebar_toggle"
EXIT_KEY = "presenter_exit"

# Static CSS only. Streamlit sizes its text in rem, so a larger root font scales the type, metric cards, widgets and
# KaTeX together. Charts are not zoomed (Plotly lays out from its container's unzoomed size, so a CSS zoom clips the
# right-hand side, seen in Chromium): pages pass them through ``scaled``. Less top padding, a smaller title and
# five metric cards to a row keep the playground's list and cards in the first screen at 1920x1080. Tables a class
# reads are st.table (HTML, in rem) there: st.dataframe draws on a canvas in fixed pixels. The ranked list's badges
# read --rk-badge-size (ir_metrics_lab/parts/components/sortable.css).
CSS = """
html {
  font-size: 21px; --rk-badge-size: 0.9rem;
  /* the ranked list's colours at 7:1 (sortable.css) */
  --irlab-cutoff: #8A3700; --irlab-relevant-text: #004F7C; --irlab-muted: #474F57;
}
/* Presenter mode draws no sidebar, but one opened earlier in the session stays as an empty pane */
[data-testid="stSidebar"], [data-testid="stExpandSidebarButton"] { display: none !important; }
[data-testid="stMainBlockContainer"] {
  max-width: 100%; padding-left: 2.5rem; padding-right: 2.5rem; padding-top: 3.3rem; padding-bottom: 2rem;
}
/* Streamlit's header (3.75rem, white, over what scrolls under it) ends above that padding, so the presenter bar's
   buttons and their focus ring (a 0.2rem shadow) are drawn whole */
[data-testid="stHeader"] { height: 3rem !important; min-height: 3rem !important; }
h1 { font-size: 2.3rem !important; padding-top: 0 !important; }
.stElementContainer:has(> [data-testid="stMetric"]) { flex: 1 1 0 !important; min-width: 5.3rem !important; }
[data-testid="stMetric"] { padding: 0.3rem !important; width: 100% !important; container-type: inline-size; }
[data-testid="stMetric"] > div { padding: 0.45rem !important; }
/* A value ("0.9724") fits its card on one line, shrinking with the card below 1920 px (a 1280 px projector: five
   cards beside the playground's list) down to a floor, and a card keeps room for that floor (narrower, the row
   wraps); a label shrinks too, and may wrap. 100cqi is the card's width. */
[data-testid="stMetricValue"] { font-size: clamp(1.3rem, calc((100cqi - 0.9rem) / 3), 2.2rem); }
[data-testid="stMetricLabel"] p { font-size: clamp(0.75rem, calc((100cqi - 0.9rem) / 6.5), 1.05rem); font-weight: 600; }
.katex { font-size: 1.3em; }
/* Text at 7:1 or more (WCAG AAA 1.4.6: a projector washes colours out), where Streamlit's or the app's own colour
   is 4.5-6:1: captions, table headers, the primary colour as text (a slider's value, a chosen segment) and under
   white text (primary buttons, a multiselect's chips). */
[data-testid="stCaptionContainer"] { color: #474F57 !important; }
[data-testid="stTable"] th { color: #1F2933 !important; }
[data-testid="stSliderThumbValue"], [data-testid="stButtonGroup"] button[aria-checked="true"] {
  color: #004F7C !important;
}
[data-testid="stMultiSelectTagsContainer"] > span > span, [data-testid^="stBaseButton-primary"]:not(:disabled) {
  background-color: #005A8C !important; border-color: #005A8C !important;
}
"""


FONT_SCALE = 1.5  # chart text grows with the page's type (21 px root instead of 14-16 px)


def is_on() -> bool:
    return presenter_state.presenter_on()


def scaled(fig):
    """A Plotly figure with its text (axes, ticks, legend, hover, title, annotations) and height scaled for the
    projector when presenter mode is on; unchanged otherwise. Plotly lays text out in pixels, so the page's larger
    root font does not reach it."""
    if not presenter_state.presenter_on():
        return fig
    layout = fig.layout
    base = layout.font.size or 13
    margins = {"l": layout.margin.l, "t": layout.margin.t, "b": layout.margin.b}
    fig.update_layout(
        font={"size": round(base * FONT_SCALE)},
        hoverlabel={"font_size": round((layout.hoverlabel.font.size or 13) * FONT_SCALE)},
        height=round((layout.height or 300) * 1.3),
        margin={side: round(px * FONT_SCALE) for side, px in margins.items() if px is not None},
    )
    if layout.title and layout.title.font and layout.title.font.size:
        fig.update_layout(title_font_size=round(layout.title.font.size * FONT_SCALE))
    for annotation in layout.annotations or ():
        annotation.font.size = round((annotation.font.size or base) * FONT_SCALE)
    for trace in fig.data:  # text drawn in cells or on bars with a size of its own (the swap heatmap's values)
        textfont = getattr(trace, "textfont", None)
        if textfont is not None and textfont.size:
            textfont.size = round(textfont.size * FONT_SCALE)
    return projector_marks(fig)


MARK_OUTLINE = {"color": palette.COLORS["ink"], "width": 1.5}


def _projected(colour: object) -> object:
    return palette.PROJECTOR_COLORS.get(colour.upper(), colour) if isinstance(colour, str) else colour


def projector_marks(fig):
    """Chart marks that a washed-out projector still shows: 4.5:1 or more against the white plot (issue #27,
    item 5). Bars keep their fill (their colour tells categories apart) inside an ink outline; lines and markers
    take the darker variant of their colour (palette.PROJECTOR_COLORS); reference lines too; text on the plot is
    ink. A heatmap's cells are left as they are: each holds its value as text, and its table is one click away."""
    for trace in fig.data:
        if trace.type in ("bar", "histogram"):
            trace.marker.line = MARK_OUTLINE
        elif trace.type == "waterfall":
            for part in (trace.increasing, trace.decreasing, trace.totals):
                part.marker.line = MARK_OUTLINE
        elif trace.type == "scatter":
            trace.line.color = _projected(trace.line.color)
            if isinstance(trace.marker.color, str) and "rgba(0,0,0,0)" not in trace.marker.color.replace(" ", ""):
                trace.marker.color = _projected(trace.marker.color)
    for shape in fig.layout.shapes or ():
        shape.line.color = _projected(shape.line.color)
    for annotation in fig.layout.annotations or ():
        annotation.font.color = palette.COLORS["ink"]
    return fig


def toggle(key: str = "presenter_toggle", label: str = "Presenter mode") -> None:
    """A toggle bound to the presenter flag. Any number may be on screen (with different keys)."""
    # Its default is the flag itself (ir_metrics_lab.session.widget_state.sync_widget): a toggle mounted late that sent
    # its built-in default back turned presenter mode off after 4 page switches in 10. The Exit button and a link change
    # the flag under it.
    on = widget_state.sync_widget(key, presenter_state.presenter_on())
    st.toggle(
        label,
        value=on,
        key=key,
        on_change=lambda: presenter_state.set_presenter(bool(widget_state.widget_value(key))),
        help="For a projector: larger type and charts, no sidebar. An Exit button appears at the top of the page.",
    )


def sidebar_toggle() -> None:
    """The toggle in the shared sidebar (app.py)."""
    with st.sidebar:
        toggle(SIDEBAR_KEY)


LINK_KEY = "presenter"  # ?presenter=1 on any page's link turns presenter mode on


def from_link(params: dict[str, str]) -> bool | None:
    """What a link asks for: ``?presenter=1`` on, ``?presenter=0`` off, else nothing (None).

    >>> from_link({"presenter": "1", "docs": "a,b"}), from_link({"presenter": "0"}), from_link({"k": "3"})
    (True, False, None)
    """
    value = str(params.get(LINK_KEY, "")).strip().lower()
    return {"1": True, "true": True, "on": True, "0": False, "false": False, "off": False}.get(value)


def apply(beside_exit: Callable[[], None]) -> DeltaGenerator | None:
    """Call once per page run (app.py, before ``page.run()``): the session's first run reads ``?presenter=1``; in
    presenter mode, an Exit button, ``beside_exit()`` (the pages' menu: no sidebar is drawn) and the CSS, all before the
    page so that a projector's first paint already has the large type. The CSS sits last in the button's row: its
    element is a line of text until its style applies (ir_metrics_lab.shell.css), and there it moves nothing when it
    goes. Returns that row in presenter mode (app.py puts what would go in the sidebar there), else None."""
    if presenter_state.first_look_at_presenter_link():
        wanted = from_link(st.query_params.to_dict())
        if wanted is not None:
            presenter_state.set_presenter(wanted)
    if not presenter_state.presenter_on():
        return None
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    row.button(
        "Exit presenter mode",
        key=EXIT_KEY,
        icon=":material/fullscreen_exit:",
        on_click=presenter_state.set_presenter,
        args=(False,),
        type="tertiary",
    )
    with row:
        beside_exit()
    css.apply(CSS, row)
    return row
