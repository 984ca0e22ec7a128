"""R@k (metrics.families.recall)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.recall import recall
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["R@3", "R@10", "R"]
PYTREC_EVAL = {"R@10": "recall_10"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: recall asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("recall") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level, {"recall.10"})


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "c"], {"a": 2, "b": 1, "c": 0, "z": 3}  # R = 3 (a, b, z)
    assert recall(ranking, qrels, 3).value == pytest.approx(2 / 3)  # a, b of the 3 relevant
    assert recall(ranking, qrels, 1).value == pytest.approx(1 / 3)
