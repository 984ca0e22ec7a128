"""ndcg_rel (metrics.families.ndcg_rel), trec_eval's experimental NDCG averaged at the relevant documents."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["ndcg_rel", "ndcg_rel(gains={2:9})"]
PYTREC_EVAL = {"ndcg_rel": "ndcg_rel"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: ndcg_rel asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("ndcg_rel") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level)


def test_worked_example_by_hand():
    # the ranking is the ideal one: NDCG is 1 at each relevant document, so is its average
    assert parse_measure("ndcg_rel").compute(["a", "b"], {"a": 2, "b": 1}).value == pytest.approx(1.0)
