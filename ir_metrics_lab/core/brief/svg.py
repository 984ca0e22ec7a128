"""A brief's charts as static, inline SVG: each chart's plotly figure (``charts``, ``rankings``, the app's own) drawn
again by matplotlib, so the one-file brief carries a few kilobytes of vector drawing per chart instead of plotly.js
(about 4.8 MB). Pure.

Why matplotlib: it draws SVG in-process with no browser and no system library (Vega-Lite through vl-convert would
too, but it needs each chart written again as a spec; matplotlib can follow the plotly figure the app already builds,
so a chart is defined once). It reads the figure's traces (scatter, bar, waterfall), shapes and annotations, the
subset of plotly these figures use; anything else raises, so a new kind of trace cannot silently vanish from a brief.

Text stays text (``svg.fonttype`` none): it prints sharp, can be searched and copied, and costs bytes per letter, not
per glyph outline. User text arrives escaped for plotly (``chart_label``): it is unescaped here, and matplotlib's SVG
writer escapes it again for XML; a ``$`` is escaped so matplotlib never reads it as mathematics.
"""

from __future__ import annotations

import html
import io
import re
import threading

import matplotlib
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.transforms import blended_transform_factory

from ir_metrics_lab.core.figures.palette import COLORS

# Drawn this wide (inches) for a row of 1, 2 or 3 charts, then scaled by the page: with 3, ~1.2x on a 1440 px screen
# and ~0.8x on a printed page (text of 8.5 pt prints at about 7 pt)
WIDTHS_IN = {1: 4.6, 2: 4.0, 3: 3.0}
FONT_PT = 8.5
PX = 0.75  # plotly sizes are CSS pixels; matplotlib's are points
DASHES = {"solid": "-", "dash": (0, (4, 2.5)), "dot": (0, (1, 1.6)), "dashdot": "-.", "longdash": (0, (7, 3))}
MOST_POINTS = 800  # a line with more is thinned: a chart is ~230 pt wide, so 200 runs of 4 points, ~1 pt each
MARKERS = {"circle": "o", "square": "s", "diamond": "D", "triangle-up": "^", "x": "X", "cross": "P"}
_RC = {
    "svg.fonttype": "none",
    "svg.hashsalt": "brief",  # ids (clip paths, markers) the same from one run to the next
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],
    "font.size": FONT_PT,
    "text.color": COLORS["ink"],
    "axes.labelcolor": COLORS["ink"],
    "axes.edgecolor": "#8A94A3",
    "axes.linewidth": 0.6,
    "xtick.color": COLORS["ink"],
    "ytick.color": COLORS["ink"],
    "xtick.major.size": 2.5,
    "ytick.major.size": 2.5,
    "legend.fontsize": FONT_PT - 0.5,
    "legend.frameon": False,
}
_LOCK = threading.Lock()  # rcParams are global and Streamlit draws on several threads


def _t(text: object) -> str:
    """A plotly label (entities, maybe ``<br>``) as the plain text matplotlib draws."""
    return html.unescape(re.sub(r"<br\s*/?>", "\n", str(text or ""))).replace("$", r"\$")


