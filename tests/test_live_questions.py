"""Live-class questions: built from a scenario, answers parsed, a round scored and exported. Expected values by hand
arithmetic (the list of tests/test_diagnosis.py)."""

from __future__ import annotations

import csv
import io
from math import log2

import pytest

from live_class import questions
from ui.scenario import Scenario

SCN = Scenario(("d1", "d2", "d3"), ("d4",), {"d1": 0, "d2": 2, "d3": 1, "d4": 3}, {"d1": "<b>*x*</b>"}, k=3)
NDCG = (2 / log2(3) + 1 / 2) / (3 + 2 / log2(3) + 1 / 2)  # 0.3700


def test_a_predict_question_round_trips_its_scenario_and_knows_the_answer():
    question = questions.predict(SCN, "NDCG")
    assert questions.scenario(question) == SCN
    assert questions.prompt(question) == "What is NDCG@3 of this list? Answer to 2 decimal places."
    assert questions.right_answer(question) == f"{NDCG:.2f}" == "0.37"
    uncut = questions.predict(SCN, "AP")  # AP's card is uncut, as trec_eval's map: (1/2 + 2/3) / 3
    assert uncut["k"] is None and questions.right_answer(uncut) == f"{(1 / 2 + 2 / 3) / 3:.2f}"


def test_bad_questions_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="not 'IDCG'"):
        questions.predict(SCN, "IDCG")
    with pytest.raises(ValueError, match="empty"):
        questions.predict(Scenario(()), "NDCG")
    with pytest.raises(ValueError, match="already at rank 2"):
        questions.pick_better(SCN, "d2", 2, "NDCG")


@pytest.mark.parametrize(("typed", "stored"), [("0.37", "0.37"), (" 0,5 ", "0.5"), ("1e-1", "0.1"), ("3", "3.0")])
def test_numbers_are_parsed_with_a_point_or_a_comma(typed, stored):
    assert questions.parse_answer(questions.predict(SCN, "NDCG"), typed) == stored


@pytest.mark.parametrize("typed", ["abc", "", "nan", "inf", "1e9"])
def test_bad_numbers_are_refused(typed):
    with pytest.raises(ValueError):
        questions.parse_answer(questions.predict(SCN, "NDCG"), typed)


def test_a_round_is_counted_and_its_mistakes_diagnosed():
    question = questions.predict(SCN, "NDCG")
    outcome = questions.result(question, ["0.37", "0.3699", "0.25", "0.2547", "0.67", "0.5"])
    assert (outcome.right, outcome.total, outcome.correct, outcome.unexplained) == ("0.37", 6, 2, 1)
    assert outcome.counts == {"0.37": 2, "0.25": 2, "0.67": 1, "0.50": 1}
    assert [(m.answer, m.mistake, m.count) for m in outcome.mistakes] == [
        ("0.25", "exponential gain 2^g − 1 instead of the grade", 2),
        ("0.67", "IDCG from the retrieved list only (relevant documents it missed left out)", 1),
    ]


def test_a_choice_round():
    # B = d3, d1, d2: DCG@3 = 1 + 0 + 2/2 = 2 > A's 1.76, same IDCG: B is right. At k = 2 A wins (1.26 > 1).
    question = questions.pick_better(SCN, "d3", 1, "NDCG")
    assert question["moved"] == {"doc": "d3", "from": 3, "to": 1}
    outcome = questions.result(question, ["B", "B", "A", "tie"])
    assert (outcome.right, outcome.correct, outcome.unexplained) == ("B", 2, 1)
    assert [(m.answer, m.mistake, m.count) for m in outcome.mistakes] == [
        ("A", "cut at 2 instead of 3 (off by one)", 1)
    ]
    with pytest.raises(ValueError):
        questions.parse_answer(question, "C")


def test_the_csv_has_no_nicknames_and_the_markdown_shows_titles_literally():
    question = questions.predict(SCN, "NDCG")
    rows = list(csv.DictReader(io.StringIO(questions.csv(question, 2, [("0.25", 1000), ("0.37", 2000)]))))
    assert list(rows[0]) == list(questions.CSV_COLUMNS)
    assert [(r["round"], r["answer"], r["correct"], r["diagnosis"]) for r in rows] == [
        ("2", "0.25", "0", "exponential gain 2^g − 1 instead of the grade"),
        ("2", "0.37", "1", ""),
    ]
    summary = questions.markdown(question, 2, questions.result(question, ["0.25", "0.37"]))
    assert "\\<b\\>\\*x\\*\\<\\/b\\>" in summary and "<b>" not in summary
    assert "| 0.25 | exponential gain 2^g − 1 instead of the grade | 1 |" in summary


def test_a_vs_b_lists_are_compared_with_their_own_orders():
    from metrics.examples import RETRIEVER_A, RETRIEVER_B

    a, b = Scenario.from_example(RETRIEVER_A), Scenario.from_example(RETRIEVER_B)
    # A: r1, r2 at ranks 3 and 4, AP = (1/3 + 2/4) / 2; B: ranks 1 and 2, AP = 1. P@5: 2/5 for both, a tie.
    question = questions.compare(a, b, "AP")
    assert questions.scenario_b(question).ranking == ("r1", "r2", "n1", "n2", "n3")
    assert questions.breakdown(question, "A").value == pytest.approx((1 / 3 + 2 / 4) / 2)
    assert questions.right_answer(question) == "B"
    assert questions.right_answer(questions.compare(a, b, "P")) == "tie"
    outcome = questions.result(questions.compare(a, b, "P"), ["tie", "B"])
    assert (outcome.correct, outcome.unexplained) == (1, 1)  # no cutoff or convention makes B win at P@5
    assert "**List B**" in questions.markdown(question, 1, questions.result(question, ["B"]))
    with pytest.raises(ValueError, match="same order"):
        questions.compare(a, a, "AP")
