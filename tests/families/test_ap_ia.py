"""AP-IA (metrics.families.ap_ia): ndeval 4.5's recorded output, pyndeval, the kernel, by hand."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable
from tests.families.diversity import equals_ndeval45, equals_pyndeval

NAMES = ["AP_IA", "MAP-IA@3", "AP_IA@1"]


def test_equals_ndeval45():
    equals_ndeval45("AP_IA", "MAP-IA")


def test_equals_pyndeval():
    equals_pyndeval("AP_IA", "MAP-IA")


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    """Subtopic 1 (a, b; b at rank 3): (1 + 2/3) / 2; subtopic 2 (b): 1/3; their mean."""
    b = parse_measure("AP_IA").compute(["a", "x", "b"], {"1": {"a": 1, "b": 1}, "2": {"b": 1}})
    assert b.value == pytest.approx(((1 + 2 / 3) / 2 + 1 / 3) / 2, abs=1e-12)
    assert b.steps[2].covers == ("1", "2") and b.steps[2].seen == (1, 0)
