"""A brief (ir_metrics_lab.core.brief.model.Brief) as one self-contained HTML file of a few hundred kilobytes at most:
it opens from disk or an e-mail attachment with no network (the styles, the script and the charts, drawn as inline
SVG by ``svg``, are all inside it, and its Content-Security-Policy lets no request leave it), reads on a phone, prints
on one page (A4 or US Letter), and in its slide layout (``#slide``, or the link at its top) prints as one 16:9 page
for a deck. ``pdf`` writes the same page as a one-page PDF. Pure (no Streamlit).

The page is written by hand rather than with a template engine (the project has none): every piece of text that goes
into it passes through ``_e`` (``html.escape`` with quotes), so a file name, run tag, query id or title is shown as the
characters it is; the charts' text is escaped by matplotlib's SVG writer.

Printing on one page: the print layout is laid out in millimetres for the smaller page of the two (A4's width,
Letter's height). On ``beforeprint`` (which Chromium, Firefox and Safari fire, and Chromium's PDF printing too) the
script switches the page to that layout and zooms the sheet down if it is taller than the page; ``afterprint`` puts
the screen layout back. The charts are vector drawings sized by their box: nothing is redrawn.
"""

from __future__ import annotations

import html
from functools import cache
from importlib import resources
from string import Template

from ir_metrics_lab.core.brief.model import Brief, Chart, Table
from ir_metrics_lab.core.figures.palette import COLORS

# The smaller of A4 (210 x 297 mm) and US Letter (215.9 x 279.4 mm), less 10 mm margins: one sheet fits both.
PAGE_WIDTH_MM, PAGE_HEIGHT_MM, PAGE_MARGIN_MM = 190, 259, 10
# A 16:9 slide, 13.333 x 7.5 in (PowerPoint's and Google Slides' widescreen), less 0.35 in margins.
SLIDE_WIDTH_IN, SLIDE_HEIGHT_IN, SLIDE_MARGIN_IN = 13.333, 7.5, 0.35
CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:"
INK, MUTED, LINK = COLORS["ink"], "#4A5565", "#0B5394"  # contrast on white: 14.5, 7.6 and 8.2 to 1 (WCAG AA: 4.5)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _svg(index: int, chart: Chart, per_row: int) -> str:
    """The chart as inline SVG, named by its title and described by its text alternative."""
    from ir_metrics_lab.core.brief import svg  # matplotlib: imported when a brief is written, not when a page offers it

    ident = f"chart-{index}"
    names = f'<title id="{ident}-title">{_e(chart.title)}</title><desc id="{ident}-desc">{_e(chart.alt)}</desc>'
    return svg.svg(chart.figure, ident=ident, names=names, per_row=per_row)


def _link(text: str, address: str) -> str:
    if not address.startswith(("http://", "https://")):  # only the app's own address becomes a link
        return f"{_e(text)}: {_e(address)}"
    return f'<a href="{_e(address)}">{_e(text)}</a>'


def _table(table: Table, ident: str = "table-h") -> str:
    head = "".join(
        f'<th scope="col"{" class=num" if i in table.numeric else ""}>{_e(cell)}</th>'
        for i, cell in enumerate(table.header)
    )
    rows = []
    for r, row in enumerate(table.rows):
        cells = []
        for c, cell in enumerate(row):
            text = f"<strong>{_e(cell)}</strong>" if (r, c) in table.strong else _e(cell)
            cells.append(f"<td{' class=num' if c in table.numeric else ''}>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (
        f'<section class="table" aria-labelledby="{ident}"><h2 id="{ident}">{_e(table.title)}</h2>'
        f'<div class="scroll"><table><caption>{_e(table.caption)}</caption><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div></section>"
    )


def _chart(index: int, chart: Chart, per_row: int) -> str:
    return (
        f'<figure class="chart-box"><h2 class="chart-title" id="chart-{index}-h">{_e(chart.title)}</h2>'
        f'<div class="chart">{_svg(index, chart, per_row)}</div>'
        f"<figcaption>{_e(chart.caption)}</figcaption></figure>"
    )


