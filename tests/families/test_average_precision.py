"""AP, AP@k and GM_AP (metrics.families.average_precision)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given

from metrics import Conventions, average_precision
from metrics.engine import evaluate
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval, kernel_equals_readable


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(["AP", "AP@3", "AP@10", "GM_AP"], *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_trec_eval(data, level):
    equals_trec_eval({"AP": "map", "AP@3": "map_cut_3"}, *data, level, {"map", "map_cut.3"})


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b"], {"a": 1, "b": 1, "z": 1}  # R = 3; relevant at ranks 1 and 3
    assert average_precision(ranking, qrels).value == pytest.approx((1 / 1 + 2 / 3) / 3)
    assert average_precision(ranking, qrels, 2).value == pytest.approx((1 / 1) / 3)
    # GM_AP: per query AP; over queries exp(mean(log(max(AP, 0.00001))))
    result = evaluate({"q1": ranking, "q2": ["x"]}, {"q1": qrels, "q2": {"y": 1}}, ["GM_AP"])
    assert result.means["GM_AP"] == pytest.approx(math.exp((math.log(5 / 9) + math.log(0.00001)) / 2))
