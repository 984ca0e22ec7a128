"""trec_eval's counts: num_q, num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret (metrics.families.counts)."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions
from metrics.engine import evaluate
from metrics.families.num_nonrel_judged_ret import num_nonrel_judged_ret
from metrics.families.num_rel import num_rel
from metrics.families.num_rel_ret import num_rel_ret
from metrics.families.num_ret import num_ret
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval, kernel_equals_readable

TREC = {"num_ret": "num_ret", "num_rel": "num_rel", "num_rel_ret": "num_rel_ret"}
TREC |= {"num_nonrel_judged_ret": "num_nonrel_judged_ret"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    names = ["num_q", *TREC, "NumRet@3", "NumRelRet@2"]
    kernel_equals_readable(names, *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_trec_eval(data, level):
    equals_trec_eval(TREC, *data, level)


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 0, "u": -1, "z": 1}  # u: in the pool, not judged
    assert num_ret(ranking, qrels).value == 4
    assert num_rel(ranking, qrels).value == 2  # a and z
    assert num_rel_ret(ranking, qrels).value == 1  # a
    assert num_nonrel_judged_ret(ranking, qrels).value == 1  # b (u's grade is below 0: not judged)
    result = evaluate({"q1": ranking, "q2": ["z"]}, {"q1": qrels, "q2": {"z": 1}}, ["num_q", "num_rel_ret"])
    assert result.means == {"num_q": 2.0, "num_rel_ret": 2.0}  # summed over queries, not averaged
