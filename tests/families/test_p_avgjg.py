"""P_avgjg, precision averaged over judgment groups (metrics.families.p_avgjg; trec_eval -R qrels_jg)."""

from __future__ import annotations

from metrics import parse_measure
from tests.families.check import judgment_group_checks

# kernel = readable on qrels and on judgment groups, both = trec_eval 10.0
test_kernel_equals_readable, test_judgment_groups_equal_readable, test_equals_trec_eval_10 = judgment_group_checks(
    ["P_avgjg@1", "P_avgjg@5", "P_avgjg_10"],
    {f"P_avgjg@{k}": f"P_avgjg_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)},
)


def test_worked_example_by_hand():
    ranking = ["a", "b", "c"]
    groups = {"u2": {"a": 1, "b": 1}, "u1": {"c": 2, "a": 0}}
    # u1: c relevant among the top 2? no: 0 / 2; u2: a and b: 2 / 2; averaged: (0 + 1) / 2
    assert parse_measure("P_avgjg@2").compute(ranking, groups).value == 0.5
    # one group: P itself
    assert parse_measure("P_avgjg@2").compute(ranking, {"u1": {"c": 2}}).value == 0.0
    assert parse_measure("P_avgjg@3").compute(ranking, {"c": 2}).value == 1 / 3
