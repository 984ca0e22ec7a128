"""ERR (metrics.families.err); trec_eval has no ERR (ir_measures' gdeval is checked in
tests/test_catalog_reference.py)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable

TOL = 1e-9
NAMES = ["ERR", "ERR@3"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "c"], {"a": 2, "b": 4, "c": 9}
    r_a, r_b, r_c = 3 / 16, 15 / 16, 15 / 16  # grade 9 counts as 4
    expected = r_a + (1 - r_a) * r_b / 3 + (1 - r_a) * (1 - r_b) * r_c / 4
    assert parse_measure("ERR@10").compute(ranking, qrels).value == pytest.approx(expected, abs=TOL)
    assert parse_measure("ERR@2").compute(ranking, qrels).value == pytest.approx(r_a, abs=TOL)
