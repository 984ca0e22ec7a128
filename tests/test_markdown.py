"""ir_metrics_lab.core.markdown.plain, THE helper for user text in Markdown: whatever the text, a CommonMark renderer
shows it literally and creates no element (property test), and a corpus of hostile strings reads back exactly."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ir_metrics_lab.core.markdown import AUTOLINK_BREAK, chart_label, plain, text, without_bidi_controls
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
    "ÄÖÜ 日本語 emoji 🙂 and RTL",
    "עברית and العربية mixed",
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
    expected = without_bidi_controls(text.replace("\r\n", "\n").replace("\r", "\n")).rstrip()
    assert shown(plain(text)) == expected.replace(AUTOLINK_BREAK, "")


@settings(max_examples=200, deadline=None)
@given(_TEXT, _TEXT)
def test_embedded_text_stays_inside_its_sentence(before, text):
    """User text inside the page's own sentence never changes the sentence around it."""
    markdown = f"Added **{plain(before)}** and {plain(text)}."
    rendered = shown(markdown, allowed=("strong",))
    assert rendered.endswith(".")
    assert rendered.startswith("Added ")


RLO, PDF, FSI, PDI = "\u202e", "\u202c", "\u2068", "\u2069"


@pytest.mark.parametrize(
    "control", ["\u202a", "\u202b", "\u202d", RLO, "\u2066", "\u2067", FSI, PDI, "\u200f", "\u061c"]
)
def test_bidirectional_controls_cannot_reorder_the_page_s_text(control):
    """U+202E in a nickname reversed the projector's "Right:" line: every direction control is dropped, and a line with
    right-to-left letters is walled off (first-strong isolate) so it cannot pull the page's words around it."""
    assert plain(f"{control}evil{PDF}", one_line=True) == "evil"
    assert chart_label(f"<{control}x") == "&lt;x"
    assert text(f"{control}**evil**{PDF}") == "**evil**"  # a DOM node's text: no markup to escape


def test_right_to_left_text_is_isolated_line_by_line():
    hebrew, arabic = "\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627"
    assert plain(hebrew) == FSI + hebrew + PDI
    assert plain(f"{RLO}{arabic} 1") == FSI + arabic + " 1" + PDI
    assert plain(f"Ann\n{hebrew}") == "Ann\\\n" + FSI + hebrew + PDI
    assert chart_label(hebrew) == FSI + hebrew + PDI
    assert text(f"Ann\n{hebrew}") == FSI + "Ann " + hebrew + PDI  # one line
    assert plain("Ann") == "Ann"  # left-to-right text is left as it is
