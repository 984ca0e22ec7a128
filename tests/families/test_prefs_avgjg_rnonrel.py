"""prefs_avgjg_Rnonrel and its variant prefs_avgjg_Rnonrel_ret (metrics.families.prefs_avgjg_rnonrel's table;
trec_eval -R prefs, -R qrels_prefs), each test run for each variant."""

from __future__ import annotations

import pytest

from metrics import parse_measure
from tests.families.check import preference_checks

# kernel = readable on qrels and on preferences, both = trec_eval 10.0
test_kernel_equals_readable, test_preferences_equal_readable, test_equals_trec_eval_10 = preference_checks(
    "prefs_avgjg_Rnonrel", "prefs_avgjg_Rnonrel_ret"
)

# u1 prefers a > b, a > c, b > c, all fulfilled (a, b, c ranked in that order); u2 prefers b > a, not fulfilled
TWO_GROUPS = (["a", "b", "c"], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}})
# only a retrieved: a > b and a > c fulfilled by implication (b, c not retrieved), b > c between two unretrieved
ONLY_A = (["a"], {"u1": {"a": 2, "b": 1, "c": 0}})


@pytest.mark.parametrize(
    ("name", "two_groups", "only_a"),
    [
        # two groups: u1: R 2, N 1; u2: R 1, N 1
        # only a: R = 2 (a, b), N = 1 (c): one more fulfilled for a
        (
            "prefs_avgjg_Rnonrel",
            ((3 + 2 * 1) / (3 + 2 * 1) + (0 + 1 * 0) / (1 + 1 * 0)) / 2,
            (2 + 1 * 1) / (3 + 2 * 1),
        ),
        # only a, retrieved: R = 1 (a), N = 0
        (
            "prefs_avgjg_Rnonrel_ret",
            ((3 + 2 * 1) / (3 + 2 * 1) + (0 + 1 * 0) / (1 + 1 * 0)) / 2,
            (0 + 1 * 1) / (0 + 2 * 1),
        ),
    ],
)
def test_worked_example_by_hand(name, two_groups, only_a):
    measure = parse_measure(name)
    assert measure.compute(*TWO_GROUPS).value == two_groups
    assert measure.compute(*ONLY_A).value == only_a
