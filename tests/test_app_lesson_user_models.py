"""The "User models: RBP & ERR" lesson (AppTest): RBP, its residual and ERR@k on the Playground's list equal
arithmetic written out here (trec_eval's rbp has no pytrec_eval binding; ERR@k is also checked against ir_measures'
gdeval), for the default list and after moving the patience slider; degenerate lists do not crash it."""

from __future__ import annotations

import json
from pathlib import Path

import ir_measures
import pytest
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.core.scenario import Scenario

PAGE = str(Path(__file__).parents[1] / "app_pages" / "learn" / "lesson_user_models.py")
# The playground's default preset: d1..d5 graded 3, 2, 3, 0, 1; k = 5; RBP's gains are grade / 3.
GAINS = [1, 2 / 3, 1, 0, 1 / 3]
STOPS = [7 / 16, 3 / 16, 7 / 16, 0, 1 / 16]  # ERR's R_i = (2^g - 1) / 16


def run(scenario: Scenario | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    if scenario is not None:
        at.session_state["scenario"] = scenario
    at.run()
    assert not at.exception
    return at


def cards(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def captions(at: AppTest) -> str:
    return "\n".join(c.value for c in at.caption)


def rbp(p: float, gains: list[float]) -> float:
    return (1 - p) * sum(g * p**i for i, g in enumerate(gains))


def test_renders_with_formulas_traps_and_the_code():
    at = run()
    assert at.title[0].value == "User models: RBP and ERR"
    assert len(at.latex) == 6  # RBP, its residual and ERR: definition and worked formula each
    assert any("Traps" in h.value for h in at.subheader)
    assert len(at.expander) == 3


def test_rbp_at_the_default_patience_and_after_the_slider():
    at = run()
    assert cards(at)["RBP"] == f"{rbp(0.9, GAINS):.4f}"  # 0.1 * (1 + 0.6 + 0.81 + 0.2187) = 0.2629
    assert cards(at)["RBP residual"] == "0.0000"  # nothing unjudged: trec_eval reports 0
    assert f"p^5 = {0.9**5:.4f}" in captions(at)
    at.slider(key="lesson_user_models_p").set_value(0.5).run()
    assert cards(at)["RBP"] == f"{rbp(0.5, GAINS):.4f}"  # 0.5 * (1 + 1/3 + 1/4 + 1/48)
    assert f"add up to {1 - 0.5**5:.4f}; the rest, p^5 = {0.5**5:.4f}" in captions(at)
    chart = next(el for el in at.get("plotly_chart"))
    weights = json.loads(chart.proto.spec)["data"][0]["y"]
    assert weights == pytest.approx([0.5, 0.25, 0.125, 0.0625, 0.03125], abs=1e-12)


def test_the_residual_counts_unjudged_documents_and_the_weight_beyond_the_list():
    scn = Scenario(("d1", "d2", "d3", "d4", "d5"), grades={"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}, k=5)
    at = run(scn.with_unjudged({"d2"}))  # d2 loses its judgment: gain 0, and unknown
    gains = [1, 0, 1, 0, 1 / 3]
    residual = 0.9**5 + 0.1 * 0.9  # the tail p^5, plus d2's weight (1 - p) p^1
    assert cards(at)["RBP"] == f"{rbp(0.9, gains):.4f}"
    assert cards(at)["RBP residual"] == f"{residual:.4f}"
    assert f"RBP lies between {rbp(0.9, gains):.4f} and {rbp(0.9, gains) + residual:.4f}" in captions(at)


def test_err_cascade_by_hand_and_against_gdeval():
    at = run()
    reach = [1.0]
    for stop in STOPS[:-1]:
        reach.append(reach[-1] * (1 - stop))
    contributions = [r * s / i for i, (r, s) in enumerate(zip(reach, STOPS, strict=True), start=1)]
    assert cards(at)["ERR@5"] == f"{sum(contributions):.4f}"
    table = at.dataframe[0].value
    assert table["P(reach)"].tolist() == pytest.approx(reach, abs=1e-12)
    assert table["R_i (stops)"].tolist() == pytest.approx(STOPS, abs=1e-12)
    assert table["contribution reach·R_i/i"].tolist() == pytest.approx(contributions, abs=1e-12)
    past = reach[-1] * (1 - STOPS[-1])
    assert f"With probability {past:.4f} the reader reads past rank 5 unsatisfied" in captions(at)
    docs = ["d1", "d2", "d3", "d4", "d5"]
    qrels = [ir_measures.Qrel("1", d, g) for d, g in zip(docs, [3, 2, 3, 0, 1], strict=True)]
    run_rows = [ir_measures.ScoredDoc("1", d, 5.0 - i) for i, d in enumerate(docs)]
    [gdeval] = ir_measures.gdeval.iter_calc([ir_measures.parse_measure("ERR@5")], qrels, run_rows)
    assert sum(contributions) == pytest.approx(gdeval.value, abs=5e-6)  # gdeval prints 5 decimals


def test_titles_in_the_cascade_table_are_plain_cells():
    titles = {"a": "**bold** $x$", "b": "<script>alert(1)</script>"}
    at = run(Scenario(("a", "b"), grades={"a": 1, "b": 0}, titles=titles, k=2, scale=1))
    assert at.dataframe[0].value["title"].tolist() == [titles["a"], titles["b"]]


@pytest.mark.parametrize(
    "scenario",
    [
        Scenario(("a", "b"), grades={"a": 0, "b": 0}, k=2),  # R = 0: every gain is 0
        Scenario((), shelf=("z",), grades={"z": 2}, k=1),  # nothing retrieved
        Scenario(("a",), grades={"a": 0}, k=1).with_unjudged({"a"}),  # no judgment at all
    ],
)
def test_degenerate_lists_do_not_crash(scenario):
    at = run(scenario)
    at.slider(key="lesson_user_models_p").set_value(0.99).run()
    assert not at.exception
    assert cards(at)["RBP"] == "0.0000"
