"""prefs_avgjg_Rnonrel (metrics.families.prefs_avgjg_rnonrel; trec_eval -R prefs, -R qrels_prefs)."""

from __future__ import annotations

from metrics import parse_measure
from tests.families.check import preference_checks

# kernel = readable on qrels and on preferences, both = trec_eval 10.0
test_kernel_equals_readable, test_preferences_equal_readable, test_equals_trec_eval_10 = preference_checks(
    "prefs_avgjg_Rnonrel"
)


def test_worked_example_by_hand():
    measure = parse_measure("prefs_avgjg_Rnonrel")
    # u1 prefers a > b, a > c, b > c, all fulfilled (a, b, c ranked in that order); u2 prefers b > a, not fulfilled
    # u1: R 2, N 1; u2: R 1, N 1
    assert (
        measure.compute(["a", "b", "c"], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
        == ((3 + 2 * 1) / (3 + 2 * 1) + (0 + 1 * 0) / (1 + 1 * 0)) / 2
    )
    # only a retrieved: a > b and a > c fulfilled by implication (b, c not retrieved), b > c between two unretrieved
    # R = 2 (a, b), N = 1 (c): one more fulfilled for a
    assert measure.compute(["a"], {"u1": {"a": 2, "b": 1, "c": 0}}).value == (2 + 1 * 1) / (3 + 2 * 1)
