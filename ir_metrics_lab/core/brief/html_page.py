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
<style>{_css(len(brief.charts))}</style>
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


def _css(charts: int) -> str:
    screen = f"""
:root {{ color-scheme: light; }}
* {{ box-sizing: border-box; }}
body {{ margin: 0; background: #F3F5F8; color: {INK};
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }}
a {{ color: {LINK}; }}
.controls {{ display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: flex-end;
  max-width: 1180px; margin: 0 auto; padding: 0.75rem 1rem 0; font-size: 0.9rem; }}
.controls button {{ font: inherit; color: {INK}; background: #fff; border: 1px solid #8A94A3; border-radius: 6px;
  padding: 0.3rem 0.7rem; cursor: pointer; }}
.sheet {{ max-width: 1180px; margin: 0.75rem auto 2rem; padding: 1.5rem 2rem; background: #fff;
  border-radius: 10px; box-shadow: 0 1px 3px rgba(0, 0, 0, 0.12); }}
.kicker {{ margin: 0; color: {MUTED}; font-size: 0.85rem; letter-spacing: 0.02em; }}
h1 {{ margin: 0.2rem 0 0.6rem; font-size: 1.9rem; line-height: 1.2; overflow-wrap: anywhere; }}
h2 {{ font-size: 1.1rem; margin: 0 0 0.4rem; }}
.headline {{ font-size: 1.3rem; font-weight: 600; line-height: 1.4; margin: 0 0 0.6rem; overflow-wrap: anywhere; }}
.numbers {{ margin: 0 0 0.6rem; padding: 0.5rem 0.75rem; background: #EEF4FA; border-left: 4px solid
  {COLORS["blue"]}; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }}
.story {{ margin: 0 0 0.5rem; padding-left: 1.2rem; overflow-wrap: anywhere; }}
.charts {{ display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 1.25rem;
  margin: 1.25rem 0; }}
.chart-box {{ margin: 0; min-width: 0; }}
.chart-title {{ font-size: 1rem; margin: 0 0 0.25rem; }}
.chart {{ width: 100%; min-height: 300px; }}
figcaption {{ font-size: 0.92rem; color: {MUTED}; margin-top: 0.3rem; overflow-wrap: anywhere; }}
.table {{ margin: 1rem 0; }}
.scroll {{ overflow-x: auto; }}
table {{ border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.95rem; }}
caption {{ caption-side: bottom; text-align: left; color: {MUTED}; font-size: 0.88rem; padding-top: 0.3rem; }}
th, td {{ padding: 0.25rem 0.7rem; border-bottom: 1px solid #D5DAE1; text-align: left; vertical-align: top;
  overflow-wrap: anywhere; }}
th {{ border-bottom: 2px solid #8A94A3; }}
.num {{ text-align: right; white-space: nowrap; }}
.columns {{ display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 1.5rem; }}
.columns ul {{ margin: 0; padding-left: 1.2rem; overflow-wrap: anywhere; }}
.columns li {{ margin-bottom: 0.35rem; }}
.made {{ margin-top: 1.25rem; padding-top: 0.75rem; border-top: 1px solid #D5DAE1; font-size: 0.9rem; }}
.made dl {{ display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0; }}
.made dt {{ font-weight: 600; }}
.made dd {{ margin: 0; overflow-wrap: anywhere; }}
.links {{ margin: 0.5rem 0 0; }}
@media (max-width: 640px) {{
  body {{ background: #fff; }}
  .sheet {{ margin: 0; padding: 1rem; border-radius: 0; box-shadow: none; }}
  h1 {{ font-size: 1.5rem; }}
  .headline {{ font-size: 1.12rem; }}
  .charts {{ grid-template-columns: 1fr; }}
  .made dl {{ grid-template-columns: 1fr; }}
  .made dd {{ margin-bottom: 0.4rem; }}
}}
"""
    # The slide layout, on screen and printed: a 16:9 sheet with the headline, the charts in a row and the caveats.
    slide = f"""
html.slide .sheet {{ width: {SLIDE_WIDTH_IN - 2 * SLIDE_MARGIN_IN}in; max-width: none; padding: 0; }}
html.slide .charts {{ grid-template-columns: repeat({{columns}}, 1fr); margin: 0.6rem 0; gap: 0.9rem; }}
html.slide .chart {{ height: 2.55in; min-height: 0; }}
html.slide h1 {{ font-size: 28px; margin-bottom: 0.3rem; }}
html.slide .headline {{ font-size: 19px; }}
html.slide .story, html.slide .measures, html.slide .made dl, html.slide .table {{ display: none; }}
html.slide .columns {{ grid-template-columns: 1fr; }}
html.slide .caveats li:nth-child(n+4) {{ display: none; }}
html.slide .made {{ margin-top: 0.4rem; padding-top: 0.3rem; }}
html.slide .made h2 {{ display: none; }}
"""
    # The page layout for printing: millimetres and points, sized for the smaller of A4 and Letter.
    printed = f"""
html.printing body {{ background: #fff; font-size: 8.6pt; line-height: 1.35; }}
html.printing .controls {{ display: none; }}
html.printing .sheet {{ width: {PAGE_WIDTH_MM}mm; max-width: none; margin: 0; padding: 0; border-radius: 0;
  box-shadow: none; }}
html.printing h1 {{ font-size: 16pt; margin: 0.5mm 0 1.5mm; }}
html.printing h2 {{ font-size: 9.5pt; margin-bottom: 1mm; }}
html.printing .kicker {{ font-size: 7.5pt; }}
html.printing .headline {{ font-size: 10.5pt; margin-bottom: 1.5mm; }}
html.printing .numbers {{ padding: 1.2mm 2mm; margin-bottom: 1.5mm; }}
html.printing .story {{ margin-bottom: 1mm; }}
html.printing .charts {{ grid-template-columns: repeat({{columns}}, 1fr); gap: 4mm; margin: 2.5mm 0; }}
html.printing .chart-title {{ font-size: 8.6pt; margin-bottom: 0.5mm; }}
html.printing .chart {{ height: 60mm; min-height: 0; }}
html.printing figcaption {{ font-size: 7.6pt; margin-top: 0.5mm; }}
html.printing .table {{ margin: 2mm 0; }}
html.printing table {{ font-size: 7.8pt; }}
html.printing th, html.printing td {{ padding: 0.4mm 2mm; }}
html.printing caption {{ font-size: 7.4pt; }}
html.printing .columns {{ grid-template-columns: 1fr 1fr; gap: 5mm; }}
html.printing .columns li {{ margin-bottom: 0.8mm; }}
html.printing .made {{ margin-top: 2.5mm; padding-top: 1.5mm; font-size: 7.4pt; }}
html.printing .made dl {{ gap: 0.3mm 3mm; }}
html.printing .links {{ margin-top: 1mm; }}
html.printing.slide body {{ font-size: 12px; }}
html.printing.slide .sheet {{ width: {SLIDE_WIDTH_IN - 2 * SLIDE_MARGIN_IN}in; }}
html.printing.slide .chart {{ height: 2.55in; }}
html.printing.slide h1 {{ font-size: 26px; }}
html.printing.slide .headline {{ font-size: 18px; }}
html.printing.slide .numbers {{ font-size: 14px; }}
html.printing.slide figcaption {{ font-size: 11px; }}
html.printing.slide .columns {{ grid-template-columns: 1fr; }}
html.printing.slide .made {{ font-size: 10px; }}
"""
    pages = f"""
@page {{ size: auto; margin: {PAGE_MARGIN_MM}mm; }}
@page slide {{ size: {SLIDE_WIDTH_IN}in {SLIDE_HEIGHT_IN}in; margin: {SLIDE_MARGIN_IN}in; }}
html.slide .sheet {{ page: slide; }}
@media print {{
  html, body {{ background: #fff; }}
  .controls {{ display: none; }}
  .sheet {{ break-inside: avoid; }}
  a {{ color: {LINK}; }}
}}
"""
    return (screen + slide + printed + pages).replace("{columns}", str(max(charts, 1)))


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
