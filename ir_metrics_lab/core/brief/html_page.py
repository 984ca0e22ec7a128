"""A brief (ir_metrics_lab.core.brief.model.Brief) as one self-contained HTML file: it opens from disk or an e-mail
attachment with no network (plotly.js, the styles, the script and the figures are all inside it, and its
Content-Security-Policy lets no request leave it), reads on a phone, prints on one page (A4 or US Letter), and in its
slide layout (``#slide``, or the link at its top) prints as one 16:9 page for a deck. Pure (no Streamlit).

The page is written by hand rather than with a template engine (the project has none): every piece of text that goes
into it passes through ``_e`` (``html.escape`` with quotes), so a file name, run tag, query id or title is shown as the
characters it is; the figures' JSON is embedded with every ``<``, ``>`` and ``&`` written as a JSON escape, so no
string in it can close its script element.

Printing on one page: the print layout is laid out in millimetres for the smaller page of the two (A4's width,
Letter's height). On ``beforeprint`` (which Chromium, Firefox and Safari fire, and Chromium's PDF printing too) the
script switches the page to that layout, redraws each chart at its printed size, and zooms the sheet down if it is
taller than the page; ``afterprint`` puts the screen layout back.
"""

from __future__ import annotations

import html
from functools import cache
from importlib import resources
from string import Template

import plotly.io as pio

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


@cache
def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    script = get_plotlyjs()
    return script.replace("</script", "<\\/script")  # plotly.min.js has none; a future one must not end the element


def _figure_json(chart: Chart) -> str:
    return pio.to_json(chart.figure, validate=False, remove_uids=True)


def _embedded(charts: tuple[Chart, ...]) -> str:
    """The figures as one JSON array, safe inside a script element (JSON's \\u escapes for < > &)."""
    text = "[" + ",".join(_figure_json(chart) for chart in charts) + "]"
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _link(text: str, address: str) -> str:
    if not address.startswith(("http://", "https://")):  # only the app's own address becomes a link
        return f"{_e(text)}: {_e(address)}"
    return f'<a href="{_e(address)}">{_e(text)}</a>'


def _table(table: Table) -> str:
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
        '<section class="table" aria-labelledby="table-h"><h2 id="table-h">The numbers</h2>'
        f'<div class="scroll"><table><caption>{_e(table.caption)}</caption><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div></section>"
    )


def _chart(index: int, chart: Chart) -> str:
    return (
        f'<figure class="chart-box"><h2 class="chart-title" id="chart-{index}-h">{_e(chart.title)}</h2>'
        f'<div class="chart" data-figure="{index}" role="img" aria-label="{_e(chart.alt)}"></div>'
        f"<figcaption>{_e(chart.caption)}</figcaption></figure>"
    )


def render(brief: Brief) -> str:
    """The whole HTML document."""
    story = "".join(f"<li>{_e(line)}</li>" for line in brief.story)
    measures = "".join(f"<li>{_e(line)}</li>" for line in brief.measures)
    caveats = "".join(f"<li>{_e(line)}</li>" for line in brief.caveats)
    made = "".join(f"<dt>{_e(what)}</dt><dd>{_e(how)}</dd>" for what, how in brief.made)
    links = " · ".join(_link(text, address) for text, address in brief.links)
    date = next((how.split(",")[0] for what, how in brief.made if what == "Made"), "")
    return f"""<!doctype html>
<html lang="en">
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
<div class="charts">{"".join(_chart(i, chart) for i, chart in enumerate(brief.charts))}</div>
{_table(brief.table) if brief.table else ""}
<div class="columns">
<section class="measures" aria-labelledby="measures-h"><h2 id="measures-h">What each measure rewards</h2>
<ul>{measures}</ul></section>
<section class="caveats" aria-labelledby="caveats-h"><h2 id="caveats-h">What this does not tell you</h2>
<ul>{caveats}</ul></section>
</div>
<section class="made" aria-labelledby="made-h"><h2 id="made-h">How these numbers were made</h2>
<dl>{made}</dl>{f'<p class="links">{links}</p>' if links else ""}</section>
</main>
<script type="application/json" id="brief-figures">{_embedded(brief.charts)}</script>
<script>{_plotly_js()}</script>
<script>{_SCRIPT}</script>
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


# Draws the charts, switches between the page and the slide layout (the address's #slide), and fits the sheet on one
# printed page (see the module's docstring).
_SCRIPT = f"""
(function () {{
  "use strict";
  var root = document.documentElement;
  var sheet = document.getElementById("sheet");
  var figures = JSON.parse(document.getElementById("brief-figures").textContent);
  var boxes = Array.prototype.slice.call(document.querySelectorAll(".chart[data-figure]"));
  var config = {{ displayModeBar: false, responsive: true, displaylogo: false }};

  function copy(value) {{ return JSON.parse(JSON.stringify(value || {{}})); }}

  function layoutFor(figure, box, printed) {{
    var layout = copy(figure.layout);
    delete layout.title;
    layout.margin = Object.assign({{}}, layout.margin, {{ t: 12 }});
    if (!printed) {{
      layout.autosize = true;
      delete layout.width;
      return layout;
    }}
    var small = !root.classList.contains("slide");
    layout.autosize = false;
    layout.width = box.clientWidth;
    layout.height = box.clientHeight;
    layout.font = Object.assign({{}}, layout.font, {{ size: small ? 9 : 12 }});
    // legends above the plot, in as many columns as their names allow: at a few centimetres a legend beside or under
    // the plot takes its room
    var names = (figure.data || []).filter(function (trace) {{ return trace.name && trace.showlegend !== false; }})
      .map(function (trace) {{ return String(trace.name).length; }});
    var entry = 36 + (small ? 4 : 6) * Math.max.apply(null, names.concat([1]));  // symbol, then about 4 px a letter
    var columns = Math.max(1, Math.min(names.length, Math.floor((box.clientWidth - 50) / entry)));
    layout.legend = Object.assign({{}}, layout.legend, {{ font: {{ size: small ? 7.5 : 11 }}, orientation: "h",
      x: 0, xanchor: "left", y: 1.0, yanchor: "bottom", itemwidth: 30, tracegroupgap: 0, traceorder: "normal",
      entrywidthmode: "fraction", entrywidth: 0.98 / columns }});
    layout.margin = Object.assign({{}}, layout.margin, {{
      l: Math.min(layout.margin.l || 48, small ? 40 : 56), r: 8, t: 8,
      b: Math.min(layout.margin.b || 40, small ? 52 : 70) }});
    return layout;
  }}

  function draw(printed) {{
    boxes.forEach(function (box) {{
      var figure = figures[Number(box.dataset.figure)];
      if (!printed && figure.layout && figure.layout.height) {{ box.style.height = figure.layout.height + "px"; }}
      if (printed) {{ box.style.height = ""; }}
      Plotly.react(box, figure.data, layoutFor(figure, box, printed), config);
    }});
  }}

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

  function layout() {{
    root.classList.toggle("slide", location.hash === "#slide");
    if (typeof Plotly !== "undefined") {{ draw(root.classList.contains("printing")); }}
  }}

  window.addEventListener("beforeprint", function () {{
    root.classList.add("printing");
    draw(true);
    fit();
  }});
  window.addEventListener("afterprint", function () {{
    root.classList.remove("printing");
    sheet.style.zoom = "";
    draw(false);
  }});
  window.addEventListener("hashchange", layout);
  document.getElementById("print").addEventListener("click", function () {{ window.print(); }});
  layout();
}})();
"""
