"""binG (metrics.families.bin_g), trec_eval's experimental binary gain walk."""

from __future__ import annotations

import math

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["binG"]
PYTREC_EVAL = {"binG": "binG"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: binG asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("binG") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level)


def test_worked_example_by_hand():
    ranking, qrels = ["r1", "n", "x", "r2"], {"r1": 1, "r2": 1, "r3": 1, "n": 0}
    # each relevant document counts 1 / log2(2 + the non-relevant ones above it), divided by R = 3
    expected = (1 / math.log2(2 + 0) + 1 / math.log2(2 + 2)) / 3
    assert parse_measure("binG").compute(ranking, qrels).value == pytest.approx(expected)
