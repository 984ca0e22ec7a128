"""RR and RR@k (metrics.families.reciprocal_rank)."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions, reciprocal_rank
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval, kernel_equals_readable


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(["RR", "RR@1", "RR@3"], *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_trec_eval(data, level):
    equals_trec_eval({"RR": "recip_rank"}, *data, level)


def test_worked_example_by_hand():
    qrels = {"a": 1, "b": 0}
    assert reciprocal_rank(["x", "b", "a"], qrels).value == 1 / 3  # first relevant at rank 3
    assert reciprocal_rank(["x", "b", "a"], qrels, 2).value == 0.0  # not in the top 2
    assert reciprocal_rank([], qrels).value == 0.0
