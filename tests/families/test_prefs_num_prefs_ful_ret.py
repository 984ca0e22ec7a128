"""prefs_num_prefs_ful_ret (metrics.families.prefs_num_prefs_ful_ret; trec_eval -R prefs, -R qrels_prefs)."""

from __future__ import annotations

from metrics import parse_measure
from tests.families.check import preference_checks

# kernel = readable on qrels and on preferences, both = trec_eval 10.0
test_kernel_equals_readable, test_preferences_equal_readable, test_equals_trec_eval_10 = preference_checks(
    "prefs_num_prefs_ful_ret"
)


def test_worked_example_by_hand():
    measure = parse_measure("prefs_num_prefs_ful_ret")
    # u1 prefers a > b, a > c, b > c, all fulfilled (a, b, c ranked in that order); u2 prefers b > a, not fulfilled
    assert measure.compute(["a", "b", "c"], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value == 3
    # only a retrieved: a > b and a > c fulfilled by implication (b, c not retrieved), b > c between two unretrieved
    assert measure.compute(["a"], {"u1": {"a": 2, "b": 1, "c": 0}}).value == 0