def svg(figure, *, ident: str, names: str = "", per_row: int = 3) -> str:
    """``figure`` (a plotly Figure) as an ``<svg role="img">`` element, its ids prefixed with ``ident`` so several can
    share a page, drawn for a row of ``per_row`` charts. ``names``: its ``<title id="{ident}-title">`` and
    ``<desc id="{ident}-desc">`` elements, written (and escaped) by the page, which its aria-labelledby names."""
    spec = figure.to_plotly_json()
    with _LOCK, matplotlib.rc_context(_RC):
        fig = _draw(spec, WIDTHS_IN[min(max(per_row, 1), 3)])
        out = io.StringIO()
        FigureCanvasSVG(fig).print_svg(out, metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    return _inline(out.getvalue(), names, ident)


def _draw(spec: dict, width: float) -> Figure:
    layout = spec.get("layout", {})
    height = min(width, 3.0) * layout.get("height", 300) / 400  # a wider chart is no taller: it sits in a row
    fig = Figure(figsize=(width, height), layout="constrained")
    fig.get_layout_engine().set(w_pad=0.05, h_pad=0.03)  # inches: room for a PDF font a little wider
    ax = fig.add_subplot()
    categories = _categories(spec)
    traces = spec.get("data", [])
    bars = [t for t in traces if t.get("type") == "bar"]
    for trace in traces:
        kind = trace.get("type", "scatter")
        if kind == "scatter":
            _scatter(ax, trace, categories)
        elif kind == "bar":
            _bar(ax, trace, categories, bars.index(trace), len(bars), layout)
        elif kind == "waterfall":
            _waterfall(ax, trace, categories)
        else:
            raise ValueError(f"the brief cannot draw a plotly {kind!r} trace as SVG")
    for shape in layout.get("shapes", []):
        _shape(ax, shape)
    for note in layout.get("annotations", []):
        _annotation(ax, note)
    _axes(ax, layout, categories)
    _legend(fig, ax, layout)
    return fig


def _categories(spec: dict) -> dict[str, list[str]]:
    """Per axis ("x", "y"), its category labels in order of first appearance when its values are text."""
    found: dict[str, list[str]] = {}
    for trace in spec.get("data", []):
        for axis in ("x", "y"):
            values = trace.get(axis)
            if values is not None and len(values) and isinstance(values[0], str):
                seen = found.setdefault(axis, [])
                seen += [v for v in values if v not in seen]
    return found


def _coords(trace: dict, axis: str, categories: dict[str, list[str]]) -> list[float]:
    values = list(trace.get(axis, []))
    if axis in categories:
        return [categories[axis].index(v) for v in values]
    return [float(v) for v in values]


def _symbol(name: str) -> tuple[str, bool]:
    """A plotly marker symbol as matplotlib's, and whether it is drawn open."""
    return MARKERS.get(name.removesuffix("-open"), "o"), name.endswith("-open")


def _thinned(x: list[float], y: list[float]) -> tuple[list[float], list[float]]:
    """A long line (thousands of queries) cut to about MOST_POINTS points that draw the same at a chart's size: per
    run of neighbouring points, its first, lowest, highest and last, in order (each run is under a point wide)."""
    per = -(-len(x) // (MOST_POINTS // 4))
    keep: list[int] = []
    for start in range(0, len(x), per):
        run = range(start, min(start + per, len(x)))
        keep += sorted({run[0], min(run, key=y.__getitem__), max(run, key=y.__getitem__), run[-1]})
    return [x[i] for i in keep], [y[i] for i in keep]


def _scatter(ax, trace: dict, categories: dict[str, list[str]]) -> None:
    x, y = _coords(trace, "x", categories), _coords(trace, "y", categories)
    mode = trace.get("mode", "lines+markers")
    line, marker = trace.get("line", {}), trace.get("marker", {})
    colour = line.get("color") or marker.get("color") or COLORS["ink"]
    step = {"hvh": "mid", "hv": "post", "vh": "pre"}.get(line.get("shape", ""))
    label = _t(trace.get("name")) if trace.get("showlegend", True) is not False else None
    if "markers" not in mode and not trace.get("error_x") and len(x) > MOST_POINTS:
        x, y = _thinned(x, y)
        step = None  # steps narrower than a line's width look the same drawn straight
    if trace.get("fill") == "tozeroy":
        ax.fill_between(x, y, 0, step=step, color=trace.get("fillcolor", colour), linewidth=0, label=label)
        return
    symbol, hollow = _symbol(marker.get("symbol", "circle"))
    style = {
        "color": marker.get("color", colour),
        "linestyle": DASHES.get(line.get("dash", "solid"), "-") if "lines" in mode else "none",
        "linewidth": line.get("width", 2) * PX,
        "marker": symbol if "markers" in mode else None,
        "markersize": marker.get("size", 6) * PX * 0.75,
        "markerfacecolor": "white" if hollow else marker.get("color", colour),
        "markeredgewidth": 1.0,
        "drawstyle": f"steps-{step}" if step else "default",
        "zorder": 3,
    }
    errors = trace.get("error_x")
    if errors:
        ax.errorbar(
            x,
            y,
            xerr=[errors.get("arrayminus", errors["array"]), errors["array"]],
            ecolor=errors.get("color", colour),
            elinewidth=errors.get("thickness", 2) * PX,
            capsize=errors.get("width", 4) * PX * 0.6,
            label=label,
            **style,
        )
    else:
        ax.plot(x, y, label=label, **style)


def _bar(ax, trace: dict, categories: dict[str, list[str]], index: int, count: int, layout: dict) -> None:
    """One of ``count`` grouped bar traces (plotly's barmode "group"), its text printed beyond each bar."""
    horizontal = trace.get("orientation") == "h"
    where = _coords(trace, "y" if horizontal else "x", categories)
    values = [float(v) for v in trace.get("x" if horizontal else "y", [])]
    group = 1 - layout.get("bargap", 0.2)
    size = group / (count if layout.get("barmode") == "group" else 1)
    shift = (index - (count - 1) / 2) * size if layout.get("barmode") == "group" else 0.0
    where = [w + shift for w in where]
    colour = trace.get("marker", {}).get("color", COLORS["blue"])
    draw = ax.barh if horizontal else ax.bar
    bars = draw(where, values, size, color=colour, label=_t(trace.get("name")), zorder=2)
    text = trace.get("text")
    if text is not None and trace.get("textposition") == "outside":
        ax.bar_label(bars, labels=[_t(t) for t in text], padding=2, fontsize=FONT_PT - 1)


def _waterfall(ax, trace: dict, categories: dict[str, list[str]]) -> None:
    """Plotly's waterfall: absolute and total bars from 0, relative ones from the running sum, joined by connectors."""
    x = _coords(trace, "x", categories)
    kinds = trace.get("measure", ["relative"] * len(x))
    colours = {key: trace.get(key, {}).get("marker", {}).get("color") for key in ("increasing", "decreasing", "totals")}
    running, tops = 0.0, []
    for i, (value, kind) in enumerate(zip(trace.get("y", []), kinds, strict=True)):
        if kind == "relative":
            bottom, running = running, running + value
            colour = colours["increasing"] if value >= 0 else colours["decreasing"]
        else:
            bottom, running = 0.0, (value if kind == "absolute" else running)
            colour = colours["totals"]
        ax.bar(x[i], running - bottom, 0.6, bottom=bottom, color=colour, zorder=2)
        tops.append(running)
    connector = trace.get("connector", {}).get("line", {})
    for i in range(len(x) - 1):
        ax.plot([x[i] + 0.3, x[i + 1] - 0.3], [tops[i]] * 2, color=connector.get("color", COLORS["grey"]), lw=0.8)
    for i, text in enumerate(trace.get("text") or []):
        ax.annotate(
            _t(text), (x[i], tops[i]), xytext=(0, 2), textcoords="offset points", ha="center", va="bottom",
            fontsize=FONT_PT - 1,
        )  # fmt: skip


def _ref(ax, ref: str, axis: str):
    """A plotly coordinate reference (``x``, ``paper``, ``x domain``) as a matplotlib transform's half."""
    return ax.transAxes if ref in ("paper", f"{axis} domain") else ax.transData


def _shape(ax, shape: dict) -> None:
    if shape.get("type") != "line":
        raise ValueError(f"the brief cannot draw a plotly {shape.get('type')!r} shape as SVG")
    line = shape.get("line", {})
    where = blended_transform_factory(_ref(ax, shape.get("xref", "x"), "x"), _ref(ax, shape.get("yref", "y"), "y"))
    ax.plot(
        [shape["x0"], shape["x1"]],
        [shape["y0"], shape["y1"]],
        transform=where,
        color=line.get("color", COLORS["ink"]),
        linewidth=line.get("width", 1) * PX,
        linestyle=DASHES.get(line.get("dash", "solid"), "-"),
        zorder=4,
    )


def _annotation(ax, note: dict) -> None:
    where = blended_transform_factory(_ref(ax, note.get("xref", "x"), "x"), _ref(ax, note.get("yref", "y"), "y"))
    background = note.get("bgcolor")
    ax.annotate(
        _t(note.get("text")),
        (note.get("x", 0), note.get("y", 0)),
        xycoords=where,
        xytext=(note.get("xshift", 0) * PX + 1, note.get("yshift", 0) * PX + 1),
        textcoords="offset points",
        ha={"left": "left", "right": "right"}.get(note.get("xanchor", ""), "center"),
        va={"bottom": "bottom", "top": "top"}.get(note.get("yanchor", ""), "center"),
        fontsize=FONT_PT - 1,
        bbox={"facecolor": "white", "alpha": 0.85, "edgecolor": "none", "pad": 1} if background else None,
        zorder=5,
    )


def _axes(ax, layout: dict, categories: dict[str, list[str]]) -> None:
    for axis in ("x", "y"):
        spec = layout.get(f"{axis}axis", {})
        getattr(ax, f"set_{axis}label")(_t(spec.get("title", {}).get("text")))
        if axis in categories:
            labels = categories[axis]
            getattr(ax, f"set_{axis}ticks")(range(len(labels)), labels=[_t(label) for label in labels])
            getattr(ax, f"set_{axis}lim")(-0.6, len(labels) - 0.4)
        if spec.get("range"):
            getattr(ax, f"set_{axis}lim")(*spec["range"])
        if spec.get("autorange") == "reversed":
            getattr(ax, f"invert_{axis}axis")()
        if spec.get("tickmode") == "linear":
            low, high = getattr(ax, f"get_{axis}lim")()
            start, step = spec.get("tick0", 0), spec.get("dtick", 1)
            getattr(ax, f"set_{axis}ticks")([t for t in _arange(start, max(low, high), step) if t >= min(low, high)])
        if spec.get("ticksuffix"):
            getattr(ax, f"{axis}axis").set_major_formatter(f"{{x:g}}{spec['ticksuffix']}")
        if spec.get("showticklabels") is False:
            ax.tick_params(axis=axis, labelbottom=False, labelleft=False, length=0)
        grid = spec.get("showgrid", axis == "y")
        if grid:
            ax.grid(True, axis=axis, color=spec.get("gridcolor", "#E5E9F0"), linewidth=0.6, zorder=0)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if layout.get("yaxis", {}).get("zeroline", True) and "y" not in categories:
        low, high = ax.get_ylim()
        if min(low, high) < 0 < max(low, high):
            ax.axhline(0, color=layout["yaxis"].get("zerolinecolor", "#8A94A3"), linewidth=0.8, zorder=1)


def _arange(start: float, stop: float, step: float) -> list[float]:
    values, value = [], start
    while value <= stop + 1e-9:
        values.append(value)
        value += step
    return values


def _legend(fig: Figure, ax, layout: dict) -> None:
    """Above the plot, left-aligned, in as many columns as the labels' lengths allow (at print size a legend beside
    the plot would take its room)."""
    handles, labels = ax.get_legend_handles_labels()
    if not labels or layout.get("showlegend") is False:
        return
    width = fig.get_figwidth() * 72 / ((FONT_PT - 0.5) * 0.55)  # about this many letters fit across
    per_row = max(1, min(len(labels), int(width // max(len(label) + 5 for label in labels))))
    # matplotlib fills a legend column by column; plotly, and a reader, row by row
    order = [i * per_row + j for j in range(per_row) for i in range(len(labels)) if i * per_row + j < len(labels)]
    fig.legend(
        [handles[i] for i in order],
        [labels[i] for i in order],
        loc="outside upper left",
        ncols=per_row,
        handlelength=1.6,
        columnspacing=1.0,
        handletextpad=0.4,
        borderaxespad=0.1,
    )


def _tag(tag: str, ident: str) -> str:
    """One tag of the drawing (never a label's text, so a run named 'id="x"' stays as it is): its ids prefixed, its
    coordinates to 1/100 pt (matplotlib writes 1/1,000,000: a third of the file, invisible)."""
    return re.sub(r"(\d\.\d\d)\d+", r"\1", re.sub(r'(\sid="|url\(#|href="#)', rf"\g<1>{ident}-", tag))


def _inline(text: str, names: str, ident: str) -> str:
    """Matplotlib's SVG document as an element for an HTML page: no XML prolog, doctype or metadata, sized by its
    viewBox (the page's CSS sets its width), named and described for assistive technology, with ids unique to it."""
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text[text.index("<svg") :], flags=re.S)
    opening, body = text[: text.index(">") + 1], text[text.index(">") + 1 :]
    view_box = re.search(r'viewBox="([^"]+)"', opening).group(1)
    body = re.sub(r"<[^>]*>", lambda tag: _tag(tag[0], ident), body)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="{view_box}" '
        f'role="img" aria-labelledby="{ident}-title {ident}-desc">{names}' + body
    )
