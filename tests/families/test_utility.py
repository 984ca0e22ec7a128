"""Set utility (metrics.families.utility): a * relevant retrieved + b * non-relevant retrieved + c * relevant missed
+ d * the rest; not in [0, 1]."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval, kernel_equals_readable


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    names = ["utility", "utility(a=2,b=-0.5,c=-1,d=0.25,collection=100)", "utility.1,-1,-0.5,0.25"]
    kernel_equals_readable(names, *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_trec_eval(data, level):
    equals_trec_eval({"utility": "utility"}, *data, level)


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 0, "z": 1}  # 1 relevant and 3 others retrieved; z missed
    assert parse_measure("utility").compute(ranking, qrels).value == 1 * 1 + -1 * 3  # (a, b, c, d) = (1, -1, 0, 0)
    # c counts the missed relevant z; d the non-relevant not retrieved: collection 10 - R 2 - 3 retrieved others
    named = "utility(a=2,b=-0.5,c=-1,d=0.25,collection=10)"
    assert parse_measure(named).compute(ranking, qrels).value == 2 * 1 - 0.5 * 3 - 1 * 1 + 0.25 * (10 - 2 - 3)
