"""num_q (metrics.families.num_q): a count, summed over queries."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions
from metrics.evaluation.engine import evaluate
from metrics.families.num_q import num_q
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval10, kernel_equals_readable

NAMES = ["num_q"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: num_q asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("num_q") > 0


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 0, "u": -1, "z": 1}  # u: in the pool, not judged
    assert num_q(ranking, qrels).value == 1  # 1 per evaluated query
    result = evaluate({"q1": ranking, "q2": ["z"]}, {"q1": qrels, "q2": {"z": 1}}, ["num_q"])
    assert result.means == {"num_q": 2.0}  # summed over queries, not averaged
