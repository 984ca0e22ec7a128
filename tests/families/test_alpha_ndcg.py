"""alpha-nDCG@k (metrics.families.alpha_ndcg): ndeval 4.5's recorded output, pyndeval, the kernel, by hand."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable
from tests.families.diversity import equals_ndeval45, equals_pyndeval

NAMES = ["alpha_nDCG@5", "alpha_nDCG@20", "alpha_nDCG(alpha=0.2)@3", "alpha-nDCG(alpha=1)@10"]


@pytest.mark.parametrize("k", [5, 10, 20])
def test_equals_ndeval45(k):
    equals_ndeval45(f"alpha_nDCG@{k}", f"alpha-nDCG@{k}")


@pytest.mark.parametrize("k", [1, 20])
def test_equals_pyndeval(k):
    equals_pyndeval(f"alpha_nDCG@{k}", f"alpha-nDCG@{k}")


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_worked_example_by_hand():
    """Subtopics 1, 2 (doc a) and 3 (doc b); the run b, a. alpha = 0.5, discounts 1 and 1 / log2(3)."""
    qrels = {"1": {"a": 1}, "2": {"a": 1}, "3": {"b": 1}}
    d2 = 1 / __import__("math").log2(3)
    run, ideal = 1 + 2 * d2, 2 + 1 * d2  # the ideal puts a (two subtopics) first
    b = parse_measure("alpha_nDCG@2").compute(["b", "a"], qrels)
    assert b.value == pytest.approx(run / ideal, abs=1e-12)
    assert [s.covers for s in b.steps] == [("3",), ("1", "2")]
    assert [s.gain for s in b.steps] == [1.0, 2.0]
    again = parse_measure("alpha_nDCG@2").compute(["a", "x", "c"], {"1": {"a": 1, "c": 1}})
    assert again.value == pytest.approx(1 / (1 + 0.5 * d2))  # the ideal: a, then c (its subtopic seen once)
    third = parse_measure("alpha_nDCG@3").compute(["a", "x", "c"], {"1": {"a": 1, "c": 1}})
    assert third.steps[2].seen == (1,) and third.steps[2].gains == (0.5,)
