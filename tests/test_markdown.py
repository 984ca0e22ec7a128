"""ir_metrics_lab.core.markdown.plain, THE helper for user text in Markdown: whatever the text, a CommonMark renderer
shows it literally and creates no element (property test), and a corpus of hostile strings reads back exactly."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ir_metrics_lab.core.markdown import AUTOLINK_BREAK, plain
from tests.markdown_text import shown

HOSTILE = [
    "HEADING\n===",
    "sub\n---",
    "# title",
    "**mdid**",
    "__u__ _i_ *i*",
    "[click](javascript:alert(1))...**b**.txt",
    "![img](http://x/y.png)",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "&amp; &lt;b&gt; &#65;",
    "$x^2$ and $$\\frac{1}{2}$$",
    "\\(x\\) \\[y\\]",
    "a | b | c\n--|--|--\n1 | 2 | 3",
    "`code` ```fence```",
    "> quote",
    "- item\n+ item\n* item",
    "1. first\n2) second",
    "    four-space code",
    "\tindented by a tab",
    ":red[red] :blue-background[bg] :material/home: :smile:",
    "~~struck~~",
    "line one\nline two\r\nline three\rfour",
    "https://example.com www.example.com",
    "a\\b\\\\c\\",
    "<!-- comment -->",
    "[ref]: http://x",
    "***",
    "%E0%A4%A",
    "q1 = {P@10}",
    "ÄÖÜ 日本語 emoji 🙂 and RTL \u202eevil",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_strings_read_back_literally(text):
    expected = text.replace("\r\n", "\n").replace("\r", "\n")
    assert shown(plain(text)) == expected


@pytest.mark.parametrize("text", HOSTILE)
def test_one_line_form_is_one_line_and_literal(text):
    expected = text.replace("\r\n", " ").replace("\r", " ").replace("\n", " ")
    assert "\n" not in plain(text, one_line=True)
    assert shown(plain(text, one_line=True)) == expected


def test_the_issue_cases():
    assert plain("HEADING\n===") == "HEADING\\\n\\=\\=\\="
    assert shown(f"Added {plain('**mdid**')}.") == "Added **mdid**."
    assert shown(f"**{plain('**x**')}**", allowed=("strong",)) == "**x**"


_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(list(string.punctuation + " \t\n\r")),
        st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")),
    ),
    max_size=60,
)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_any_text_renders_literally(text):
    """Every string, rendered after plain(), creates no element and reads back as itself (line breaks as line
    breaks; trailing blanks are not shown by any page, with or without the helper)."""
    expected = text.replace("\r\n", "\n").replace("\r", "\n").rstrip().replace(AUTOLINK_BREAK, "")
    assert shown(plain(text)) == expected


@settings(max_examples=200, deadline=None)
@given(_TEXT, _TEXT)
def test_embedded_text_stays_inside_its_sentence(before, text):
    """User text inside the page's own sentence never changes the sentence around it."""
    markdown = f"Added **{plain(before)}** and {plain(text)}."
    rendered = shown(markdown, allowed=("strong",))
    assert rendered.endswith(".")
    assert rendered.startswith("Added ")
