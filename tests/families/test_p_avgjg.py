"""P_avgjg, precision averaged over judgment groups (metrics.families.p_avgjg; trec_eval -R qrels_jg)."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval10_groups,
    grouped_runs,
    groups_equal_readable,
    kernel_equals_readable,
)

NAMES = ["P_avgjg@1", "P_avgjg@5", "P_avgjg_10"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    """On plain qrels (one group per query) P_avgjg is P."""
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


@SETTINGS
@given(grouped_runs(), THRESHOLDS)
def test_judgment_groups_equal_readable(data, threshold):
    groups_equal_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: -q -R qrels_jg -m qrels_jg on every judgment-group input of its recorded corpus."""
    names = {f"P_avgjg@{k}": f"P_avgjg_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)}
    assert equals_trec_eval10_groups(names) > 0


def test_worked_example_by_hand():
    ranking = ["a", "b", "c"]
    groups = {"u2": {"a": 1, "b": 1}, "u1": {"c": 2, "a": 0}}
    # u1: c relevant among the top 2? no: 0 / 2; u2: a and b: 2 / 2; averaged: (0 + 1) / 2
    assert parse_measure("P_avgjg@2").compute(ranking, groups).value == 0.5
    # one group: P itself
    assert parse_measure("P_avgjg@2").compute(ranking, {"u1": {"c": 2}}).value == 0.0
    assert parse_measure("P_avgjg@3").compute(ranking, {"c": 2}).value == 1 / 3
