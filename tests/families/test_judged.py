"""Judged@k (metrics.families.judged); trec_eval has no Judged@k (ir_measures' is checked in
tests/test_catalog_reference.py)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.judged import judged
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable

NAMES = ["Judged", "Judged@3"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    ranking, qrels = ["n1", "r1", "x", "n2", "r2"], {"r1": 1, "r2": 1, "r3": 1, "n1": 0, "n2": 0}
    assert judged(ranking, qrels, 3).value == pytest.approx(2 / 3)  # x has no qrels line
    assert judged(ranking, qrels, 5).value == pytest.approx(4 / 5)
