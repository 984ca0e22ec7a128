"""relstring (metrics.families.relstring): a string per query, not a number (pytrec_eval reports it as 0.0)."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions, parse_measure
from metrics.evaluation.engine import evaluate
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval10, kernel_equals_readable

NAMES = ["relstring", "relstring@3", "relstring_12"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: relstring asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("relstring") > 0


def test_worked_example_by_hand():
    ranking = [f"d{i}" for i in range(12)]
    qrels = {"d0": 1, "d2": 0, "d3": -1, "d4": 12, "d5": 9, "d11": 3}
    assert parse_measure("relstring").compute(ranking, qrels).text == "1-0.>9----"
    assert evaluate({"q": ranking}, {"q": qrels}, ["relstring_12"]).texts["relstring_12"] == ("1-0.>9-----3",)
