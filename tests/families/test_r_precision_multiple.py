"""Rprec_mult, precision at multiples of R (metrics.families.r_precision_multiple)."""

from __future__ import annotations

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

NAMES = ["RprecMult@0.5", "RprecMult@2"]
PYTREC_EVAL = {"Rprec_mult_0.5": "Rprec_mult_0.50", "Rprec_mult_2.0": "Rprec_mult_2.00"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: Rprec_mult asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("Rprec_mult") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level, {"Rprec_mult.0.5,2.0"})


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 0, "z": 1}  # R = 2 (a, z)
    # x = 0.5: the top (long)(0.5 * 2 + 0.9) = 1 document, a: 1 / 1
    assert parse_measure("RprecMult@0.5").compute(ranking, qrels).value == 1.0
    # x = 2: the top (long)(2 * 2 + 0.9) = 4 documents, a the only relevant one: 1 / 4
    assert parse_measure("RprecMult@2").compute(ranking, qrels).value == 1 / 4
