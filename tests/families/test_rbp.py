"""RBP (metrics.families.rbp). trec_eval 10.0's rbp reads uninitialised memory: its corpus rows carry the answer on the
repaired input (defects.json)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval10, kernel_equals_readable

TOL = 1e-9
NAMES = ["RBP", "RBP(p=0.5)@4"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: rbp asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("rbp") > 0


def test_worked_example_by_hand():
    ranking, qrels = ["r1", "x", "n", "r2", "r3"], {"r1": 1, "r2": 1, "r3": 1, "n": 0, "r4": 1}
    p = 0.8
    assert parse_measure("RBP(p=0.8)").compute(ranking, qrels).value == pytest.approx(
        (1 - p) * (1 + p**3 + p**4), abs=TOL
    )
    assert parse_measure("rbp").compute(ranking, qrels).value == pytest.approx(0.1 * (1 + 0.9**3 + 0.9**4), abs=TOL)


def test_rbp_graded_gains_are_scaled_by_the_top_grade():
    """trec_eval's m_rbp.c scales gains into [0, 1] when the query's levels go above 1: grade / top grade."""
    ranking, qrels = ["a", "b", "c"], {"a": 1, "b": 3, "c": 0, "z": 4}
    assert parse_measure("rbp.p=0.5").compute(ranking, qrels).value == pytest.approx(
        0.5 * (1 / 4 + 0.5 * 3 / 4), abs=TOL
    )
