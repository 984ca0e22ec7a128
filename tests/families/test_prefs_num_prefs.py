"""prefs_num_prefs_poss, prefs_num_prefs_ful and prefs_num_prefs_ful_ret (metrics.families.prefs_num_prefs's table;
trec_eval -R prefs, -R qrels_prefs), each test run for each variant."""

from __future__ import annotations

import pytest

from metrics import parse_measure
from tests.families.check import preference_checks

# kernel = readable on qrels and on preferences, both = trec_eval 10.0
test_kernel_equals_readable, test_preferences_equal_readable, test_equals_trec_eval_10 = preference_checks(
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret"
)

# u1 prefers a > b, a > c, b > c, all fulfilled (a, b, c ranked in that order); u2 prefers b > a, not fulfilled
TWO_GROUPS = (["a", "b", "c"], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}})
# only a retrieved: a > b and a > c fulfilled by implication (b, c not retrieved), b > c between two unretrieved
ONLY_A = (["a"], {"u1": {"a": 2, "b": 1, "c": 0}})


@pytest.mark.parametrize(
    ("name", "two_groups", "only_a"),
    [("prefs_num_prefs_poss", 4, 3), ("prefs_num_prefs_ful", 3, 2), ("prefs_num_prefs_ful_ret", 3, 0)],
)
def test_worked_example_by_hand(name, two_groups, only_a):
    measure = parse_measure(name)
    assert measure.compute(*TWO_GROUPS).value == two_groups
    assert measure.compute(*ONLY_A).value == only_a
