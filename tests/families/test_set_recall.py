"""set_recall (metrics.families.set_recall)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.set_recall import set_recall
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["set_recall"]
PYTREC_EVAL = {"set_recall": "set_recall"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: set_recall asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("set_recall") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level)


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 0, "z": 1}  # 1 relevant of 4 retrieved; R = 2
    assert set_recall(ranking, qrels).value == pytest.approx(1 / 2)
