"""User text as literal Markdown, and as a plotly label (``chart_label``): THE helper through which every
user-provided string (titles, doc ids, query ids, file names, typed measure names, anything from a URL or a file)
reaches a Streamlit element that interprets Markdown or LaTeX (body text, captions, labels, button labels, help
tooltips, metric labels, toasts, messages) or a chart. Pure (no Streamlit), so the exports use it too.

CommonMark lets a backslash escape any ASCII punctuation character, and an escaped character is always shown as
itself: so every one is escaped. That covers Markdown (``# * _ [ ] ( ) ` > | ~ = - + .``), HTML (``< > &``), LaTeX
(``$ \\``) and Streamlit's own directives (``:red[...]``, ``:material/home:``, ``:smile:``). A line break becomes a
hard break (a backslash at the end of the line), so the next line is text in the same paragraph: it can never start
a heading, a list, a quote or a code block. Streamlit's labels (buttons, tabs, metrics) show one line: there a line
break is shown as a space.

Direction: the bidirectional controls (embeddings, overrides, isolates, marks) are dropped, and a line with a
right-to-left letter is isolated (U+2068 ... U+2069, as HTML's ``<bdi>``): user text can never reorder what the page
writes around it (a U+202E nickname reversing the projector's "Right:" line).
"""

from __future__ import annotations

import html
import re
import string
import unicodedata

_PUNCTUATION = re.compile("([" + re.escape(string.punctuation) + "])")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
AUTOLINK_BREAK = "\u2060"
_AUTOLINK = re.compile(
    r"(?i)(?<![a-z])(?:https?|ftp|mailto|xmpp)(?=:)"  # a scheme, before its colon
    r"|(?<![a-z])www(?=\.)"  # www, before its dot
    r"|(?<=[\w.+-])(?=@[\w-]+\.\w)"  # an e-mail address, before its @
)
_LEADING_BLANKS = re.compile(r"(?m)^[^\S\n]+")  # written as entities: 4 leading spaces would start a code block
# Arabic letter mark, LRM/RLM, the embeddings and overrides (LRE RLE PDF LRO RLO) and the isolates (LRI RLI FSI PDI)
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")
_RIGHT_TO_LEFT = frozenset({"R", "AL"})  # Unicode's bidirectional classes of Hebrew-like and Arabic letters
_ISOLATE, _END_ISOLATE = "\u2068", "\u2069"  # first-strong isolate: the text's own direction, walled off


def without_bidi_controls(text: str) -> str:
    return _BIDI.sub("", text)


def _isolated(line: str) -> str:
    """``line`` walled off from the text around it when it has a right-to-left letter (left-to-right text needs no
    wall: it cannot reorder its neighbours once the controls are gone)."""
    if any(unicodedata.bidirectional(c) in _RIGHT_TO_LEFT for c in line):
        return _ISOLATE + line + _END_ISOLATE
    return line


def plain(text: object, *, one_line: bool = False) -> str:
    r"""``text`` as Markdown that Streamlit shows literally, character for character.

    Trailing blanks and line breaks are dropped (a page never shows them; a hard break there would show as a
    backslash). ``one_line``: line breaks become spaces (a Markdown table cell, a label that shows one line).

    >>> plain("**bold** [x](y) $x$ <b>")
    '\\*\\*bold\\*\\* \\[x\\]\\(y\\) \\$x\\$ \\<b\\>'
    >>> plain("HEADING\n===")
    'HEADING\\\n\\=\\=\\='
    """
    text = without_bidi_controls(_LINE_BREAK.sub("\n", str(text))).rstrip()
    unlinked = _AUTOLINK.sub(lambda found: found[0] + AUTOLINK_BREAK, text)
    escaped = _PUNCTUATION.sub(r"\\\1", unlinked)
    if one_line:
        escaped = escaped.replace("\n", " ")
    escaped = _LEADING_BLANKS.sub(lambda blanks: "".join(f"&#{ord(c)};" for c in blanks[0]), escaped)
    return "\\\n".join(_isolated(line) for line in escaped.split("\n"))


def text(value: object) -> str:
    r"""``value`` for a place that shows text as text, never as markup (a DOM node's ``textContent``): on one line, its
    bidirectional controls dropped and a right-to-left line isolated, as ``plain`` does for Markdown.

    >>> text("**d1**\n<b>")
    '**d1** <b>'
    """
    return _isolated(without_bidi_controls(_LINE_BREAK.sub(" ", str(value))).strip())


def chart_label(text: object) -> str:
    """``text`` as a plotly label (title, tick, legend, hover) shows it, character for character.

    Plotly reads its labels as a subset of HTML: ``<`` ``>`` ``&`` are written as entities, which it decodes. Quotes
    stay as they are: plotly knows no ``&quot;`` (it would show the entity as typed), and a label is text, never an
    attribute.

    >>> chart_label('<b>"x" & y</b>')
    '&lt;b&gt;"x" &amp; y&lt;/b&gt;'
    """
    return _isolated(html.escape(without_bidi_controls(str(text)), quote=False))
