"""Subtopic recall (metrics.families.strecall): ndeval 4.5's recorded output, pyndeval, the kernel, by hand."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable
from tests.families.diversity import equals_ndeval45, equals_pyndeval

NAMES = ["StRecall@5", "StRecall@20", "strec@1"]


@pytest.mark.parametrize("k", [5, 10, 20])
def test_equals_ndeval45(k):
    equals_ndeval45(f"StRecall@{k}", f"strec@{k}")


@pytest.mark.parametrize("k", [1, 20])
def test_equals_pyndeval(k):
    equals_pyndeval(f"StRecall@{k}", f"strec@{k}")


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    """Subtopics 1, 2 (a) and 3 (c): a covers 2 of 3 at rank 1; c at rank 3 completes them."""
    qrels = {"1": {"a": 1}, "2": {"a": 1}, "3": {"c": 1}}
    assert parse_measure("StRecall@2").compute(["a", "b", "c"], qrels).value == 2 / 3
    b = parse_measure("StRecall@3").compute(["a", "b", "c"], qrels)
    assert b.value == 1.0 and [s.contribution for s in b.steps] == [2 / 3, 0.0, 1 / 3]
