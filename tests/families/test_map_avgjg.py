"""map_avgjg, average precision averaged over judgment groups (metrics.families.map_avgjg; trec_eval -R qrels_jg)."""

from __future__ import annotations

from metrics import parse_measure
from tests.families.check import judgment_group_checks

# kernel = readable on qrels and on judgment groups, both = trec_eval 10.0
test_kernel_equals_readable, test_judgment_groups_equal_readable, test_equals_trec_eval_10 = judgment_group_checks(
    ["map_avgjg", "AP_avgjg@3"], {"map_avgjg": "map_avgjg"}
)


def test_worked_example_by_hand():
    ranking = ["a", "b", "c"]
    groups = {"u1": {"a": 1, "c": 1}, "u2": {"b": 1, "z": 1}, "u3": {"a": 0}}
    # u1: (1/1 + 2/3) / 2; u2: (1/2) / 2 (z never retrieved); u3: nothing relevant, 0; averaged over 3 groups
    value = parse_measure("map_avgjg").compute(ranking, groups).value
    assert value == ((1 / 1 + 2 / 3) / 2 + (1 / 2) / 2 + 0.0) / 3
