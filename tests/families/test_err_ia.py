"""ERR-IA@k (metrics.families.err_ia): ndeval 4.5's recorded output, pyndeval, the kernel, by hand."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable
from tests.families.diversity import equals_ndeval45, equals_pyndeval

NAMES = ["ERR_IA@5", "ERR_IA@20", "ERR_IA(alpha=0.2)@3", "ERR-IA(alpha=1)@10"]


@pytest.mark.parametrize("k", [5, 10, 20])
def test_equals_ndeval45(k):
    equals_ndeval45(f"ERR_IA@{k}", f"ERR-IA@{k}")


@pytest.mark.parametrize("k", [1, 20])
def test_equals_pyndeval(k):
    equals_pyndeval(f"ERR_IA@{k}", f"ERR-IA@{k}")


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    """Subtopics 1, 2 (doc a) and 3 (doc b); the run a, b, a's subtopics seen: gains 2 then 1, over 1 and 2."""
    qrels = {"1": {"a": 1}, "2": {"a": 1}, "3": {"b": 1}}
    b = parse_measure("ERR_IA@2").compute(["a", "b"], qrels)
    assert b.value == pytest.approx((2 / 1 + 1 / 2) / (3 / 1 + 3 * 0.5 / 2), abs=1e-12)
    assert [s.contribution for s in b.steps] == [2.0, 0.5]
    assert parse_measure("ERR_IA@1").compute(["a"], qrels).value == 2.0  # rank 1 undivided, as ndeval
