"""Set utility (metrics.families.utility): a * relevant retrieved + b * non-relevant retrieved + c * relevant missed + d
* non-relevant not retrieved."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["utility", "utility(a=2,b=-0.5,c=-1,d=0.25,collection=100)", "utility.1,-1,-0.5,0.25"]
PYTREC_EVAL = {"utility": "utility"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: utility asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("utility") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level)


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 0, "z": 1}  # 1 relevant and 3 others retrieved; z missed
    assert parse_measure("utility").compute(ranking, qrels).value == 1 * 1 + -1 * 3  # (a, b, c, d) = (1, -1, 0, 0)
    # c counts the missed relevant z; d the non-relevant not retrieved: collection 10 - R 2 - 3 retrieved others
    named = "utility(a=2,b=-0.5,c=-1,d=0.25,collection=10)"
    assert parse_measure(named).compute(ranking, qrels).value == 2 * 1 - 0.5 * 3 - 1 * 1 + 0.25 * (10 - 2 - 3)
