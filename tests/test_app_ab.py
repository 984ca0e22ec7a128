"""The Retriever A vs B page in AppTest. Golden values (trec_eval) for the preset, where the two relevant docs sit at
ranks 3-4 in A and 1-2 in B: P@5 = 0.4 and R@5 = 1 for both; A: RR = 1/3, AP = (1/3 + 2/4) / 2, NDCG@5 = 0.5706;
B: RR = AP = NDCG@5 = 1."""

from __future__ import annotations

import json
from math import log2
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.markdown_text import markdown_table

ROOT = Path(__file__).parents[1]
APP = str(ROOT / "app.py")
AB = "app_pages/play/ab.py"


def table(at: AppTest) -> dict[str, tuple[str, str, str]]:
    """The side-by-side table (Markdown): {metric: (A, B, verdict)}."""
    return {metric: tuple(cells) for metric, cells in markdown_table(at.markdown, "metric").items()}


def order(at: AppTest, side: str) -> list[str]:
    for element in at.get("bidi_component"):
        data = json.loads(element.proto.json)
        if data["list"] == f"ab_list_{side}":
            return [item["id"] for item in data["items"]]
    raise AssertionError(side)


def grades(at: AppTest, side: str) -> dict[str, int]:
    for element in at.get("bidi_component"):
        data = json.loads(element.proto.json)
        if data["list"] == f"ab_list_{side}":
            return {item["id"]: item["grade"] for item in data["items"]}
    raise AssertionError(side)


@pytest.fixture
def at() -> AppTest:
    app = AppTest.from_file(APP, default_timeout=30).run()
    app.switch_page(AB).run()
    assert not app.exception
    return app


def test_preset_ties_on_precision_and_recall_but_not_on_order(at):
    rows = table(at)
    assert rows["P@5"] == (f"{2 / 5:.4f}", f"{2 / 5:.4f}", "equal")
    assert rows["R@5"] == ("1.0000", "1.0000", "equal")
    assert rows["RR"] == (f"{1 / 3:.4f}", "1.0000", "B higher")
    assert rows["AP"] == (f"{(1 / 3 + 2 / 4) / 2:.4f}", "1.0000", "B higher") == ("0.4167", "1.0000", "B higher")
    ndcg_a = (1 / log2(4) + 1 / log2(5)) / (1 / log2(2) + 1 / log2(3))
    assert rows["NDCG@5"] == (f"{ndcg_a:.4f}", "1.0000", "B higher") == ("0.5706", "1.0000", "B higher")
    assert order(at, "A") == ["n1", "n2", "r1", "r2", "n3"]
    assert order(at, "B") == ["r1", "r2", "n1", "n2", "n3"]


def test_explanation_and_note_are_shown(at):
    sentences = " ".join(m.value for m in at.markdown)
    assert "P@5 = 0.4000" in sentences and "favour B" in sentences
    assert any("Lost in the Middle" in i.value for i in at.info)
    assert len(at.get("plotly_chart")) == 3


def test_dragging_a_into_b_order_makes_them_equal(at):
    at.session_state["ab_list_A"] = {"edit": {"order": ["r1", "r2", "n1", "n2", "n3"], "nonce": "a1"}}
    at.run()
    assert not at.exception
    assert all(verdict == "equal" for *_, verdict in table(at).values())
    assert order(at, "B") == ["r1", "r2", "n1", "n2", "n3"]  # B is untouched


def test_grade_change_applies_to_both_lists(at):
    at.session_state["ab_list_B"] = {"edit": {"order": ["r1", "r2", "n1", "n2", "n3"], "grades": {"n1": 1}}}
    at.run()
    assert grades(at, "A")["n1"] == grades(at, "B")["n1"] == 1
    rows = table(at)
    assert rows["P@5"] == (f"{3 / 5:.4f}", f"{3 / 5:.4f}", "equal")
    assert rows["RR"] == ("1.0000", "1.0000", "equal")  # n1 is at rank 1 of A
    assert rows["AP"] == (f"{(1 / 1 + 2 / 3 + 3 / 4) / 3:.4f}", "1.0000", "B higher")  # A: n1, r1, r2 at 1, 3, 4


def test_k_applies_to_both_and_reset_restores_the_preset(at):
    at.number_input(key="ab_k").set_value(2).run()
    rows = table(at)
    assert rows["P@2"] == ("0.0000", "1.0000", "B higher")
    assert rows["R@2"] == ("0.0000", "1.0000", "B higher")
    at.session_state["ab_list_A"] = {"edit": {"order": ["n3", "n2", "r1", "r2", "n1"], "nonce": "a2"}}
    at.run()
    at.button(key="ab_reset").click().run()
    assert order(at, "A") == ["n1", "n2", "r1", "r2", "n3"]
    assert "P@5" in table(at)


def test_ab_page_runs_standalone():
    at = AppTest.from_file(str(ROOT / AB), default_timeout=30).run()
    assert not at.exception
    assert table(at)["NDCG@5"] == ("0.5706", "1.0000", "B higher")


def test_a_plain_verdict_comes_first_and_the_table_speaks_the_explanations_labels(at):
    verdict = at.success[0].value
    assert verdict.startswith("**Retriever B is better")
    assert not any(symbol in verdict for symbol in ("@", "=", "RR", "AP", "NDCG"))  # words, no metric symbols
    labels = set(table(at))
    sentences = " ".join(m.value for m in at.markdown)
    for label in ("RR", "AP", "NDCG@5"):
        assert label in labels and f"{label} A" in sentences  # "RR A 0.3333, B 1.0000" as in the table's row
    assert "RR@5" not in labels | {sentences} and "AP@5" not in sentences


def test_both_per_rank_charts_share_one_y_range(at):
    specs = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")][:2]
    ranges = [spec["layout"]["yaxis"]["range"] for spec in specs]
    assert ranges[0] == ranges[1]
    top_b = max(max(t["y"]) for t in specs[1]["data"])  # B's running NDCG@5 reaches 1
    assert ranges[0][1] >= top_b == 1.0