def render(brief: Brief, *, printing: bool = False) -> str:
    """The whole HTML document; ``printing``: already in its printed layout, with no script (for ``pdf``)."""
    story = "".join(f"<li>{_e(line)}</li>" for line in brief.story)
    measures = "".join(f"<li>{_e(line)}</li>" for line in brief.measures)
    caveats = "".join(f"<li>{_e(line)}</li>" for line in brief.caveats)
    made = "".join(f"<dt>{_e(what)}</dt><dd>{_e(how)}</dd>" for what, how in brief.made)
    links = " · ".join(_link(text, address) for text, address in brief.links)
    date = next((how.split(",")[0] for what, how in brief.made if what == "Made"), "")
    return f"""<!doctype html>
<html lang="en"{' class="printing"' if printing else ""}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<title>{_e(brief.title)} · a brief from IR Metrics Lab</title>
<style>
{_css(len(brief.charts))}</style>
</head>
<body>
<nav class="controls" aria-label="Layout">
<a href="#page" id="to-page">Page layout</a>
<a href="#slide" id="to-slide">Slide layout (16:9)</a>
<button type="button" id="print">Print or save as PDF</button>
</nav>
<main class="sheet" id="sheet">
<header class="top">
<p class="kicker">A brief from IR Metrics Lab · {_e(date)}</p>
<h1>{_e(brief.title)}</h1>
<p class="headline">{_e(brief.headline)}</p>
<p class="numbers">{_e(brief.numbers)}</p>
{f'<ul class="story">{story}</ul>' if story else ""}
</header>
<div class="charts">{"".join(_chart(i, chart, len(brief.charts)) for i, chart in enumerate(brief.charts))}</div>
{_table(brief.table) if brief.table else ""}{"".join(_table(t, f"table-{i}-h") for i, t in enumerate(brief.tables, 2))}
<div class="columns">
<section class="measures" aria-labelledby="measures-h"><h2 id="measures-h">What each measure rewards</h2>
<ul>{measures}</ul></section>
<section class="caveats" aria-labelledby="caveats-h"><h2 id="caveats-h">What this does not tell you</h2>
<ul>{caveats}</ul></section>
</div>
<section class="made" aria-labelledby="made-h"><h2 id="made-h">How these numbers were made</h2>
<dl>{made}</dl>{f'<p class="links">{links}</p>' if links else ""}</section>
</main>
{"" if printing else f"<script>{_SCRIPT}</script>"}
</body>
</html>
"""


@cache
def _style_sheet() -> Template:
    """brief.css (beside this module, in the wheel too): the screen layout, then the slide layout (``html.slide``),
    the printed page (``html.printing``) and the @page rules, with ``${name}`` where a colour or size goes."""
    return Template(resources.files(__package__).joinpath("brief.css").read_text(encoding="utf-8"))


def _css(charts: int) -> str:
    """The style sheet with this module's colours and sizes (read when called), and a column per chart in the slide
    and printed layouts."""
    return _style_sheet().substitute(
        ink=INK,
        muted=MUTED,
        link=LINK,
        blue=COLORS["blue"],
        page_width=PAGE_WIDTH_MM,
        page_margin=PAGE_MARGIN_MM,
        slide_width=SLIDE_WIDTH_IN,
        slide_height=SLIDE_HEIGHT_IN,
        slide_margin=SLIDE_MARGIN_IN,
        slide_sheet_width=SLIDE_WIDTH_IN - 2 * SLIDE_MARGIN_IN,
        columns=max(charts, 1),
    )


