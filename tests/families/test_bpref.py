"""bpref (metrics.families.bpref)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.families.bpref import bpref
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["bpref"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: bpref asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("bpref") > 0


def test_worked_example_by_hand():
    ranking, qrels = ["n1", "r1", "x", "n2", "r2"], {"r1": 1, "r2": 1, "r3": 1, "n1": 0, "n2": 0}
    # R = 3, N = 2: r1 has 1 judged non-relevant above it, r2 has 2; bpref = (1/3) * ((1 - 1/2) + (1 - 2/2))
    assert bpref(ranking, qrels).value == pytest.approx((1 / 3) * ((1 - 1 / 2) + (1 - 2 / 2)))


@SETTINGS
@given(RUNS)
def test_both_equal_pytrec_eval(data):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x) at its default level. A query whose grades
    are all negative is left out: trec_eval reads past its level array there."""
    run, qrels = data
    qrels = {q: g for q, g in qrels.items() if not g or max(g.values()) >= 0}
    equals_trec_eval({"bpref": "bpref"}, run, qrels)
