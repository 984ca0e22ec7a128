"""RR and RR@k (metrics.families.reciprocal_rank)."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions
from metrics.families.reciprocal_rank import reciprocal_rank
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["RR", "RR@1", "RR@3"]
PYTREC_EVAL = {"RR": "recip_rank"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: recip_rank asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("recip_rank") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level)


def test_worked_example_by_hand():
    qrels = {"a": 1, "b": 0}
    assert reciprocal_rank(["x", "b", "a"], qrels).value == 1 / 3  # first relevant at rank 3
    assert reciprocal_rank(["x", "b", "a"], qrels, 2).value == 0.0  # not in the top 2
    assert reciprocal_rank([], qrels).value == 0.0
