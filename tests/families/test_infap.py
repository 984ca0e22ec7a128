"""infAP (metrics.families.infap)."""

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

NAMES = ["infAP"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: infAP asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("infAP") > 0


def test_worked_example_by_hand():
    # every retrieved document judged: infAP equals AP (Yilmaz and Aslam); relevant at ranks 1 and 3, R = 2
    ranking, qrels = ["a", "n", "b"], {"a": 1, "n": 0, "b": 1}
    assert parse_measure("infAP").compute(ranking, qrels).value == pytest.approx((1 / 1 + 2 / 3) / 2)


@SETTINGS
@given(RUNS)
def test_both_equal_pytrec_eval(data):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x) at its default level. A query whose grades
    are all negative is left out: trec_eval reads past its level array there."""
    run, qrels = data
    qrels = {q: g for q, g in qrels.items() if not g or max(g.values()) >= 0}
    equals_trec_eval({"infAP": "infAP"}, run, qrels)
