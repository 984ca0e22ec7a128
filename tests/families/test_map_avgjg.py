"""map_avgjg, average precision averaged over judgment groups (metrics.families.map_avgjg; trec_eval -R qrels_jg)."""

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

NAMES = ["map_avgjg", "AP_avgjg@3"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    """On plain qrels (one group per query) map_avgjg is AP."""
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


@SETTINGS
@given(grouped_runs(), THRESHOLDS)
def test_judgment_groups_equal_readable(data, threshold):
    groups_equal_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: -q -R qrels_jg -m qrels_jg on every judgment-group input of its recorded corpus."""
    assert equals_trec_eval10_groups({"map_avgjg": "map_avgjg"}) > 0


def test_worked_example_by_hand():
    ranking = ["a", "b", "c"]
    groups = {"u1": {"a": 1, "c": 1}, "u2": {"b": 1, "z": 1}, "u3": {"a": 0}}
    # u1: (1/1 + 2/3) / 2; u2: (1/2) / 2 (z never retrieved); u3: nothing relevant, 0; averaged over 3 groups
    value = parse_measure("map_avgjg").compute(ranking, groups).value
    assert value == ((1 / 1 + 2 / 3) / 2 + (1 / 2) / 2 + 0.0) / 3
