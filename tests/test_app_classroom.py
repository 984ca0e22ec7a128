"""The classroom pages render standalone, and one interaction each does what hand arithmetic says."""

from __future__ import annotations

import json
from math import log2

import pytest
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.core.lessons import quiz
from tests import plotly_json
from tests.markdown_text import shown
from tests.page_scripts import REPO, page_script

CLASSROOM = ["conventions.py", "errata.py", "quiz.py", "swap_heatmap.py"]


def run(page: str) -> AppTest:
    at = AppTest.from_file(str(page_script(page)), default_timeout=30).run()
    assert not at.exception
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


@pytest.mark.parametrize("page", CLASSROOM)
def test_page_renders_standalone(page):
    at = run(page)
    assert at.title


def test_conventions_shows_the_default_list_both_ways_and_a_fix_loads_an_example():
    at = run("conventions.py")  # the playground default: grades [3, 2, 3, 0, 1], k = 5
    values = metrics(at)
    assert values["NDCG@5: Linear gain: g"] == "0.9724"
    assert values["NDCG_exp@5: Exponential gain: 2^g − 1"] == "0.9575"
    at.button(key="conv_fix_idcg").click().run()  # adds a top-grade doc the retriever missed
    assert not at.exception
    dcg5 = 3 + 2 / log2(3) + 3 / log2(4) + 1 / log2(6)
    idcg5 = 3 + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 1 / log2(6)
    assert metrics(at)["NDCG@5: Ideal from every judged doc"] == f"{dcg5 / idcg5:.4f}"


def answer_box(at: AppTest, index: int):
    return at.number_input(key=f"quiz_s{1}_{index}")


def test_quiz_right_and_wrong_answers():
    at = run("quiz.py")  # seed 1 by default
    exercises = quiz.generate(1)
    answer = exercises[0].answer
    answer_box(at, 0).set_value(round(answer, 4)).run()
    at.button(key="quiz_s1_0_check").click().run()
    assert at.success and at.success[0].value.startswith("Right")
    assert metrics(at)["Score this session"] == "1 / 1"
    assert at.latex  # the worked solution
    wrong = answer + 0.1 if answer < 0.8 else answer - 0.1
    answer_box(at, 1).set_value(round(wrong, 4)).run()
    at.button(key="quiz_s1_1_check").click().run()
    assert at.error and at.error[0].value.startswith("Not quite")
    assert metrics(at)["Score this session"] == "1 / 2"


def test_quiz_hand_checked_predict_and_reorder_and_url_seed():
    at = AppTest.from_file(str(page_script("quiz.py")), default_timeout=30)
    at.query_params["seed"] = "5"
    at.run()
    assert not at.exception and at.number_input(key="quiz_seed").value == 5
    ex = quiz.generate(5)[3]
    assert not at.text_input  # the order is dragged, not typed
    at.button(key="quiz_s5_3_check").click().run()  # the list as given does not reach the target
    assert at.error[0].value.startswith("Not yet")
    at.session_state["quiz_s5_3_list"] = {"edit": {"order": list(ex.solution), "nonce": "q1"}}  # a drop
    at.run()
    at.button(key="quiz_s5_3_check").click().run()
    assert at.success[0].value.startswith("Solved")
    assert metrics(at)["Score this session"] == "0 / 1"  # the first attempt counts
    pair = quiz.generate(5)[4]
    at.radio(key="quiz_s5_4_choice").set_value(pair.answer).run()
    at.button(key="quiz_s5_4_check").click().run()
    assert any(s.value.startswith("Right") for s in at.success)


def test_swap_control_swaps_and_the_metric_follows():
    at = run("swap_heatmap.py")  # default list d1..d5 graded [3, 2, 3, 0, 1], NDCG@5
    idcg5 = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
    assert metrics(at)["NDCG@5"] == f"{(3 + 2 / log2(3) + 3 / log2(4) + 1 / log2(6)) / idcg5:.4f}"  # 0.9724
    at.number_input(key="swap_i").set_value(2).run()
    at.number_input(key="swap_j").set_value(4).run()
    at.button(key="swap_do").click().run()
    assert not at.exception
    swapped = (3 + 0 + 3 / log2(4) + 2 / log2(5) + 1 / log2(6)) / idcg5  # [3, 0, 3, 2, 1]
    assert metrics(at)["NDCG@5"] == f"{swapped:.4f}"
    assert shown(at.success[0].value) == "Swapped ranks 2 and 4."
    assert list(at.dataframe[0].value["doc"]) == ["d1", "d4", "d3", "d2", "d5"]


def test_swap_heatmap_metric_picker():
    at = run("swap_heatmap.py")
    at.segmented_control(key="swap_metric").set_value("RR").run()
    assert not at.exception and metrics(at)["RR"] == "1.0000"


