"""Rprec_mult_avgjg, precision at a multiple of R averaged over judgment groups (metrics.families.rprec_mult_avgjg;
trec_eval -R qrels_jg)."""

from __future__ import annotations

from metrics import parse_measure
from tests.families.check import judgment_group_checks

MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
# kernel = readable on qrels and on judgment groups, both = trec_eval 10.0
test_kernel_equals_readable, test_judgment_groups_equal_readable, test_equals_trec_eval_10 = judgment_group_checks(
    ["RprecMult_avgjg@0.5", "Rprec_mult_avgjg_2.00"],
    {f"RprecMult_avgjg@{x}": f"Rprec_mult_avgjg_{x:.2f}" for x in MULTIPLES},
)


def test_worked_example_by_hand():
    ranking = ["a", "b", "c", "d"]
    groups = {"u1": {"a": 1, "c": 1}, "u2": {"b": 1, "d": 1, "e": 1, "f": 1}}
    # x = 0.5. u1: R = 2, the top (long)(0.5 * 2 + 0.9) = 1: a, 1 / 1. u2: R = 4, the top (long)(2 + 0.9) = 2: b, 1 / 2
    assert parse_measure("RprecMult_avgjg@0.5").compute(ranking, groups).value == (1 / 1 + 1 / 2) / 2
