"""The "Diversity and novelty" lesson (AppTest): on the Playground's list, whose cards carry aspects, alpha-nDCG@5,
NDCG@5 and ERR-IA@5 equal arithmetic written out here (ndeval's discount 1 / log2(rank + 1), gains (1 - alpha)^seen)
after a drag, an example, the alpha slider and an aspect edit."""

from __future__ import annotations

from math import log2
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ir_metrics_lab.core.lessons import diversity as dv
from ir_metrics_lab.core.scenario import Scenario

PAGE = str(Path(__file__).parents[1] / "app_pages" / "learn" / "lesson_diversity.py")
LIST = "lesson_diversity_list"
IDEAL = [1, 1, 1, 0.5, 0.25]  # the greedy ideal's gains: charging, range, price, then price twice more


def dcg(gains: list[float]) -> float:
    return sum(g / log2(i + 2) for i, g in enumerate(gains))


def run(scenario: Scenario | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    if scenario is not None:
        at.session_state["scenario"] = scenario
    at.run()
    assert not at.exception
    return at


def cards(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_a_new_visitor_gets_the_example_with_ndcg_1_and_a_low_alpha_ndcg():
    at = run()
    assert at.title[0].value.startswith("Diversity and novelty")
    assert at.session_state["scenario"] == dv.repeated_aspect()  # the untouched default list has no aspects
    assert cards(at) == {
        "NDCG@5": "1.0000",
        "alpha_nDCG@5": f"{dcg([1, 0.5, 0.25, 0.125, 0.0625]) / dcg(IDEAL):.4f}",  # 0.6216
        "ERR_IA@5": f"{1 / 3:.4f}",  # price's ERR is 1, range's and charging's 0
    }
    assert any("Traps" in h.value for h in at.subheader) and len(at.expander) == 3


def test_a_list_of_the_playground_is_kept():
    edited = dv.repeated_aspect().moved("d5", 1)  # not the untouched default list: the lesson does not replace it
    at = run(edited)
    assert at.session_state["scenario"] == edited


def test_dragging_a_repeating_document_down_raises_alpha_ndcg_and_lowers_ndcg():
    at = run()
    at.session_state[LIST] = {"edit": {"order": ["d1", "d3", "d4", "d5", "d6", "d7", "d2"], "nonce": "1"}}
    at.run()
    assert cards(at)["alpha_nDCG@5"] == f"{dcg([1, 0.5, 0.25, 0.125, 1]) / dcg(IDEAL):.4f}"  # 0.7700, up
    assert cards(at)["NDCG@5"] == f"{dcg([3, 2, 2, 1, 1]) / dcg([3, 3, 2, 2, 1]):.4f}"  # 0.8513, down


def test_the_example_with_the_missing_aspect_moved_up():
    at = run()
    at.button(key="lesson_diversity_example_A missing aspect moved up").click().run()
    assert cards(at)["alpha_nDCG@5"] == f"{dcg([1, 1, 0.5, 0.25, 0.125]) / dcg(IDEAL):.4f}"  # 0.8338
    assert "it misses range." in "\n".join(c.value.replace("\\", "") for c in at.caption)


def test_alpha_0_ignores_repetition():
    at = run()
    at.slider(key="lesson_diversity_alpha").set_value(0.0).run()
    # every aspect counts in full every time: the list's five price documents match the ideal's five gains of 1
    assert cards(at)["alpha_nDCG@5"] == "1.0000"


def test_an_aspect_added_to_a_document_counts():
    at = run()
    at.selectbox(key="lesson_diversity_doc").set_value("d2").run()
    at.multiselect(key="lesson_diversity_aspects").set_value(["price", "safety"]).run()
    assert at.session_state["scenario"].aspects_of("d2") == ("price", "safety")
    # safety is new at rank 2; the ideal now takes d2 first (price and safety: 2), then d7, d6, then price twice
    run_dcg = dcg([1, 0.5 + 1, 0.25, 0.125, 0.0625])
    assert cards(at)["alpha_nDCG@5"] == f"{run_dcg / dcg([2, 1, 1, 0.5, 0.25]):.4f}"
