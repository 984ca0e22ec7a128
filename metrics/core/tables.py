"""Small HTML and Markdown tables for Jupyter's rich display of the library's results (``_repr_html_``,
``_repr_markdown_``). Pure; no pandas, so a result shows as a table without importing it.

User text (doc, query and run ids) reaches HTML only through ``html.escape``, inside elements MathJax skips (an id
holding ``$x$`` stays literal text), and Markdown only through ``markdown_text``.
"""

from __future__ import annotations

import html
import re
import string
from collections.abc import Sequence

DIGITS = 4  # every value the app shows has 4 decimals
# MathJax 2 (classic notebook) and JupyterLab skip elements of the first class, MathJax 3 (Notebook 7) the second.
NO_MATH = "tex2jax_ignore mathjax_ignore"
_PUNCTUATION = re.compile("([" + re.escape(string.punctuation) + "])")


def number(value: float) -> str:
    """A value as the app shows it: 4 decimals."""
    return f"{value:.{DIGITS}f}"


def markdown_text(text: object) -> str:
    r"""``text`` as Markdown shown literally on one line (a table cell): every ASCII punctuation character escaped, as
    ir_metrics_lab.core.markdown.plain does (metrics cannot import the app).

    >>> markdown_text("$x$ | <b>\nnext")
    '\\$x\\$ \\| \\<b\\> next'
    """
    return _PUNCTUATION.sub(r"\\\1", " ".join(str(text).split()))


def html_text(text: object) -> str:
    """``text`` as literal HTML text that MathJax leaves alone."""
    return f'<span class="{NO_MATH}">{html.escape(str(text))}</span>'


def html_table(header: Sequence[str], rows: Sequence[Sequence[object]], caption: str = "") -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    title = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f'<table class="{NO_MATH}">{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(markdown_text(h) for h in header) + " |", "|" + "---:|" * len(header)]
    lines += ["| " + " | ".join(markdown_text(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
