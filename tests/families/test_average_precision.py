"""AP and AP@k (metrics.families.average_precision)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.average_precision import average_precision
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["AP", "AP@3", "AP@10"]
PYTREC_EVAL = {"AP": "map", "AP@3": "map_cut_3"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: map, map_cut asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("map") + equals_trec_eval10("map_cut") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level, {"map_cut.3", "map"})


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b"], {"a": 1, "b": 1, "z": 1}  # R = 3; relevant at ranks 1 and 3
    assert average_precision(ranking, qrels).value == pytest.approx((1 / 1 + 2 / 3) / 3)
    assert average_precision(ranking, qrels, 2).value == pytest.approx((1 / 1) / 3)
