"""unj@k (metrics.families.unjudged)."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions, parse_measure
from metrics.evaluation.engine import evaluate
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval10, kernel_equals_readable

NAMES = ["unj", "unj@5"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: unj asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("unj") > 0


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "u", "b", "y"], {"a": 2, "u": -1, "b": 0}
    assert parse_measure("unj_5").compute(ranking, qrels).value == 3 / 5
    assert parse_measure("unj_10").compute(ranking, qrels).value == 3 / 10  # divides by k
    assert parse_measure("unj_2").compute(ranking, qrels).value == 1 / 2
    assert evaluate({"q": ranking}, {"q": qrels}, ["unj_10"]).per_query["unj_10"].tolist() == [3 / 10]
