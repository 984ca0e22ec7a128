"""F1@k (metrics.families.f1); trec_eval has no F1 at a cutoff."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.f1 import f1
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable

NAMES = ["F1@3", "F1"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "c"], {"a": 2, "b": 1, "c": 0, "z": 3}  # R = 3 (a, b, z)
    # P@3 = 2/3, R@3 = 2/3: F1 = 2 P R / (P + R)
    assert f1(ranking, qrels, 3).value == pytest.approx(2 * (2 / 3) * (2 / 3) / (2 / 3 + 2 / 3))
    # P@4 = 2/4, R@4 = 2/3
    assert f1(ranking, qrels, 4).value == pytest.approx(2 * (2 / 4) * (2 / 3) / (2 / 4 + 2 / 3))
