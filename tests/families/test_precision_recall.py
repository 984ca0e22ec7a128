"""P@k, R@k, R_cap@k, HitRate@k and F1@k (metrics.families.precision_recall)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, capped_recall, f1, hit_rate, precision, recall
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval, kernel_equals_readable

NAMES = ["P@1", "P@5", "P", "R@3", "R@10", "R", "R_cap@3", "R_cap", "HitRate@1", "HitRate@5", "F1@3", "F1"]
TREC = {"P@5": "P_5", "P@10": "P_10", "R@10": "recall_10", "R_cap@5": "relative_P_5", "HitRate@5": "success_5"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_trec_eval(data, level):
    equals_trec_eval(TREC, *data, level, {"P.5,10", "recall.10", "relative_P.5", "success.5"})


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "c"], {"a": 2, "b": 1, "c": 0, "z": 3}  # R = 3 (a, b, z)
    assert precision(ranking, qrels, 3).value == pytest.approx(2 / 3)  # a, b in the top 3
    assert precision(ranking, qrels, 10).value == pytest.approx(2 / 10)  # divides by k, not by the 4 retrieved
    assert recall(ranking, qrels, 3).value == pytest.approx(2 / 3)
    assert capped_recall(ranking, qrels, 2).value == pytest.approx(1 / 2)  # 1 hit / min(R = 3, k = 2)
    assert hit_rate(ranking, qrels, 1).value == 1.0 and hit_rate(["x"], qrels, 1).value == 0.0
    assert f1(ranking, qrels, 3).value == pytest.approx(2 * (2 / 3) * (2 / 3) / (2 / 3 + 2 / 3))
