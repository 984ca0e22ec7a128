"""What a reader sees of a Markdown string: rendered by a CommonMark parser (markdown-it-py, with GFM tables and
strikethrough as Streamlit's renderer has them), reduced to its text. Tests compare it with the user's literal text.

``shown`` fails when the Markdown made any element other than paragraphs, line breaks and the ``allowed`` tags
(those the page's own text uses, e.g. ``strong`` around an escaped id). The invisible word joiner that plain() puts
in URL-like text (it stops GFM autolinks, which markdown-it's CommonMark preset does not make) is not text a reader
sees, so it is removed; so are the direction walls (U+2068 ... U+2069) plain() puts around a line with right-to-left
letters (tests/test_markdown.py checks them).
"""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt

from ir_metrics_lab.core.markdown import AUTOLINK_BREAK

_RENDER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
_TAG = re.compile(r"</?([a-z0-9]+)[^>]*>")
_STREAMLIT_DIRECTIVE = re.compile(r"(?<!\\):[a-z]+(?:-[a-z]+)?\[|(?<!\\):material/[a-z_]+:")


def shown(markdown: str, allowed: tuple[str, ...] = ()) -> str:
    """The text a reader sees of ``markdown``; AssertionError if it created an element or a Streamlit directive
    (``:red[..]``, ``:material/icon:``) or LaTeX (an unescaped ``$``)."""
    assert not _STREAMLIT_DIRECTIVE.search(markdown), f"a Streamlit directive survived: {markdown!r}"
    assert not re.search(r"(?<!\\)\$", markdown), f"an unescaped $ (LaTeX) survived: {markdown!r}"
    rendered = _RENDER.render(markdown)
    tags = {match[1] for match in _TAG.finditer(rendered)}
    assert tags <= {"p", "br", *allowed}, f"{markdown!r} made elements {sorted(tags)}: {rendered!r}"
    text = rendered.replace("<br />\n", "\n").replace("</p>\n<p>", "\n\n")
    text = html.unescape(_TAG.sub("", text)).rstrip("\n").replace(AUTOLINK_BREAK, "")  # invisible
    return text.replace("\u2068", "").replace("\u2069", "")


def table_rows(markdown: str) -> list[list[str]]:
    """The cells of a GFM table as a reader sees them, header row first (Streamlit's colour directives, such as
    ``:blue[...]``, shown as their text)."""
    text = re.sub(r"(?<!\\):[a-z]+(?:-[a-z]+)?\[(.*?)\]", r"\1", markdown)
    rows = re.findall(r"<tr>(.*?)</tr>", _RENDER.render(text), re.S)
    return [
        [html.unescape(_TAG.sub("", cell)).strip() for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        for row in rows
    ]


def table_source(markdown: str) -> list[list[str]]:
    """The cells of a GFM table as written (Markdown source: bold, directives and escapes kept), header row first
    and the delimiter row left out; cells split at the pipes that are not escaped."""
    lines = [line.strip() for line in markdown.strip().splitlines()]
    rows = [[cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip("|"))] for line in lines]
    return [row for index, row in enumerate(rows) if index != 1]


def markdown_table(elements, first_header: str) -> dict[str, list[str]]:
    """{first cell: the other cells} of the first Markdown element whose table starts with ``first_header``."""
    for element in elements:
        rows = table_rows(element.value)
        if rows and rows[0][0] == first_header:
            return {row[0]: row[1:] for row in rows[1:]}
    raise AssertionError(f"no Markdown table headed {first_header!r}")


def styles(at) -> list[str]:
    """The CSS an AppTest run's page sent (ir_metrics_lab.shell.css: a style block in a Markdown element)."""
    return [m.group(1) for md in at.markdown if (m := re.match(r"<style>(.*)\n[^\n]*</style>", md.value, re.S))]
