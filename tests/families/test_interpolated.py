"""Interpolated precision at a recall level and the 11-point average (metrics.families.interpolated)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.eleven_point_average import eleven_point_average
from metrics.families.interpolated_precision import interpolated_precision
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval, kernel_equals_readable


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    names = ["IPrec@0", "IPrec@0.5", "IPrec@1", "IPrec@0.3", "IPrec11", "11pt_avg..25,.5,.75"]
    kernel_equals_readable(names, *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_trec_eval(data, level):
    """trec_eval 9.x (pytrec_eval) asks for floor(level * R + 0.9) relevant documents: our named convention
    recall_rounding="plus_0.9" (trec_eval 10.0's rounding is checked by tests/test_trec_eval10_corpus.py)."""
    names = {"IPrec@0.5": "iprec_at_recall_0.50", "IPrec@1": "iprec_at_recall_1.00", "IPrec11": "11pt_avg"}
    equals_trec_eval(names, *data, level, {"iprec_at_recall.0.5,1.0", "11pt_avg"})


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 1}  # relevant at ranks 1 and 3: precision 1, then 2/3
    assert interpolated_precision(ranking, qrels, level=0.5).value == 1.0  # the best precision from rank 1 on
    assert interpolated_precision(ranking, qrels, level=1.0).value == pytest.approx(2 / 3)
    # trec_eval 10.0 rounds level * R half away from zero: levels 0 ... 0.7 need at most 1 relevant document
    # (0.7 * 2 = 1.4 rounds to 1; precision 1 is the best from rank 1 on), 0.8 ... 1.0 need 2 (2/3)
    assert eleven_point_average(ranking, qrels).value == pytest.approx((8 * 1 + 3 * 2 / 3) / 11)
    # trec_eval 9.x's floor(level * R + 0.9): levels 0 ... 0.5 need 1, 0.6 ... 1.0 need 2
    nine = Conventions(recall_rounding="plus_0.9")
    assert eleven_point_average(ranking, qrels, conventions=nine).value == pytest.approx((6 * 1 + 5 * 2 / 3) / 11)
