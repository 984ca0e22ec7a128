"""RBP, rbp_resid and ERR (metrics.families.user_models). trec_eval's rbp reads uninitialised memory and
pytrec_eval has no rbp, so the references are arithmetic written out here (and ir_measures' gdeval for ERR, in
tests/test_catalog_reference.py)."""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from metrics.families import user_models
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable

TOL = 1e-9
NAMES = ["RBP", "RBP(p=0.5)@4", "rbp_resid", "RBP_resid(p=0.8)@3", "ERR", "ERR@3"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable_on_lists_of_very_different_lengths(data, threshold):
    """rbp_resid's kernel expands every rank when a few lists are much longer than the rest (its other path)."""
    with mock.patch.object(user_models, "_RANK_STEPS_PER_RANK", 0):
        kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_rbp_binary_by_hand():
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


def test_rbp_residual_by_hand():
    ranking, qrels = ["r1", "x", "u", "n"], {"r1": 1, "u": -1, "n": 0}
    p = 0.9
    # unjudged at ranks 2 (no qrels line) and 3 (negative grade); the tail beyond rank 4 is p^4
    expected = p**4 + (1 - p) * (p**1 + p**2)
    assert parse_measure("rbp_resid").compute(ranking, qrels).value == pytest.approx(expected, abs=TOL)
    assert parse_measure("rbp_resid").compute(["r1", "n"], qrels).value == 0.0  # nothing unjudged: trec_eval's 0


def test_err_by_hand():
    ranking, qrels = ["a", "x", "b", "c"], {"a": 2, "b": 4, "c": 9}
    r_a, r_b, r_c = 3 / 16, 15 / 16, 15 / 16  # grade 9 counts as 4
    expected = r_a + (1 - r_a) * r_b / 3 + (1 - r_a) * (1 - r_b) * r_c / 4
    assert parse_measure("ERR@10").compute(ranking, qrels).value == pytest.approx(expected, abs=TOL)
    assert parse_measure("ERR@2").compute(ranking, qrels).value == pytest.approx(r_a, abs=TOL)
