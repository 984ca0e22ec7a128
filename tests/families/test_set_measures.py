"""set_P, set_recall, set_F and set_map (metrics.families.set_measures)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.set_average_precision import set_average_precision
from metrics.families.set_f import set_f
from metrics.families.set_precision import set_precision
from metrics.families.set_recall import set_recall
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval, kernel_equals_readable

TREC = {"set_P": "set_P", "set_recall": "set_recall", "set_F": "set_F", "set_map": "set_map"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable([*TREC, "SetF(beta=0.5)", "SetP@3"], *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_trec_eval(data, level):
    equals_trec_eval(TREC, *data, level)


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 0, "z": 1}  # 1 relevant of 4 retrieved; R = 2
    assert set_precision(ranking, qrels).value == pytest.approx(1 / 4)
    assert set_recall(ranking, qrels).value == pytest.approx(1 / 2)
    assert set_f(ranking, qrels).value == pytest.approx(2 * (1 / 4) * (1 / 2) / (1 / 4 + 1 / 2))  # beta = 1
    assert set_average_precision(ranking, qrels).value == pytest.approx((1 / 4) * (1 / 2))
