"""nERR-IA@k (metrics.families.nerr_ia): ndeval 4.5's recorded output, pyndeval, the kernel, by hand."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable
from tests.families.diversity import equals_ndeval45, equals_pyndeval

NAMES = ["nERR_IA@5", "nERR_IA@20", "nERR_IA(alpha=0.2)@3", "nERR-IA(alpha=1)@10"]


@pytest.mark.parametrize("k", [5, 10, 20])
def test_equals_ndeval45(k):
    equals_ndeval45(f"nERR_IA@{k}", f"nERR-IA@{k}")


@pytest.mark.parametrize("k", [1, 20])
def test_equals_pyndeval(k):
    equals_pyndeval(f"nERR_IA@{k}", f"nERR-IA@{k}")


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    """The run b, a against the ideal a, b: (1 + 2/2) / (2 + 1/2); both divided by the same ideal ideal."""
    qrels = {"1": {"a": 1}, "2": {"a": 1}, "3": {"b": 1}}
    b = parse_measure("nERR_IA@2").compute(["b", "a"], qrels)
    assert b.value == pytest.approx((1 + 2 / 2) / (2 + 1 / 2), abs=1e-12)
    assert parse_measure("nERR_IA@5").compute(["x"], qrels).value == 0.0  # nothing relevant retrieved
