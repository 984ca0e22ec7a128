"""nNRBP (metrics.families.nnrbp): ndeval 4.5's recorded output, pyndeval, the kernel, by hand."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable
from tests.families.diversity import equals_ndeval45, equals_pyndeval

NAMES = ["nNRBP", "nNRBP(alpha=0.2,beta=0.9)", "nNRBP(beta=0.1)@3"]


def test_equals_ndeval45():
    equals_ndeval45("nNRBP", "nNRBP")


def test_equals_pyndeval():
    equals_pyndeval("nNRBP", "nNRBP")


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    """The run x, a against the ideal a: 0.5 / 1; no relevant subtopic: 0 / 0, NaN (ndeval's -nan)."""
    import math

    assert parse_measure("nNRBP").compute(["x", "a"], {"1": {"a": 1}}).value == 0.5
    assert math.isnan(parse_measure("nNRBP").compute(["x", "a"], {"1": {"a": 0}}).value)
