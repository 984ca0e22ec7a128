"""P-IA@k (metrics.families.p_ia): ndeval 4.5's recorded output, pyndeval, the kernel, by hand."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable
from tests.families.diversity import equals_ndeval45, equals_pyndeval

NAMES = ["P_IA@5", "P_IA@20", "P-IA@1"]


@pytest.mark.parametrize("k", [5, 10, 20])
def test_equals_ndeval45(k):
    equals_ndeval45(f"P_IA@{k}", f"P-IA@{k}")


@pytest.mark.parametrize("k", [1, 20])
def test_equals_pyndeval(k):
    equals_pyndeval(f"P_IA@{k}", f"P-IA@{k}")


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    """a covers 2 of 2 subtopics, b 1: 3 pairs over 2 ranks x 2 subtopics; at 5 over 5 x 2."""
    qrels = {"1": {"a": 1}, "2": {"a": 1, "b": 1}}
    assert parse_measure("P_IA@2").compute(["a", "b"], qrels).value == 0.75
    assert parse_measure("P_IA@5").compute(["a", "b"], qrels).value == 0.3
