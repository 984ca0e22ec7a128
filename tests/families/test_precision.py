"""P@k (metrics.families.precision)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.precision import precision
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["P@1", "P@5", "P"]
PYTREC_EVAL = {"P@5": "P_5", "P@10": "P_10"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: P asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("P") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level, {"P.5,10"})


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "c"], {"a": 2, "b": 1, "c": 0, "z": 3}  # R = 3 (a, b, z)
    assert precision(ranking, qrels, 3).value == pytest.approx(2 / 3)  # a, b in the top 3
    assert precision(ranking, qrels, 10).value == pytest.approx(2 / 10)  # divides by k, not by the 4 retrieved