def test_swap_heatmap_swaps_the_shown_ranks_and_scores_the_hidden_tail():
    import json

    from ir_metrics_lab.core.scenario import Scenario

    at = AppTest.from_file(str(page_script("swap_heatmap.py")), default_timeout=30)
    # n1, r1 on screen; n2, r2 hidden at ranks 3 and 4 (a query opened from a run); R = 2
    at.session_state["scenario"] = Scenario(
        ("n1", "r1"), grades={"n1": 0, "r1": 1, "n2": 0, "r2": 1}, k=2, scale=1, tail=("n2", "r2")
    )
    at.run()
    at.segmented_control(key="swap_metric").set_value("AP").run()
    assert not at.exception
    assert metrics(at)["AP"] == f"{(1 / 2 + 2 / 4) / 2:.4f}"  # 0.5000: r2 at rank 4 counts
    gain = (1 / 1 + 2 / 4) / 2 - (1 / 2 + 2 / 4) / 2  # r1 to rank 1: AP 0.75, +0.25
    assert f"rank 1 ↔ rank 2: AP {gain:+.4f}" in at.info[0].value
    (heat,) = [t for t in json.loads(at.get("plotly_chart")[0].proto.spec)["data"] if t["type"] == "heatmap"]
    z = plotly_json.values(heat["z"])
    assert len(z) == 2 and z[0][1] == pytest.approx(gain)  # only the shown ranks are swapped
    assert list(at.dataframe[0].value["doc"]) == ["n1", "r1"]


def test_errata_open_in_playground_standalone_loads_the_example():
    at = run("errata.py")
    at.button(key="errata_open_004-rcap").click().run()
    assert not at.exception
    assert at.success[0].value.startswith("Loaded into the Playground")
    assert at.session_state["scenario"].ranking == tuple(f"d{i}" for i in range(1, 11))


NAV = """
import streamlit as st
st.navigation([st.Page({errata!r}, default=True), st.Page({playground!r})]).run()
"""


def test_errata_open_in_playground_switches_page():
    script = NAV.format(errata=str(page_script("errata.py")), playground=str(page_script("playground.py")))
    at = AppTest.from_string(script, default_timeout=30).run()
    assert not at.exception and at.title[0].value == "Errata in popular posts"
    at.button(key="errata_open_004-mrr").click().run()
    assert not at.exception
    assert at.title[0].value != "Errata in popular posts"  # now on the playground
    scn = at.session_state["scenario"]
    assert scn.ranking == ("D1", "D2", "D3", "D4") and scn.k == 2


def test_an_erratum_opened_in_the_playground_is_named_in_the_example_picker():
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=30).run()
    at.switch_page("app_pages/reference/errata.py").run()
    at.button(key="errata_open_000-71").click().run()
    assert not at.exception and at.title[0].value == "Playground"
    picker = at.selectbox(key="pg_preset")
    assert picker.value is None and picker.placeholder == "The example of “IR Metrics 102”, from the errata"
    captions = "\n".join(c.value for c in at.caption)
    assert "not one of the examples" in captions and "28.19" not in captions  # not the default preset's lesson


def test_conventions_count_the_hidden_tail():
    from ir_metrics_lab.core.scenario import Scenario

    at = AppTest.from_file(str(page_script("conventions.py")), default_timeout=30)
    # n1, n2 on screen; the first relevant doc is hidden at rank 3 (a query opened from a run)
    at.session_state["scenario"] = Scenario(
        ("n1", "n2"), grades={"n1": 0, "n2": 0, "r1": 1}, k=2, scale=1, tail=("r1",)
    )
    at.run()
    assert not at.exception
    values = metrics(at)
    assert values["RR: No cutoff"] == f"{1 / 3:.4f}" and values["RR@2: Cut at k = 2"] == "0.0000"


def test_quiz_score_lives_in_ui_state_and_survives_a_page_switch():
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=30).run()
    at.switch_page("app_pages/play/quiz.py").run()
    answer = quiz.generate(1)[0].answer
    answer_box(at, 0).set_value(round(answer, 4)).run()
    at.button(key="quiz_s1_0_check").click().run()
    at.button(key="quiz_s1_0_check").click().run()  # a second try does not count again
    assert metrics(at)["Score this session"] == "1 / 1"
    assert dict(at.session_state["quiz_attempts"]) == {(1, 0): True}
    at.switch_page("app_pages/play/playground.py").run()
    at.switch_page("app_pages/play/quiz.py").run()
    assert metrics(at)["Score this session"] == "1 / 1"
    assert at.success and at.success[0].value.startswith("Right")  # the feedback is kept too


def test_quiz_reorder_target_has_four_decimals_like_every_number():
    at = run("quiz.py")
    ex = quiz.generate(1)[3]
    assert ex.kind == "reorder"
    text = "\n".join(m.value for m in at.markdown)
    assert f"NDCG@{ex.k} ≥ {ex.target:.4f}**" in text and f"≥ {ex.target}**" not in text


SOURCE_TITLES = [
    "Information Retrieval Metrics 102: Order-Aware Metrics",
    "Tips on how to Evaluate Retrieval Quality in RAG Pipelines (Part 3): DCG@k and NDCG@k",
    "Metrics for Information Retrieval",
]


