"""Each lesson page renders standalone, and one interaction per page moves its number as hand arithmetic says."""

from __future__ import annotations

from math import log2

import pytest
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.parts import teaching
from metrics import ndcg
from tests.page_scripts import page_script

LESSONS = [
    "lesson_precision_recall.py",
    "lesson_rr.py",
    "lesson_ap.py",
    "lesson_ndcg.py",
    "lesson_unjudged.py",
    "lesson_user_models.py",
    "lesson_diversity.py",
]


def run(page: str) -> AppTest:
    at = AppTest.from_file(str(page_script(page)), default_timeout=30).run()
    assert not at.exception
    return at


def metrics(at: AppTest) -> list[tuple[str, str]]:
    return [(m.label, m.value) for m in at.metric]


@pytest.mark.parametrize("page", LESSONS)
def test_lesson_renders_with_formula_source_and_traps(page):
    at = run(page)
    assert at.title and at.latex
    assert any("Traps" in h.value for h in at.subheader)
    assert at.expander  # "Show the code that computed this"


def test_a_lessons_code_is_drawn_once_its_expander_is_opened():
    """Closed, the expander sends no code box (its highlighter costs the browser on every page view); opened, it shows
    the source of the function that computed the numbers."""
    at = run("lesson_ndcg.py")
    assert len(at.code) == 0
    at.session_state[teaching.source_key(ndcg)] = True  # the reader opens "...: `ndcg`"
    at.run()
    assert [code.value.splitlines()[0] for code in at.code] == ["def ndcg("]


def test_precision_recall_capped_recall_when_r_exceeds_k():
    at = run("lesson_precision_recall.py")
    assert ("R@5", f"{3 / 7:.4f}") in metrics(at) and ("R_cap@5", f"{3 / 5:.4f}") in metrics(at)
    at.number_input(key="lesson_pr_missed").set_value(1).run()  # an 8th relevant doc, never retrieved
    assert ("R@5", f"{3 / 8:.4f}") in metrics(at) and ("R_cap@5", f"{3 / 5:.4f}") in metrics(at)


def test_precision_slider_follows_the_playground_list():
    at = run("lesson_precision_recall.py")  # playground default: grades [3, 2, 3, 0, 1], k = 5
    assert ("P@5", f"{4 / 5:.4f}") in metrics(at)
    at.slider(key="lesson_pr_k").set_value(4).run()
    assert ("P@4", f"{3 / 4:.4f}") in metrics(at)


def test_rr_slider_and_mrr_cutoff():
    at = run("lesson_rr.py")
    at.slider(key="lesson_rr_rank").set_value(4).run()
    assert r"\frac{1}{4} = 0.2500" in at.latex[-1].value
    assert ("MRR@2", f"{(1 + 1 + 0) / 3:.4f}") in metrics(at)
    at.toggle(key="lesson_rr_cut").set_value(False).run()
    assert ("MRR", f"{(1 + 1 + 1 / 3) / 3:.4f}") in metrics(at)


def test_ap_at_k_divides_by_R():
    at = run("lesson_ap.py")
    values = [v for label, v in metrics(at) if label == "AP@3"]
    assert values == [f"{(1 + 2 / 3) / 10:.4f}", f"{(1 + 2 / 3) / 2:.4f}"]  # by R = 10, by the 2 hits
    at.number_input(key="lesson_ap_R").set_value(5).run()
    assert next(v for label, v in metrics(at) if label == "AP@3") == f"{(1 + 2 / 3) / 5:.4f}"
    assert ("MAP@2 (mean of AP@2)", "0.6667") in metrics(at)


def test_ndcg_idcg_from_all_judgments_vs_retrieved():
    at = run("lesson_ndcg.py")
    dcg5 = 3 + 2 / log2(3) + 3 / log2(4) + 1 / log2(6)
    assert ("NDCG@5", f"{dcg5 / (3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)):.4f}") in metrics(at)  # 0.9724
    with_missed = 3 + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 1 / log2(6)
    assert [v for label, v in metrics(at) if label == "NDCG@5"][1] == f"{dcg5 / with_missed:.4f}"  # 0.8047
    at.radio(key="lesson_ndcg_idcg").set_value("retrieved").run()
    assert [v for label, v in metrics(at) if label == "NDCG@5"][1] == "0.9724"


def test_ndcg_ignores_the_threshold():
    at = run("lesson_ndcg.py")
    at.slider(key="lesson_ndcg_threshold").set_value(3).run()
    assert ("P@5 (threshold 3)", f"{2 / 5:.4f}") in metrics(at)
    assert ("NDCG@5 (threshold 3)", "0.9724") in metrics(at)


def test_lessons_follow_the_playground_scenario():
    at = AppTest.from_file(str(page_script("lesson_rr.py")), default_timeout=30)
    from ir_metrics_lab.core.scenario import Scenario
    from metrics.teaching.examples import RETRIEVER_A

    at.session_state["scenario"] = Scenario.from_example(RETRIEVER_A)  # relevant at ranks 3 and 4
    at.run()
    assert ("RR", f"{1 / 3:.4f}") in metrics(at)


@pytest.mark.parametrize("page", LESSONS)
@pytest.mark.parametrize("ranking", [(), ("a",)])
def test_lessons_survive_tiny_playground_lists(page, ranking):
    from ir_metrics_lab.core.scenario import Scenario

    at = AppTest.from_file(str(page_script(page)), default_timeout=30)
    at.session_state["scenario"] = Scenario(ranking, shelf=("z",), grades={"a": 1, "z": 2}, k=1)
    at.run()
    assert not at.exception


def tail_scenario():
    """A query opened from a run: n1, r1 on screen, n2, r2 in the hidden tail (ranks 3 and 4), R = 2."""
    from ir_metrics_lab.core.scenario import Scenario

    return Scenario(("n1", "r1"), grades={"n1": 0, "r1": 1, "n2": 0, "r2": 1}, k=2, scale=1, tail=("n2", "r2"))


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("lesson_ap.py", [("AP", f"{(1 / 2 + 2 / 4) / 2:.4f}"), ("AP@2", f"{(1 / 2) / 2:.4f}")]),  # 0.5000, 0.2500
        ("lesson_rr.py", [("RR", f"{1 / 2:.4f}"), ("RR@2", f"{1 / 2:.4f}")]),
        ("lesson_precision_recall.py", [("R@2", f"{1 / 2:.4f}"), ("P@2", f"{1 / 2:.4f}")]),
    ],
)
def test_lessons_count_the_hidden_tail_like_the_playground(page, expected):
    at = AppTest.from_file(str(page_script(page)), default_timeout=30)
    at.session_state["scenario"] = tail_scenario()
    at.run()
    assert not at.exception
    for item in expected:
        assert item in metrics(at), metrics(at)
    assert "plus 2 more retrieved documents after them" in "\n".join(c.value for c in at.caption)


def test_ndcg_lesson_counts_the_tail_in_the_ideal_order():
    at = AppTest.from_file(str(page_script("lesson_ndcg.py")), default_timeout=30)
    at.session_state["scenario"] = tail_scenario()
    at.run()
    assert not at.exception  # R = 2: the ideal top 2 holds both relevant docs, r2 from the tail included
    assert ("NDCG@2", f"{(1 / log2(3)) / (1 + 1 / log2(3)):.4f}") in metrics(at)
