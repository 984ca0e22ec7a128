"""The playground page through app.py in AppTest: numbers by hand, edits, undo/redo/reset and bad input.

The default preset is the graded list [3, 2, 3, 0, 1] (d1..d5, k = 5, linear gain, trec_eval conventions).
A drag is simulated by writing the ranked-list component's state before run(), as the browser would send it.
"""

from __future__ import annotations

import json
from math import log2
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.markdown_text import shown

APP = str(Path(__file__).parents[1] / "app.py")
PLAYGROUND = str(Path(__file__).parents[1] / "app_pages" / "play" / "playground.py")

DCG5 = 3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)
IDCG5 = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6)  # ideal order 3, 3, 2, 1, 0


def metric_values(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def metric_deltas(at: AppTest) -> dict[str, str]:
    return {m.label: m.delta for m in at.metric}


def list_data(at: AppTest, key: str = "pg_list") -> dict:
    for element in at.get("bidi_component"):
        data = json.loads(element.proto.json)
        if data.get("list") == key:
            return data
    raise AssertionError(f"no ranked list {key!r} on the page")


def shown_order(at: AppTest) -> list[str]:
    return [item["id"] for item in list_data(at)["items"]]


def texts(at: AppTest) -> str:
    parts = [e.value for e in (*at.error, *at.warning, *at.success, *at.markdown, *at.caption)]
    return "\n".join(str(p) for p in parts)


@pytest.fixture
def at() -> AppTest:
    app = AppTest.from_file(APP, default_timeout=30).run()
    assert not app.exception
    return app


def test_default_page_shows_every_metric(at):
    values = metric_values(at)
    assert list(values) == ["NDCG@5", "AP", "RR", "DCG@5", "IDCG@5", "P@5", "R@5", "R_cap@5", "F1@5", "HitRate@5"]
    assert values["NDCG@5"] == f"{DCG5 / IDCG5:.4f}" == "0.9724"
    assert values["DCG@5"] == f"{DCG5:.4f}"
    assert values["IDCG@5"] == f"{IDCG5:.4f}"
    assert values["P@5"] == f"{4 / 5:.4f}"  # grades >= 1 at ranks 1, 2, 3, 5
    assert values["RR"] == "1.0000"
    assert values["AP"] == f"{(1 / 1 + 2 / 2 + 3 / 3 + 4 / 5) / 4:.4f}"
    assert values["R@5"] == values["R_cap@5"] == values["HitRate@5"] == "1.0000"
    assert values["F1@5"] == f"{2 * 0.8 * 1 / (0.8 + 1):.4f}"
    assert shown_order(at) == ["d1", "d2", "d3", "d4", "d5"]
    assert at.latex and "NDCG@5" in at.latex[0].value and "0.9724" in at.latex[0].value


def test_k_changes_every_cut_metric(at):
    at.number_input(key="pg_k").set_value(4).run()
    values = metric_values(at)
    assert values["DCG@4"] == f"{3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5):.4f}" == "5.7619"
    assert values["P@4"] == f"{3 / 4:.4f}"
    assert list_data(at)["k"] == 4


def test_simulated_drag_reorders_and_shows_the_change(at):
    at.session_state["pg_list"] = {"edit": {"order": ["d4", "d1", "d2", "d3", "d5"], "nonce": "drag-1"}}
    at.run()
    assert not at.exception
    dcg = 0 / log2(2) + 3 / log2(3) + 2 / log2(4) + 3 / log2(5) + 1 / log2(6)
    values = metric_values(at)
    assert shown_order(at) == ["d4", "d1", "d2", "d3", "d5"]
    assert values["DCG@5"] == f"{dcg:.4f}"
    assert values["NDCG@5"] == f"{dcg / IDCG5:.4f}"
    assert values["RR"] == f"{1 / 2:.4f}"
    assert values["AP"] == f"{(1 / 2 + 2 / 3 + 3 / 4 + 4 / 5) / 4:.4f}"
    assert values["P@5"] == "0.8000"  # same documents in the top 5: precision does not move
    deltas = metric_deltas(at)
    assert deltas["NDCG@5"] == f"{dcg / IDCG5 - DCG5 / IDCG5:+.4f}"
    assert deltas["RR"] == "-0.5000"
    assert not deltas["P@5"]
    assert list_data(at)["announce"] == "d4 moved to rank 1 of 5"


def test_same_browser_edit_is_applied_once(at):
    at.session_state["pg_list"] = {"edit": {"order": ["d2", "d1", "d3", "d4", "d5"], "nonce": "n1"}}
    at.run()
    at.button(key="pg_undo").click().run()
    at.run()  # the component still reports the old edit; it must not come back
    assert shown_order(at) == ["d1", "d2", "d3", "d4", "d5"]


def test_move_to_rank_control(at):
    at.selectbox(key="pg_move_doc").set_value("d5")
    at.number_input(key="pg_move_rank").set_value(1)
    at.button(key="pg_move").click().run()
    assert not at.exception
    dcg = 1 / log2(2) + 3 / log2(3) + 2 / log2(4) + 3 / log2(5) + 0 / log2(6)
    assert shown_order(at) == ["d5", "d1", "d2", "d3", "d4"]
    assert metric_values(at)["NDCG@5"] == f"{dcg / IDCG5:.4f}"


def test_grade_change_from_a_card(at):
    at.session_state["pg_list"] = {"edit": {"order": ["d1", "d2", "d3", "d4", "d5"], "grades": {"d4": 3}}}
    at.run()
    dcg = 3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 3 / log2(5) + 1 / log2(6)
    idcg = 3 / log2(2) + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 1 / log2(6)
    values = metric_values(at)
    assert values["P@5"] == "1.0000"
    assert values["NDCG@5"] == f"{dcg / idcg:.4f}"
    assert list_data(at)["items"][3] == {"id": "d4", "title": "Release notes", "grade": 3, "unjudged": False}


def test_shelving_from_a_card_keeps_the_judgment(at):
    at.session_state["pg_list"] = {"edit": {"order": ["d2", "d3", "d4", "d5"], "action": {"type": "shelve"}}}
    at.run()
    values = metric_values(at)
    assert shown_order(at) == ["d2", "d3", "d4", "d5"]
    assert values["R@5"] == f"{3 / 4:.4f}"  # d1 (grade 3) is still relevant: R stays 4
    assert values["IDCG@5"] == f"{IDCG5:.4f}"
    assert "d1" in texts(at) and "Install guide" in texts(at)
    at.button(key="pg_retrieve_d1").click().run()
    assert shown_order(at) == ["d2", "d3", "d4", "d5", "d1"]


def test_undo_redo_reset(at):
    ndcg = metric_values(at)["NDCG@5"]
    assert at.button(key="pg_undo").disabled
    at.session_state["pg_list"] = {"edit": {"order": ["d5", "d4", "d3", "d2", "d1"], "nonce": "r"}}
    at.run()
    reversed_ndcg = metric_values(at)["NDCG@5"]
    assert reversed_ndcg != ndcg
    at.button(key="pg_undo").click().run()
    assert metric_values(at)["NDCG@5"] == ndcg
    assert shown_order(at) == ["d1", "d2", "d3", "d4", "d5"]
    at.button(key="pg_redo").click().run()
    assert metric_values(at)["NDCG@5"] == reversed_ndcg
    at.button(key="pg_reset").click().run()
    assert metric_values(at)["NDCG@5"] == ndcg
    assert shown_order(at) == ["d1", "d2", "d3", "d4", "d5"]


def test_conventions_change_the_numbers(at):
    at.radio(key="pg_gain").set_value("exp").run()
    assert metric_values(at)["NDCG_exp@5"] == "0.9575"  # golden value in metrics/teaching/examples.py
    at.radio(key="pg_gain").set_value("linear").run()
    assert metric_values(at)["NDCG@5"] == "0.9724"


def test_unretrieved_relevant_doc_lowers_ndcg(at):
    at.text_input(key="pg_add_id").input("d6")
    at.number_input(key="pg_add_grade").set_value(3)
    at.checkbox(key="pg_add_shelf").check()
    at.button(key="pg_add").click().run()
    assert not at.exception
    assert metric_values(at)["NDCG@5"] == "0.8047"  # trec_eval, golden value in metrics/teaching/examples.py
    assert shown_order(at) == ["d1", "d2", "d3", "d4", "d5"]
    assert at.text_input(key="pg_add_id").value == ""  # emptied for the next document


def test_two_documents_in_a_row_need_no_retyping_of_cleared_fields(at):
    for doc in ("d6", "d7"):
        at.text_input(key="pg_add_id").input(doc)
        at.text_input(key="pg_add_title").input(f"title of {doc}")
        at.button(key="pg_add").click().run()
        assert not at.exception
        assert not at.error, [e.value for e in at.error]
    assert shown_order(at) == ["d1", "d2", "d3", "d4", "d5", "d6", "d7"]


def test_preset_picker_loads_an_example(at):
    at.selectbox(key="pg_preset").set_value("better-auth").run()
    values = metric_values(at)
    assert values["NDCG@3"] == "0.8175"  # golden value in metrics/teaching/examples.py
    assert shown_order(at) == ["A", "B", "C"]
    assert "0.7364" in texts(at)  # the lesson text is shown


@pytest.mark.parametrize(
    ("doc", "grade", "message"),
    [
        ("d1", 0, "already a document 'd1'; ids must be unique (see errors/duplicate-doc in the docs)"),
        ("", 0, "Document id field is empty (see errors/id-empty in the docs)"),
        ("d9", 7, "Grade must be a whole number from 0 to 3; got 7 (see errors/grade-out-of-range in the docs)"),
    ],
)
def test_bad_document_input_is_explained_and_kept(at, doc, grade, message):
    at.text_input(key="pg_add_id").input(doc)
    at.text_input(key="pg_add_title").input("my title")
    at.number_input(key="pg_add_grade").set_value(grade)
    at.button(key="pg_add").click().run()
    assert not at.exception
    assert any(message in shown(e.value) for e in at.error), [e.value for e in at.error]
    assert at.text_input(key="pg_add_title").value == "my title"  # nothing entered is lost
    assert at.text_input(key="pg_add_id").value == doc
    assert shown_order(at) == ["d1", "d2", "d3", "d4", "d5"]


def test_bad_k_is_explained_and_kept(at):
    at.number_input(key="pg_k").set_value(0).run()
    assert not at.exception
    assert any(
        "Cutoff k must be between 1 and 100; got 0 (see errors/cutoff-k in the docs)" in e.value for e in at.error
    )
    assert at.number_input(key="pg_k").value == 0
    assert "NDCG@5" in metric_values(at)  # the scenario keeps k = 5


def test_bad_move_rank_is_explained(at):
    at.selectbox(key="pg_move_doc").set_value("d2")
    at.number_input(key="pg_move_rank").set_value(9)
    at.button(key="pg_move").click().run()
    assert any("rank must be between 1 and 5; got 9" in shown(e.value) for e in at.error)
    assert shown_order(at) == ["d1", "d2", "d3", "d4", "d5"]


def test_more_than_100_documents_is_refused():
    """A list of 99 (opened from a link: 95 adds through the page cost 95 reruns) takes a 100th, not a 101st."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["docs"] = ",".join(f"x{i}" for i in range(99))
    at.query_params["grades"] = ",".join("1" for _ in range(99))
    at.run()
    assert not at.exception and len(shown_order(at)) == 99
    at.text_input(key="pg_add_id").input("x99")
    at.button(key="pg_add").click().run()
    assert not at.exception and len(shown_order(at)) == 100
    at.text_input(key="pg_add_id").input("x-too-many")
    at.button(key="pg_add").click().run()
    assert not at.exception
    assert any("at most 100 documents" in e.value for e in at.error)
    assert len(shown_order(at)) == 100


def test_script_title_is_plain_text(at):
    title = "<script>alert('x')</script> **bold** $x$"
    at.text_input(key="pg_add_id").input("evil")
    at.text_input(key="pg_add_title").input(title)
    at.checkbox(key="pg_add_shelf").check()
    at.button(key="pg_add").click().run()
    assert not at.exception
    shelf_line = next(m.value for m in at.markdown if "evil" in m.value)
    assert "\\<script\\>" in shelf_line and "\\*\\*bold\\*\\*" in shelf_line and "\\$x\\$" in shelf_line
    # The only HTML Markdown is the app's own CSS (ir_metrics_lab.shell.css), which never carries user text.
    assert all(m.value.startswith("<style>") and "evil" not in m.value for m in at.markdown if m.proto.allow_html)
    at.button(key="pg_retrieve_evil").click().run()
    # The card gets the raw title; the component sets it with textContent, so it shows as typed.
    assert list_data(at)["items"][-1]["title"] == title


def test_rename_and_remove(at):
    at.selectbox(key="pg_rename_doc").set_value("d2")
    at.text_input(key="pg_rename_title").input("Renamed tutorial")
    at.button(key="pg_rename").click().run()
    assert list_data(at)["items"][1]["title"] == "Renamed tutorial"
    at.selectbox(key="pg_remove_doc").set_value("d4")
    at.button(key="pg_remove").click().run()
    assert shown_order(at) == ["d1", "d2", "d3", "d5"]


def test_playground_runs_standalone():
    at = AppTest.from_file(PLAYGROUND, default_timeout=30).run()
    assert not at.exception
    assert metric_values(at)["NDCG@5"] == "0.9724"


def test_everything_shelved_and_k_beyond_the_list(at):
    at.session_state["pg_list"] = {"edit": {"order": [], "nonce": "empty"}}
    at.run()
    assert not at.exception
    values = metric_values(at)
    assert values["NDCG@5"] == values["P@5"] == values["RR"] == "0.0000"
    assert values["IDCG@5"] == f"{IDCG5:.4f}"  # the shelf is still judged
    at.button(key="pg_undo").click().run()
    at.number_input(key="pg_k").set_value(7).run()
    values = metric_values(at)
    assert values["P@7"] == f"{4 / 7:.4f}"  # trec_eval pads a short list with non-relevant docs
    assert values["NDCG@7"] == f"{DCG5 / IDCG5:.4f}" and not at.exception  # nothing more to gain past rank 5
