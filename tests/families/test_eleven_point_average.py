"""The 11-point average, trec_eval's 11pt_avg (metrics.families.eleven_point_average)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.eleven_point_average import eleven_point_average
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["IPrec11", "11pt_avg..25,.5,.75"]
PYTREC_EVAL = {"IPrec11": "11pt_avg"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: 11pt_avg asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("11pt_avg") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level, {"11pt_avg"})


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 1}  # relevant at ranks 1 and 3: precision 1, then 2/3
    # trec_eval 10.0 rounds level * R half away from zero: levels 0 ... 0.7 need at most 1 relevant document
    # (0.7 * 2 = 1.4 rounds to 1; precision 1 is the best from rank 1 on), 0.8 ... 1.0 need 2 (2/3)
    assert eleven_point_average(ranking, qrels).value == pytest.approx((8 * 1 + 3 * 2 / 3) / 11)
    # trec_eval 9.x's floor(level * R + 0.9): levels 0 ... 0.5 need 1, 0.6 ... 1.0 need 2
    nine = Conventions(recall_rounding="plus_0.9")
    assert eleven_point_average(ranking, qrels, conventions=nine).value == pytest.approx((6 * 1 + 5 * 2 / 3) / 11)
