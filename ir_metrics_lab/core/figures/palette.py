"""The colours and fill patterns every figure draws with: Okabe-Ito colours (colour-blind safe;
tests/test_colour_vision.py checks every palette here), each grade's colour and pattern, Retriever A's and B's colours,
the series' colours, dashes and marker symbols, and the darker variants a projector needs. Pure.

Colours are explicit values, set on every marker and line. Streamlit's default ``theme="streamlit"`` replaces the
colorway and template, but explicit marker/line colours survive it (checked in Chromium on 1.67: same fills either
way).
"""

from __future__ import annotations

COLORS = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "sky": "#56B4E9",
    "purple": "#CC79A7",
    "yellow": "#F0E442",
    "grey": "#999999",
    "ink": "#1F2933",
}

# Grade 0 is grey; higher grades get darker/stronger colours, so "more relevant" reads as "more ink".
# Grade 4 is Tol's wine, not Okabe-Ito's reddish purple: that one and grade 0's grey look alike to a deuteranope
# (CIEDE2000 6, under the 10 tests/test_colour_vision.py asks of every palette).
GRADE_COLORS = {0: COLORS["grey"], 1: COLORS["sky"], 2: COLORS["blue"], 3: COLORS["green"], 4: "#882255"}
SERIES_COLORS = [COLORS[c] for c in ("blue", "orange", "green", "vermillion", "sky", "purple")]
# Text drawn in a chart's colour: the colour darkened to 4.5:1 on white (WCAG 1.4.3; #D55E00 is 3.9:1).
TEXT_COLORS = {"vermillion": "#B34700"}
# A projector washes colours out: in presenter mode (ir_metrics_lab.shell.presenter.projector_marks) lines and markers
# take these variants, each 4.5:1 or more on white (the same hue, darker); bars keep their fill and get an ink outline.
# The lines stay apart by dash and marker symbol, not by colour.
PROJECTOR_COLORS = {
    COLORS["orange"]: "#9C6C00",
    COLORS["green"]: "#008460",
    COLORS["vermillion"]: "#BE5400",
    COLORS["sky"]: "#177AB2",
    COLORS["purple"]: "#BB4D8A",
    COLORS["yellow"]: "#80770A",
    COLORS["grey"]: "#757575",
}
DASHES = ["solid", "dash", "dot", "dashdot", "longdash", "longdashdot"]
SYMBOLS = ["circle", "square", "diamond", "triangle-up", "x", "cross"]  # lines on top of each other stay apart
SYSTEM_COLORS = {"A": COLORS["orange"], "B": COLORS["blue"]}


def grade_color(grade: int) -> str:
    """The colour of a grade (below 0: grade 0's, above the top: the top grade's)."""
    return GRADE_COLORS[min(max(grade, 0), max(GRADE_COLORS))]


# Colour never carries meaning alone (WCAG 1.4.1): bars that stand for a category also carry a fill pattern, which
# their legend swatch shows too. Grade 0 and "not relevant" (and a tie) stay plain.
GRADE_PATTERNS = {0: "", 1: ".", 2: "/", 3: "x", 4: "+"}
RELEVANT_PATTERN, SECOND_PATTERN = "/", "x"


def pattern(shape: str | list[str]) -> dict:
    """A bar's fill pattern (one shape, or one per bar) drawn in translucent ink over its colour."""
    return {"shape": shape, "fillmode": "overlay", "fgcolor": "rgba(31, 41, 51, 0.45)", "size": 7, "solidity": 0.3}
