"""Layout rules every page shares, for small screens: static CSS sent once per run from app.py, after the page
(ir_metrics_lab.shell.css: it takes no space). Nothing in it comes from the user.

- The playground's compact summary (``cards.sticky_summary``) is hidden on wide screens and sticks to the top of
  the screen on phones, so the key numbers stay in view while the list is edited.
- Wide formulas never run off the screen silently: a KaTeX block scrolls sideways, and a shadow on the cut edge
  says there is more (the "scroll shadow" idiom: backgrounds that only show while content is hidden there).
"""

from __future__ import annotations

from ir_metrics_lab.parts.cards import SUMMARY_KEY
from ir_metrics_lab.shell import a11y, css, navigation
from ir_metrics_lab.shell.first_paint import PRELOAD_KEY

PHONE_MAX_PX = 640  # Streamlit stacks columns on screens up to this width

FOCUS_RING = "#0072B2"  # the theme's primary colour: 5.2:1 on white (WCAG 2.4.7, 1.4.11)
MUTED_TEXT = "#5B6673"  # captions: 5.8:1 on white (Streamlit's own #797f85 is 4.0:1, under WCAG AA's 4.5:1)

CSS = f"""
.st-key-{PRELOAD_KEY} {{ display: none; }}  /* first_paint.preload: a formula only to fetch KaTeX's code */
.st-key-{a11y.KEY} {{ display: none; }}  /* ir_metrics_lab.shell.a11y's script: it draws nothing */
/* Streamlit draws a caption (and its menu's "Made with Streamlit" line) in the text colour at 60% opacity, #797f85
   on white: a solid colour instead. */
[data-testid="stCaptionContainer"], [data-testid="stMainMenuPopover"] div > span {{ color: {MUTED_TEXT}; opacity: 1; }}
/* What a keyboard can focus and Streamlit draws no ring on: the main area (its skip link's target) and the boxes
   ir_metrics_lab/shell/components/a11y.js makes focusable (they scroll sideways). */
[data-testid="stMain"]:focus-visible {{ outline: 2px solid {FOCUS_RING}; outline-offset: -2px; }}
.katex-display:focus-visible, [data-testid="stTable"] > div:focus-visible, .stCode pre:focus-visible,
[data-testid="stMarkdownContainer"]:has(> table):focus-visible {{
  outline: 2px solid {FOCUS_RING}; outline-offset: 2px;
}}
/* A Markdown table wider than the screen (a phone, 320 px) scrolls in its own box, not the page (WCAG 1.4.10);
   ir_metrics_lab/shell/components/a11y.js gives the box a keyboard stop. */
[data-testid="stMarkdownContainer"]:has(> table) {{ overflow-x: auto; }}
/* Streamlit cuts a label, a metric, a button's or a segmented control's option that does not fit on one line
   (ellipsis): a narrow or zoomed screen wraps it instead (WCAG 1.4.4, 1.4.10: nothing is lost at 200% or 320 px). */
:is([data-testid="stWidgetLabel"], [data-testid="stMetricLabel"], [data-testid="stMetricValue"],
    [data-testid="stMain"] button) :is([data-testid="stMarkdownContainer"], [data-testid="stMarkdownContainer"] p) {{
  white-space: normal; overflow: visible;
}}
[data-testid="stButtonGroup"] button {{ height: auto; }}  /* an option that wraps grows (its min-height stays) */
/* ir_metrics_lab.shell.navigation: section headings as Streamlit's own menu draws them, links close together. */
.st-key-{navigation.KEY} [data-testid="stCaptionContainer"] {{
  margin: 0.75rem 0 0.1rem 0.5rem; font-size: 0.875rem; font-weight: 600;
}}
.st-key-{navigation.KEY} [data-testid="stCaptionContainer"] p {{ margin: 0; }}
.st-key-{navigation.KEY} {{ gap: 0.15rem; }}
.st-key-{navigation.KEY} a {{ min-height: 2rem; }}  /* WCAG 2.5.8: a target at least 24 px tall */
.st-key-{navigation.KEY} a:focus-visible {{ outline: 2px solid {FOCUS_RING}; outline-offset: 1px; }}
.st-key-{SUMMARY_KEY}, :has(> .st-key-{SUMMARY_KEY}) {{ display: none; }}
@media (max-width: {PHONE_MAX_PX}px) {{
  /* Sticky on the summary's own wrapper: a sticky box only moves within its parent. */
  /* Below Streamlit's fixed top bar (3.75rem), which would cover it at top: 0. */
  :has(> .st-key-{SUMMARY_KEY}) {{ display: block; position: sticky; top: 3.75rem; z-index: 990; }}
  .st-key-{SUMMARY_KEY} {{
    display: block; height: auto; padding: 0.35rem 0.6rem;
    background: var(--st-background-color, #ffffff);
    border: 1px solid var(--st-border-color, #d5dbe3); border-radius: 0.5rem;
    box-shadow: 0 2px 6px rgba(15, 35, 60, 0.12);
  }}
  .st-key-{SUMMARY_KEY} * {{ margin: 0 !important; }}  /* Streamlit offsets a paragraph's margin with a negative one */
  .st-key-{SUMMARY_KEY} p {{ font-size: 0.8rem; line-height: 1.35; margin: 0; font-variant-numeric: tabular-nums; }}
}}
.katex-display {{
  overflow-x: auto; overflow-y: hidden; padding: 0.2rem 0;
  background:
    linear-gradient(to right, var(--st-background-color, #fff) 30%, rgba(255, 255, 255, 0)) left / 2rem 100%,
    linear-gradient(to left, var(--st-background-color, #fff) 30%, rgba(255, 255, 255, 0)) right / 2rem 100%,
    radial-gradient(farthest-side at 0 50%, rgba(15, 35, 60, 0.28), rgba(0, 0, 0, 0)) left / 0.8rem 100%,
    radial-gradient(farthest-side at 100% 50%, rgba(15, 35, 60, 0.28), rgba(0, 0, 0, 0)) right / 0.8rem 100%;
  background-repeat: no-repeat;
  background-attachment: local, local, scroll, scroll;
}}
"""


def apply() -> None:
    """Call once per run, in app.py."""
    css.apply(CSS)
