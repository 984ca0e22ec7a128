"""NRBP (metrics.families.nrbp): ndeval 4.5's recorded output, pyndeval, the kernel, by hand."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable
from tests.families.diversity import equals_ndeval45, equals_pyndeval

NAMES = ["NRBP", "NRBP(alpha=0.2,beta=0.9)", "NRBP(beta=0.1)@3"]


def test_equals_ndeval45():
    equals_ndeval45("NRBP", "NRBP")


def test_equals_pyndeval():
    equals_pyndeval("NRBP", "NRBP")


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    """One subtopic, relevant documents at ranks 1 and 3: (1 + 0.25 * 0.5) * (1 - 0.5 * 0.5) / 1."""
    b = parse_measure("NRBP").compute(["a", "x", "c"], {"1": {"a": 1, "c": 1}})
    assert b.value == pytest.approx((1 + 0.25 * 0.5) * 0.75, abs=1e-12)
    assert parse_measure("NRBP(alpha=1,beta=1)").compute(["a", "c"], {"1": {"a": 1, "c": 1}}).value == 1.0
