"""R_cap@k, trec_eval's relative_P (metrics.families.capped_recall)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.capped_recall import capped_recall
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["R_cap@3", "R_cap"]
PYTREC_EVAL = {"R_cap@5": "relative_P_5"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: relative_P asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("relative_P") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level, {"relative_P.5"})


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "c"], {"a": 2, "b": 1, "c": 0, "z": 3}  # R = 3 (a, b, z)
    assert capped_recall(ranking, qrels, 2).value == pytest.approx(1 / 2)  # 1 hit / min(R = 3, k = 2)
    assert capped_recall(ranking, qrels, 4).value == pytest.approx(2 / 3)  # 2 hits / min(R = 3, k = 4)
