"""Issue 11: what the playground says about the list on screen is true of it. A loaded scenario (a preset, an
erratum, a run's query) starts a new baseline with no change badges; the example picker and its caption follow
the list (edited, or back to the original).

The default preset is the graded list [3, 2, 3, 0, 1] (d1..d5, k = 5). Numbers are hand arithmetic."""

from __future__ import annotations

from math import log2
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).parents[1] / "app.py")


def start() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    return at


def deltas(at: AppTest) -> dict[str, str]:
    return {m.label: m.delta for m in at.metric}


def values(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def captions(at: AppTest) -> str:
    return "\n".join(c.value for c in at.caption)


def drag(at: AppTest, order: list[str], nonce: str) -> AppTest:
    at.session_state["pg_list"] = {"edit": {"order": order, "nonce": nonce}}
    return at.run()


def test_picking_another_example_shows_no_change_badges():
    at = drag(start(), ["d4", "d1", "d2", "d3", "d5"], "n1")
    assert any(deltas(at).values())  # an edit: the cards show its change
    at.selectbox(key="pg_preset").set_value("retriever-a").run()
    assert values(at)["RR"] == f"{1 / 3:.4f}"
    assert not any(deltas(at).values()), deltas(at)


def test_an_edit_after_loading_shows_the_change_against_the_loaded_list():
    at = start()
    at.selectbox(key="pg_preset").set_value("retriever-b").run()  # r1, r2, n1, n2, n3: RR = 1
    drag(at, ["n1", "r1", "r2", "n2", "n3"], "n2")  # first relevant at rank 2: RR = 1/2
    assert deltas(at)["RR"] == f"{1 / 2 - 1:+.4f}"


def test_an_erratum_opened_in_the_playground_shows_no_change_badges():
    at = start()
    at.switch_page("app_pages/reference/errata.py").run()
    at.button(key="errata_open_000-71").click().run()
    assert at.title[0].value == "Playground"
    assert not any(deltas(at).values()), deltas(at)


def test_reset_starts_a_new_baseline():
    at = drag(start(), ["d5", "d1", "d2", "d3", "d4"], "n3")
    at.button(key="pg_reset").click().run()
    assert values(at)["NDCG@5"] == "0.9724" and not any(deltas(at).values())


def test_the_caption_of_an_edited_example_says_so_and_one_click_brings_the_original_back():
    at = start()
    assert at.selectbox(key="pg_preset").value == "grades-32301"
    drag(at, ["d2", "d1", "d3", "d4", "d5"], "n4")  # grades 2, 3, 3, 0, 1
    dcg = 2 + 3 / log2(3) + 3 / log2(4) + 0 + 1 / log2(6)
    idcg = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
    assert values(at)["NDCG@5"] == f"{dcg / idcg:.4f}" != "0.9724"
    picker = at.selectbox(key="pg_preset")
    assert picker.value is None and picker.placeholder == "The graded list [3, 2, 3, 0, 1] (edited)"
    assert "You changed this example" in captions(at) and "about the original" in captions(at)
    at.button(key="pg_preset_original").click().run()
    assert values(at)["NDCG@5"] == "0.9724"
    assert at.selectbox(key="pg_preset").value == "grades-32301"
    assert "You changed this example" not in captions(at)


def test_the_cold_open_caption_quotes_the_cards_own_cutoff_first():
    at = start()
    lesson = next(c.value for c in at.caption if "28.19" in c.value)
    first_sentence = lesson.split(". ")[0]
    assert "NDCG@5 = 0.9724" in first_sentence and values(at)["NDCG@5"] == "0.9724"
    assert "DCG@4" not in first_sentence


def test_counts_agree_in_number_with_one_relevant_document():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"docs": "a,b", "grades": "1,0", "k": "2"})
    at.run()
    assert "R = **1** relevant document judged (grade ≥ 1); **1** of them is in the top 2." in captions(at)


def test_the_conventions_overview_wraps_its_text_instead_of_cutting_it():
    at = start()
    at.switch_page("app_pages/reference/conventions.py").run()
    assert not at.exception and not at.dataframe and not at.table  # a Markdown table, whose cells wrap
    (overview,) = [m.value for m in at.markdown if m.value.startswith("| split |")]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in overview.splitlines()[2:]]
    assert "IDCG from all judgments or from the retrieved list" in [row[0] for row in rows]
    assert {row[4] for row in rows} <= {"yes", "no"}  # one word each: the narrow column's cells do not wrap