def test_the_sources_page_names_each_post_says_what_it_teaches_and_what_the_errata_correct():
    at = run("sources.py")
    headings = [h.value for h in at.subheader]
    assert all(title in headings for title in SOURCE_TITLES)
    assert any("Recall@K" in h and "FAQ" in h for h in headings)
    text = "\n".join(m.value for m in at.markdown)
    assert "DCG@4" in text  # the errata page's correction of the Part 3 post
    assert "The graded list [3, 2, 3, 0, 1]" in text  # the playground example taken from it
    assert "seed" not in text.lower()


def test_the_sources_page_is_in_the_reference_section():
    app = (REPO / "app.py").read_text(encoding="utf-8")
    reference = app[app.index('"Reference": [') :]
    assert "app_pages/reference/sources.py" in reference


@pytest.mark.parametrize(
    "page",
    [
        "lesson_ap.py",
        "lesson_rr.py",
        "lesson_ndcg.py",
        "lesson_precision_recall.py",
        "multi_query.py",
        "errata.py",
        "playground.py",
    ],
)
def test_no_page_names_a_post_by_an_internal_seed_number(page):
    at = run(page)
    shown = [*(m.value for m in at.markdown), *(c.value for c in at.caption), *(s.value for s in at.subheader)]
    assert not [s for s in shown if "seed 0" in s.lower()], page


def test_quiz_ndcg_solution_derives_idcg_with_the_judged_document_the_list_missed():
    seed = next(s for s in range(50) if quiz.generate(s)[2].missed)
    ex = quiz.generate(seed)[2]
    at = AppTest.from_file(str(page_script("quiz.py")), default_timeout=30)
    at.query_params["seed"] = str(seed)
    at.run()
    at.number_input(key=f"quiz_s{seed}_2").set_value(0.5).run()
    at.button(key=f"quiz_s{seed}_2_check").click().run()
    (missed,) = ex.missed
    text = "\n".join(m.value for m in at.markdown)
    assert f"{missed} (grade {ex.qrels[missed]}, not retrieved)" in text
    top = sorted(ex.qrels.values(), reverse=True)[:3]  # the ideal order of every judged grade, by hand
    idcg = sum(g / log2(i + 2) for i, g in enumerate(top))
    formulas = [x.value for x in at.latex]
    assert any("IDCG" in f and f"{idcg:.4f}" in f for f in formulas), formulas


def test_swap_heatmap_grows_with_presenter_mode():
    def heatmap_spec(presenter_on: bool) -> dict:
        at = AppTest.from_file(str(page_script("swap_heatmap.py")), default_timeout=30)
        at.session_state["presenter_mode"] = presenter_on
        at.run()
        assert not at.exception
        spec = next(json.loads(c.proto.spec) for c in at.get("plotly_chart") if '"heatmap"' in c.proto.spec)
        return spec

    plain_spec, projected = heatmap_spec(False), heatmap_spec(True)
    assert projected["layout"]["font"]["size"] == round(plain_spec["layout"]["font"]["size"] * 1.5)  # FONT_SCALE
    assert projected["layout"]["height"] == round(plain_spec["layout"]["height"] * 1.3)
    cells = [trace["textfont"]["size"] for trace in (plain_spec["data"][0], projected["data"][0])]
    assert cells == [11, round(11 * 1.5)]  # the values written in the cells


def test_quiz_aspect_move_by_hand():
    """Seed 1's last exercise: d2 range (2), d10 safety (3), d23 charging (1), d20 charging and safety (1), d19 safety
    (3), d25 range (1). Moving d20 to rank 1 puts all three aspects in the top 3: by ndeval's gains and discounts
    (1 / log2(rank + 1)) alpha-nDCG@5 is 0.9706, the best of the three moves offered."""
    at = run("quiz.py")
    ex = quiz.generate(1)[5]
    assert ex.options == (("d23", 5), ("d20", 1), ("d19", 1))
    # d20 (charging, safety: 2 new), d2 (range, new), d10 (safety, 2nd), d23 (charging, 2nd), d19 (safety, 3rd)
    run_dcg = 2 + 1 / log2(3) + 0.5 / log2(4) + 0.5 / log2(5) + 0.25 / log2(6)
    # the greedy ideal: d20, d25 (range; ties to the id last in byte order), d23, d2, d19 (each a second time)
    ideal = 2 + 1 / log2(3) + 0.5 / log2(4) + 0.5 / log2(5) + 0.5 / log2(6)
    assert f"{run_dcg / ideal:.4f}" == "0.9706"
    at.radio(key="quiz_s1_5_choice").set_value("2").run()
    at.button(key="quiz_s1_5_check").click().run()
    assert at.success[0].value == (
        "Right: d20: rank 4 → 1 gives alpha-nDCG@5 = 0.9706; the best of these, d20: rank 4 → 1, gives 0.9706."
    )
