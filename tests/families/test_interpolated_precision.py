"""Interpolated precision at a recall level (metrics.families.interpolated_precision)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.interpolated_precision import interpolated_precision
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["IPrec@0", "IPrec@0.5", "IPrec@1", "IPrec@0.3"]
PYTREC_EVAL = {"IPrec@0.5": "iprec_at_recall_0.50", "IPrec@1": "iprec_at_recall_1.00"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: iprec_at_recall asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("iprec_at_recall") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level, {"iprec_at_recall.0.5,1.0"})


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 1}  # relevant at ranks 1 and 3: precision 1, then 2/3
    assert interpolated_precision(ranking, qrels, level=0.5).value == 1.0  # the best precision from rank 1 on
    assert interpolated_precision(ranking, qrels, level=1.0).value == pytest.approx(2 / 3)
