"""gm_bpref (metrics.families.gm_bpref): bpref per query, a geometric mean over queries."""

from __future__ import annotations

import math

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.evaluation.engine import evaluate
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval10, kernel_equals_readable

NAMES = ["gm_bpref"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: gm_bpref asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("gm_bpref") > 0


def test_worked_example_by_hand():
    ranking, qrels = ["n1", "r1", "x", "n2", "r2"], {"r1": 1, "r2": 1, "r3": 1, "n1": 0, "n2": 0}
    q1 = (1 / 3) * ((1 - 1 / 2) + (1 - 2 / 2))  # bpref 1/6
    # q2 retrieves nothing relevant: bpref 0, counted as 0.00001 in the geometric mean
    result = evaluate({"q1": ranking, "q2": ["x"]}, {"q1": qrels, "q2": {"y": 1}}, ["gm_bpref"])
    assert result.means["gm_bpref"] == pytest.approx(math.exp((math.log(q1) + math.log(0.00001)) / 2))
