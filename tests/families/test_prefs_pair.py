"""prefs_pair and its variants prefs_pair_ret, prefs_pair_imp (metrics.families.prefs_pair's table; trec_eval -R prefs,
-R qrels_prefs), each test run for each variant."""

from __future__ import annotations

import pytest

from metrics import parse_measure
from tests.families.check import preference_checks

# kernel = readable on qrels and on preferences, both = trec_eval 10.0
test_kernel_equals_readable, test_preferences_equal_readable, test_equals_trec_eval_10 = preference_checks(
    "prefs_pair", "prefs_pair_ret", "prefs_pair_imp"
)

# u1 prefers a > b, a > c, b > c, all fulfilled (a, b, c ranked in that order); u2 prefers b > a, not fulfilled
TWO_GROUPS = (["a", "b", "c"], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}})
# only a retrieved: a > b and a > c fulfilled by implication (b, c not retrieved), b > c between two unretrieved
ONLY_A = (["a"], {"u1": {"a": 2, "b": 1, "c": 0}})


@pytest.mark.parametrize(
    ("name", "two_groups", "only_a"),
    [
        # two groups: the pair (a, b), one group each way; only a: (b, c), neither retrieved, counts 0
        ("prefs_pair", (1 / 2 + 1 + 1) / 3, (1 + 1 + 0) / 3),
        ("prefs_pair_ret", (1 / 2 + 1 + 1) / 3, 0.0),  # only a: no pair of retrieved documents
        ("prefs_pair_imp", (1 / 2 + 1 + 1) / 3, (1 + 1) / 2),  # only a: (b, c) left out
    ],
)
def test_worked_example_by_hand(name, two_groups, only_a):
    measure = parse_measure(name)
    assert measure.compute(*TWO_GROUPS).value == two_groups
    assert measure.compute(*ONLY_A).value == only_a
