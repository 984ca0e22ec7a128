"""metrics.compare.pairing: two runs' evaluations aligned query by query, the left-out queries counted by reason.
Expected values are written out by hand from the runs and qrels below."""

from __future__ import annotations

import numpy as np

from metrics.compare.pairing import LeftOut, align
from metrics.evaluation.engine import evaluate

QRELS = {
    "q1": {"a": 1},
    "q2": {"b": 1},
    "q3": {"c": 1},
    "q4": {"d": 1},  # retrieved by neither run
    "q5": {"e": 1},  # retrieved by run B only
}
RUN_A = {
    "q1": {"x": 2.0, "a": 1.0},  # RR 0.5
    "q2": {"b": 1.0},  # RR 1
    "q3": {"z": 1.0},  # RR 0
    "q9": {"a": 1.0},  # no qrels line: never scored
}
RUN_B = {
    "q3": {"c": 1.0},  # RR 1
    "q2": {"y": 3.0, "w": 2.0, "b": 1.0},  # RR 1/3
    "q5": {"e": 1.0},  # RR 1
    "q8": {"a": 1.0},  # no qrels line
}


def test_align_keeps_the_queries_both_runs_were_evaluated_on_in_run_As_order():
    pair = align(evaluate(RUN_A, QRELS, ["RR"]), evaluate(RUN_B, QRELS, ["RR"]))
    assert pair.queries == ("q2", "q3")
    a, b = pair.values["RR"]
    assert a.tolist() == [1.0, 0.0]
    assert b.tolist() == [1 / 3, 1.0]
    # q1 only in A; q5 only in B; q8 and q9 have no qrels line; q4 is retrieved by neither
    assert pair.left_out == LeftOut(only_a=1, only_b=1, without_qrels=2, in_neither=1)


def test_align_covers_every_measure_and_an_empty_intersection():
    a = evaluate({"q1": {"a": 1.0}}, QRELS, ["RR", "P@1"])
    b = evaluate({"q2": {"b": 1.0}}, QRELS, ["RR", "P@1"])
    pair = align(a, b)
    assert pair.queries == ()
    assert set(pair.values) == {"RR", "P@1"}
    assert all(len(x) == len(y) == 0 and x.dtype == y.dtype == np.float64 for x, y in pair.values.values())
    assert pair.left_out == LeftOut(only_a=1, only_b=1, without_qrels=0, in_neither=3)
