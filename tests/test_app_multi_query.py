"""The multi-query page: golden means for seed 004 at k = 2, means that move with edits, trec_eval's counting rule."""

from __future__ import annotations

from pathlib import Path

from golden import PUBLIC
from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).parents[1] / "app_pages" / "play" / "multi_query.py")
CATDOG = next(c for c in PUBLIC if c["id"] == "pub-seed004-catdog-binary-t05")["expected"]


def run() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    assert not at.exception
    return at


def means(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_preset_means_equal_trec_eval():
    shown = means(run())
    assert shown["mean P@2"] == f"{CATDOG['P@2']['mean']:.4f}" == "0.6667"
    assert shown["MAP@2"] == f"{CATDOG['AP@2']['mean']:.4f}" == "0.6667"
    assert shown["MRR@2"] == f"{CATDOG['RR@2']['mean']:.4f}" == "0.6667"
    assert shown["MRR"] == f"{CATDOG['RR']['mean']:.4f}" == "0.7778"  # Q3's first relevant doc is at rank 3
    assert shown["mean NDCG@2"] == f"{CATDOG['NDCG@2']['mean']:.4f}"


def test_means_move_when_one_query_is_edited():
    at = run()
    at.selectbox(key="multi_query_Q3_move_doc").set_value("D3")
    at.number_input(key="multi_query_Q3_move_rank").set_value(1)
    at.button(key="multi_query_Q3_move").click().run()
    shown = means(at)
    assert shown["MRR@2"] == shown["MRR"] == "1.0000"  # every query now has a hit at rank 1
    assert shown["mean P@2"] == f"{(1 + 1 + 1 / 2) / 3:.4f}"  # Q3's top 2 is now D3, D1


def test_a_drop_moves_the_means_in_its_own_run():
    at = run()
    # As the browser sends a drop (ir_metrics_lab/parts/sortable.py): Q1's D3 (not relevant) dragged to the top.
    at.session_state["multi_query_Q1_list"] = {"edit": {"order": ["D3", "D1", "D2", "D4"], "nonce": "drop-1"}}
    at.run()
    assert means(at)["mean P@2"] == f"{(1 / 2 + 1 + 0) / 3:.4f}"  # Q1's top 2 is now D3, D1; Q2 1; Q3 0


def test_trec_eval_counting_rule():
    at = run()
    for demo in ("unjudged", "zeros", "missed"):
        at.toggle(key=f"multi_query_demo_{demo}").set_value(True)
    at.run()
    assert means(at)["MRR@2"] == f"{(1 + 1 + 0 + 0) / 4:.4f}"  # the unjudged and missed queries do not count
    table = at.dataframe[0].value.set_index("query")
    assert not table.loc["Q-unjudged", "counts"] and table.loc["Q-zeros", "counts"]
    at.toggle(key="multi_query_complete").set_value(True).run()  # -c: the missed query counts as 0
    assert means(at)["MRR@2"] == f"{(1 + 1 + 0 + 0 + 0) / 5:.4f}"


def test_add_and_remove_a_query():
    at = run()
    at.button(key="multi_query_add").click().run()
    assert list(at.session_state["multi_queries"]) == ["Q1", "Q2", "Q3", "Q4"]
    assert means(at)["MRR@2"] == f"{(1 + 1 + 0 + 0) / 4:.4f}"  # a new query starts with nothing relevant
    assert at.session_state["multi_query_texts"]["Q4"] == "new query"
    at.button(key="multi_query_Q4_remove").click().run()
    assert means(at)["MRR@2"] == "0.6667"
    assert list(at.session_state["multi_queries"]) == list(at.session_state["multi_query_texts"]) == ["Q1", "Q2", "Q3"]


def test_query_text_is_edited_through_ui_state():
    at = run()
    at.text_input(key="multi_query_Q2_text").set_value("puppies").run()
    assert not at.exception
    assert at.session_state["multi_query_texts"]["Q2"] == "puppies"
    assert means(at)["MRR@2"] == "0.6667"  # the text changes no number


def test_ui_state_hands_out_read_only_queries():
    def script():
        import streamlit as st

        from ir_metrics_lab.session import multi_query_state

        try:
            multi_query_state.queries()["Q9"] = None
        except TypeError:
            st.write("queries are read-only")
        try:
            multi_query_state.query_texts()["Q1"] = "x"
        except TypeError:
            st.write("texts are read-only")
        multi_query_state.add_query("Q9", multi_query_state.queries()["Q1"], "nine")
        multi_query_state.set_query_text("Q1", "one")
        multi_query_state.remove_query("Q2")
        st.write(",".join(f"{q}={t}" for q, t in multi_query_state.query_texts().items()))

    at = AppTest.from_function(script, default_timeout=30).run()
    assert not at.exception
    assert [m.value for m in at.markdown] == [
        "queries are read-only",
        "texts are read-only",
        "Q1=one,Q3=train parrot,Q9=nine",
    ]


def test_k_applies_to_every_query():
    at = run()
    at.number_input(key="multi_query_k").set_value(3).run()
    assert means(at)["MRR@3"] == f"{(1 + 1 + 1 / 3) / 3:.4f}"  # Q3's first hit at rank 3 now counts
    assert {scn.k for scn in at.session_state["multi_queries"].values()} == {3}
