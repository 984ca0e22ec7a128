"""prefs_pair_imp (metrics.families.prefs_pair_imp; trec_eval -R prefs, -R qrels_prefs)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from metrics import Conventions, parse_measure
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval10_prefs,
    kernel_equals_readable,
    preference_runs,
    preferences_equal_readable,
)

NAMES = ["prefs_pair_imp", "prefs_pair_imp@3"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    """On plain qrels: each query one judgment group, its grades the levels."""
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


@SETTINGS
@given(preference_runs(), st.booleans())
def test_preferences_equal_readable(data, complete):
    preferences_equal_readable(NAMES, *data, complete)


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: -q -R prefs (and qrels_prefs) -m all_prefs on every preference input of its
    recorded corpus."""
    assert equals_trec_eval10_prefs({"prefs_pair_imp": "prefs_pair_imp"}) > 0


def test_worked_example_by_hand():
    measure = parse_measure("prefs_pair_imp")
    # u1 prefers a > b, a > c, b > c, all fulfilled (a, b, c ranked in that order); u2 prefers b > a, not fulfilled
    assert (
        measure.compute(["a", "b", "c"], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
        == (1 / 2 + 1 + 1) / 3
    )
    # only a retrieved: a > b and a > c fulfilled by implication (b, c not retrieved), b > c between two unretrieved
    # (b, c) left out
    assert measure.compute(["a"], {"u1": {"a": 2, "b": 1, "c": 0}}).value == (1 + 1) / 2
