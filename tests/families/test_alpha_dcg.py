"""alpha-DCG@k (metrics.families.alpha_dcg): ndeval 4.5's recorded output, pyndeval, the kernel, by hand."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable
from tests.families.diversity import equals_ndeval45, equals_pyndeval

NAMES = ["alpha_DCG@5", "alpha_DCG@20", "alpha_DCG(alpha=0.2)@3", "alpha-DCG(alpha=1)@10"]


@pytest.mark.parametrize("k", [5, 10, 20])
def test_equals_ndeval45(k):
    equals_ndeval45(f"alpha_DCG@{k}", f"alpha-DCG@{k}")


@pytest.mark.parametrize("k", [1, 20])
def test_equals_pyndeval(k):
    equals_pyndeval(f"alpha_DCG@{k}", f"alpha-DCG@{k}")


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    """Subtopic 1 covered twice: gains 1, then 0.5 at rank 2 (discount 1 / log2(3)), over 1 + 0.5 / log2(3)."""
    import math

    b = parse_measure("alpha_DCG@2").compute(["a", "c"], {"1": {"a": 1, "c": 1}})
    assert b.value == pytest.approx(1.0, abs=1e-12)
    assert b.steps[1].seen == (1,) and b.steps[1].gains == (0.5,)
    assert b.steps[1].discount == pytest.approx(1 / math.log2(3))
    half = parse_measure("alpha_DCG@2").compute(["x", "a"], {"1": {"a": 1}})
    assert half.value == pytest.approx((1 / math.log2(3)) / (1 + 0.5 / math.log2(3)), abs=1e-12)
