"""GM_AP, trec_eval's gm_map (metrics.families.gm_map): AP per query, a geometric mean over queries."""

from __future__ import annotations

import math

import pytest
from hypothesis import given

from metrics import Conventions
from metrics.evaluation.engine import evaluate
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval10, kernel_equals_readable

NAMES = ["GM_AP"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: gm_map asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("gm_map") > 0


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b"], {"a": 1, "b": 1, "z": 1}  # AP = (1/1 + 2/3) / 3 = 5/9
    # per query AP; over queries exp(mean(log(max(AP, 0.00001)))); q2 finds nothing: AP 0, counted as 0.00001
    result = evaluate({"q1": ranking, "q2": ["x"]}, {"q1": qrels, "q2": {"y": 1}}, ["GM_AP"])
    assert result.means["GM_AP"] == pytest.approx(math.exp((math.log(5 / 9) + math.log(0.00001)) / 2))
