"""num_rel_ret (metrics.families.num_rel_ret): a count, summed over queries."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions
from metrics.evaluation.engine import evaluate
from metrics.families.num_rel_ret import num_rel_ret
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["num_rel_ret", "NumRelRet@3"]
PYTREC_EVAL = {"num_rel_ret": "num_rel_ret"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: num_rel_ret asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("num_rel_ret") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level)


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 0, "u": -1, "z": 1}  # u: in the pool, not judged
    assert num_rel_ret(ranking, qrels).value == 1  # a
    result = evaluate({"q1": ranking, "q2": ["z"]}, {"q1": qrels, "q2": {"z": 1}}, ["num_rel_ret"])
    assert result.means == {"num_rel_ret": 2.0}  # summed over queries, not averaged
