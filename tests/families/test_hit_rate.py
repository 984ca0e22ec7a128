"""HitRate@k, trec_eval's success (metrics.families.hit_rate)."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions
from metrics.families.hit_rate import hit_rate
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["HitRate@1", "HitRate@5"]
PYTREC_EVAL = {"HitRate@5": "success_5"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: success asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("success") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level, {"success.5"})


def test_worked_example_by_hand():
    ranking, qrels = ["x", "a"], {"a": 2, "z": 3}  # the first relevant document at rank 2
    assert hit_rate(ranking, qrels, 1).value == 0.0 and hit_rate(ranking, qrels, 2).value == 1.0
