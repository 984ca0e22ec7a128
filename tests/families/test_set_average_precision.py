"""set_map (metrics.families.set_average_precision)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.evaluation.engine import evaluate
from metrics.families.set_average_precision import set_average_precision
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["set_map"]
PYTREC_EVAL = {"set_map": "set_map"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: set_map asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("set_map") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level)


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 0, "z": 1}  # 1 relevant of 4 retrieved; R = 2
    assert set_average_precision(ranking, qrels).value == pytest.approx((1 / 4) * (1 / 2))  # set_P * set_recall


def test_computed_as_trec_eval_computes_it_to_the_last_bit():
    """m_set_map.c: num_rel_ret² / (num_ret · num_rel). With 1 relevant of 15 retrieved and R = 3 that is 1 / 45, where
    set_P · set_recall = (1 / 15) · (1 / 3) is one bit off; such a bit turned a printed 0.0563 into 0.0562 on a
    trec_eval 10.0 run (the live differential, -c -l2 -m all_trec)."""
    assert (1 / 15) * (1 / 3) != 1 / 45  # the trap, in double precision
    ranking = ["r1", *(f"n{i}" for i in range(14))]
    qrels = {"r1": 1, "r2": 1, "r3": 1}
    assert set_average_precision(ranking, qrels).value == 1 * 1 / (15 * 3)
    assert evaluate({"q": ranking}, {"q": qrels}, NAMES).per_query["set_map"][0] == 1 * 1 / (15 * 3)
