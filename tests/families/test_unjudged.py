"""bpref, gm_bpref, infAP, Judged@k and unj@k (metrics.families.unjudged)."""

from __future__ import annotations

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from metrics.engine import evaluate
from metrics.families.bpref import bpref
from metrics.families.judged import judged
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval, kernel_equals_readable

NAMES = ["bpref", "gm_bpref", "infAP", "Judged", "Judged@3", "unj", "unj@5"]


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS)
def test_both_equal_trec_eval(data):
    """bpref and infAP at trec_eval's default level (pytrec_eval has no unj; Judged@k is ir_measures', checked in
    tests/test_catalog_reference.py). A query whose grades are all negative is left out: trec_eval reads past its
    level array there."""
    run, qrels = data
    qrels = {q: g for q, g in qrels.items() if not g or max(g.values()) >= 0}
    equals_trec_eval({"bpref": "bpref", "infAP": "infAP"}, run, qrels)


def test_bpref_and_judged_by_hand():
    ranking, qrels = ["n1", "r1", "x", "n2", "r2"], {"r1": 1, "r2": 1, "r3": 1, "n1": 0, "n2": 0}
    # R = 3, N = 2: r1 has 1 judged non-relevant above it, r2 has 2; bpref = (1/3) * ((1 - 1/2) + (1 - 2/2))
    assert bpref(ranking, qrels).value == pytest.approx((1 / 3) * ((1 - 1 / 2) + (1 - 2 / 2)))
    assert judged(ranking, qrels, 3).value == pytest.approx(2 / 3)  # x has no qrels line


def test_unj_by_hand():
    ranking, qrels = ["a", "x", "u", "b", "y"], {"a": 2, "u": -1, "b": 0}
    assert parse_measure("unj_5").compute(ranking, qrels).value == 3 / 5
    assert parse_measure("unj_10").compute(ranking, qrels).value == 3 / 10  # divides by k
    assert parse_measure("unj_2").compute(ranking, qrels).value == 1 / 2
    assert evaluate({"q": ranking}, {"q": qrels}, ["unj_10"]).per_query["unj_10"].tolist() == [3 / 10]
