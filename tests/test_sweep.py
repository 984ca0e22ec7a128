"""at_each_cutoff agrees with trec_eval's golden values at every golden cutoff."""

from __future__ import annotations

from collections import defaultdict

import pytest
from golden import TREC_PUBLIC

from metrics import Conventions, parse_measure
from metrics.teaching.sweep import at_each_cutoff


def _rows():
    """One row per (case, query, measure family and gain): the golden value at each golden k."""
    grouped: dict[tuple, dict[int, float]] = defaultdict(dict)
    for case in TREC_PUBLIC:
        for name, expected in case["expected"].items():
            measure = parse_measure(name)
            if measure.k is None:
                continue
            for query, value in expected["per_query"].items():
                grouped[(case["id"], query, measure.family, measure.gain)][measure.k] = value
    return sorted(grouped.items())


ROWS = _rows()
CASES = {case["id"]: case for case in TREC_PUBLIC}


@pytest.mark.parametrize(("key", "expected_by_k"), ROWS, ids=[":".join(key) for key, _ in ROWS])
def test_sweep_matches_golden(key, expected_by_k):
    case_id, query, family, gain = key
    data = CASES[case_id]["queries"][query]
    values = at_each_cutoff(family, data["ranking"], data["qrels"], max(expected_by_k), Conventions(gain=gain))
    assert len(values) == max(expected_by_k)
    for k, expected in expected_by_k.items():
        assert values[k - 1] == pytest.approx(expected, abs=1e-9), f"k = {k}"


def test_golden_rows_cover_every_family():
    assert {key[2] for key, _ in ROWS} >= {"P", "R", "R_cap", "HitRate", "F1", "RR", "AP", "DCG", "NDCG"}


def test_precision_by_hand():
    assert at_each_cutoff("P", ["a", "x", "b"], {"a": 1, "b": 1}, 4) == pytest.approx([1, 1 / 2, 2 / 3, 2 / 4])


def test_bad_input():
    with pytest.raises(ValueError):
        at_each_cutoff("nope", ["a"], {"a": 1}, 1)
    with pytest.raises(ValueError):
        at_each_cutoff("P", ["a"], {"a": 1}, 0)
