"""Rprec and Rprec_mult (metrics.families.r_precision)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from metrics.families.r_precision import r_precision
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval, kernel_equals_readable


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    names = ["Rprec", "Rprec@2", "RprecMult@0.5", "RprecMult@2"]
    kernel_equals_readable(names, *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_trec_eval(data, level):
    names = {"Rprec": "Rprec", "Rprec_mult_0.5": "Rprec_mult_0.50", "Rprec_mult_2.0": "Rprec_mult_2.00"}
    equals_trec_eval(names, *data, level, {"Rprec", "Rprec_mult.0.5,2.0"})


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 0, "z": 1}  # R = 2 (a, z)
    assert r_precision(ranking, qrels).value == pytest.approx(1 / 2)  # 1 relevant in the top R = 2
    # x = 0.5: the top (long)(0.5 * 2 + 0.9) = 1 document, a: 1 / 1
    assert parse_measure("RprecMult@0.5").compute(ranking, qrels).value == 1.0
