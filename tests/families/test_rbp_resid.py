"""rbp_resid (metrics.families.rbp_resid)."""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from metrics.families import rbp_resid
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval10, kernel_equals_readable

TOL = 1e-9
NAMES = ["rbp_resid", "RBP_resid(p=0.8)@3"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable_on_lists_of_very_different_lengths(data, threshold):
    """The kernel expands every rank when a few lists are much longer than the rest (its other path)."""
    with mock.patch.object(rbp_resid, "_RANK_STEPS_PER_RANK", 0):
        kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: rbp_resid asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("rbp_resid") > 0


def test_worked_example_by_hand():
    ranking, qrels = ["r1", "x", "u", "n"], {"r1": 1, "u": -1, "n": 0}
    p = 0.9
    # unjudged at ranks 2 (no qrels line) and 3 (negative grade); the tail beyond rank 4 is p^4
    expected = p**4 + (1 - p) * (p**1 + p**2)
    assert parse_measure("rbp_resid").compute(ranking, qrels).value == pytest.approx(expected, abs=TOL)
    assert parse_measure("rbp_resid").compute(["r1", "n"], qrels).value == 0.0  # nothing unjudged: trec_eval's 0
