"""User text reaches the pages literally (AppTest): every string of a hostile corpus, put where a user can put it
(a shared link's titles, the document editor, an uploaded file's name, a query id of a run), reads back exactly,
with no element made of it. ``shown`` renders the element's Markdown with a CommonMark parser (tests/markdown_text.py).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest
from streamlit.testing.v1 import AppTest

from tests import uploads
from tests.markdown_text import shown

ROOT = Path(__file__).parents[1]
APP = str(ROOT / "app.py")

TITLES = [
    "HEADING\n===",
    "**bold** _it_",
    "[click](javascript:alert(1))",
    "<script>alert(1)</script>",
    "$x^2$ \\frac{1}{2}",
    ":red[red] :material/home:",
    "# h1 | a | b",
    "    indented code",
    "> quote\n- item",
]
DOC_IDS = ["**mdid**", "[x](javascript:alert(1))", "<b>x</b>", "$k$", "_u_ `c`", "#h", "a\\b"]
FILE_NAMES = ["[click](javascript:alert(1))...**b**.txt", "<img src=x onerror=alert(1)>.txt", "$x$_run_.txt"]
QUERY_IDS = ["[q](javascript:alert(1))", "**q**", "q$1$"]


@pytest.mark.parametrize("title", TITLES)
def test_shared_title_on_the_shelf_reads_back_literally(title):
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["docs"] = "d1"
    at.query_params["grades"] = "1"
    at.query_params["missing"] = "d9:1"
    at.query_params["titles"] = "|" + quote(title, safe="")
    at.run()
    assert not at.exception
    line = next(m.value for m in at.markdown if m.value.startswith("**d9**"))
    assert shown(line, allowed=("strong",)) == f"d9 · {title}\ngrade 1"
    assert not at.warning  # the link itself was fine


def test_broken_percent_encoding_in_a_title_is_named():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["docs"] = "d1,d2"
    at.query_params["titles"] = "fine|%E0%A4%A"
    at.run()
    assert not at.exception
    [warning] = at.warning
    lines = [line for line in shown(warning.value, allowed=("strong", "ul", "li")).splitlines() if line]
    assert lines == [
        "This link had problems. The rest of it was loaded; each bad part fell back to its default:",
        "Link key 'titles': the title '%E0%A4%A' of 'd2' has broken percent-encoding (bytes that are not UTF-8 "
        "text); they are shown as \ufffd. (see errors/share-link in the docs)",
    ]


@pytest.mark.parametrize("doc", DOC_IDS)
def test_document_editor_messages_quote_the_id_literally(doc):
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.text_input(key="pg_add_id").input(doc)
    at.button(key="pg_add").click().run()
    assert [shown(s.value) for s in at.success] == [f"Added {doc}."]
    at.selectbox(key="pg_rename_doc").set_value(doc)
    at.text_input(key="pg_rename_title").input("t")
    at.button(key="pg_rename").click().run()
    assert [shown(s.value) for s in at.success] == [f"Renamed {doc}."]
    at.selectbox(key="pg_remove_doc").set_value(doc)
    at.button(key="pg_remove").click().run()
    assert [shown(s.value) for s in at.success] == [f"Removed {doc}."]
    at.text_input(key="pg_add_id").input("d1")  # a duplicate: the error quotes the id too
    at.button(key="pg_add").click().run()
    assert not at.exception


@pytest.fixture
def your_data(monkeypatch):
    yield from uploads.opened(monkeypatch)


@pytest.mark.parametrize("name", FILE_NAMES)
def test_uploaded_file_name_is_literal_in_status_and_help(your_data, name):
    at = uploads.upload(
        your_data, (name, b"q1 Q0 d1 1 2.0 s\nq7 Q0 d1 1 2.0 s\n"), ("qrels.txt", b"q1 0 d1 1\nq2 0 d2 1\n")
    )
    assert not at.exception
    assert shown(at.success[0].value) == f"{name}: 2 lines, 2 queries"
    helps = {m.label: m.help for m in at.metric}
    assert shown(helps["Only in the run"]) == f"Queries of {name} with no judgments."
    assert (
        shown(helps["Only in the qrels"])
        == f"Judged queries that {name} does not answer: skipped; turn on -c to score them 0."
    )


@pytest.mark.parametrize("name", FILE_NAMES)
def test_uploaded_file_name_is_literal_in_its_error(your_data, name):
    at = uploads.upload(your_data, (name, b"q1 Q0 d1 1 abc s\n"), ("qrels.txt", b"q1 0 d1 1\n"))
    assert (
        shown(at.error[0].value) == f"{name}, line 1: score 'abc' is not a number (see errors/not-a-number in the docs)"
    )


@pytest.mark.parametrize("query", QUERY_IDS)
def test_query_id_is_literal_in_the_open_button(your_data, query):
    run = f"{query} Q0 d1 1 2.0 s\n".encode()
    at = uploads.upload(your_data, ("run.txt", run), ("qrels.txt", f"{query} 0 d1 1\n".encode()))
    assert not at.exception
    at.session_state["yd_per_query"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    [button] = [b for b in at.button if b.label and "Open query" in b.label]
    assert shown(button.label) == f"Open query {query} in the playground"
    button.click().run()
    assert (
        shown(at.success[-1].value)
        == f"Query {query} is loaded into the Playground. Open the Playground page to work with it."
    )