# Switches between the page and the slide layout (the address's #slide), and fits the sheet on one printed page (see
# the module's docstring).
_SCRIPT = f"""
(function () {{
  "use strict";
  var root = document.documentElement;
  var sheet = document.getElementById("sheet");

  function budget() {{
    var probe = document.createElement("div");
    probe.style.cssText = "position:absolute;visibility:hidden;height:" +
      (root.classList.contains("slide") ? "{SLIDE_HEIGHT_IN - 2 * SLIDE_MARGIN_IN}in" : "{PAGE_HEIGHT_MM}mm");
    document.body.appendChild(probe);
    var px = probe.getBoundingClientRect().height;
    probe.remove();
    return px * 0.97;
  }}

  function fit() {{
    sheet.style.zoom = "";
    var height = sheet.getBoundingClientRect().height;
    var room = budget();
    if (height > room) {{ sheet.style.zoom = String(Math.floor(1000 * room / height) / 1000); }}
  }}

  function layout() {{ root.classList.toggle("slide", location.hash === "#slide"); }}

  window.addEventListener("beforeprint", function () {{
    root.classList.add("printing");
    fit();
  }});
  window.addEventListener("afterprint", function () {{
    root.classList.remove("printing");
    sheet.style.zoom = "";
  }});
  window.addEventListener("hashchange", layout);
  document.getElementById("print").addEventListener("click", function () {{ window.print(); }});
  layout();
}})();
"""


class PdfUnavailable(RuntimeError):
    """WeasyPrint cannot run here: the system lacks the Pango library it draws text with."""


PANGO_MISSING = (
    "the PDF needs the Pango library, which this machine lacks (Debian and Ubuntu: apt-get install libpango-1.0-0 "
    "libpangoft2-1.0-0; macOS: brew install pango)"
)
# The names WeasyPrint 70 tries for Pango's two libraries (weasyprint/text/ffi.py), on Linux, macOS and Windows
_PANGO_NAMES = (
    ("libpango-1.0.so.0", "libpango-1.0.dylib", "libpango-1.0-0.dll"),
    ("libpangoft2-1.0.so.0", "libpangoft2-1.0.dylib", "libpangoft2-1.0-0.dll"),
)


@cache
def pdf_problem() -> str | None:
    """Why ``pdf`` cannot run on this machine, or None. Cheap (it loads Pango, not WeasyPrint, whose import takes
    seconds), so a page can ask before it offers the PDF."""
    import ctypes

    for names in _PANGO_NAMES:
        for name in names:
            try:
                ctypes.CDLL(name)
                break
            except OSError:
                continue
        else:
            return PANGO_MISSING
    return None


A4_MM = (210, 297)
PDF_ZOOMS = (1.0, 0.92, 0.85, 0.78, 0.7, 0.6)  # tried in turn until the page fits on one sheet


def pdf(brief: Brief) -> bytes:
    """The brief's printed page as a one-page A4 PDF, drawn from the same HTML, print CSS and SVG by WeasyPrint.

    WeasyPrint rather than a browser (none is needed where the app runs) or fpdf2/reportlab (they would lay the page
    out a second time, by hand): it renders this page itself, and its one system need is Pango (Debian:
    libpango-1.0-0 and libpangoft2-1.0-0), which most Linux machines with fonts already have. It runs no script, so
    the sheet is fitted here: laid out on a page 1/zoom times A4, then written at that zoom, the first that fits.
    """
    try:
        from weasyprint import HTML
    except OSError as error:  # WeasyPrint loads Pango when imported
        raise PdfUnavailable(f"{PANGO_MISSING}: {error}") from error
    page = render(brief, printing=True)
    for zoom in PDF_ZOOMS:
        width, height, margin = A4_MM[0] / zoom, A4_MM[1] / zoom, PAGE_MARGIN_MM / zoom
        sized = page.replace(
            "</style>",
            f"@page {{ size: {width:.2f}mm {height:.2f}mm; margin: {margin:.2f}mm; }}\n"
            f"html.printing .sheet {{ width: {width - 2 * margin:.2f}mm; }}\n</style>",
            1,
        )
        document = HTML(string=sized).render()
        if len(document.pages) == 1:
            break
    return document.write_pdf(zoom=zoom)
