"""binG, G, Rndcg and ndcg_rel (metrics.families.gain_measures), trec_eval's experimental gain walks."""

from __future__ import annotations

import math

import pytest
from hypothesis import given

from metrics import Conventions, parse_measure
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval, kernel_equals_readable

NAMES = ["binG", "G", "G(gains={1:0.5,3:2})", "Rndcg", "Rndcg(gains={0:1,2:-1})", "ndcg_rel", "ndcg_rel(gains={2:9})"]
TREC = {"binG": "binG", "G": "G", "Rndcg": "Rndcg", "ndcg_rel": "ndcg_rel"}


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_trec_eval(data, level):
    equals_trec_eval(TREC, *data, level)


def test_binary_g_by_hand():
    ranking, qrels = ["r1", "n", "x", "r2"], {"r1": 1, "r2": 1, "r3": 1, "n": 0}
    # each relevant document counts 1 / log2(2 + the non-relevant ones above it), divided by R = 3
    expected = (1 / math.log2(2 + 0) + 1 / math.log2(2 + 2)) / 3
    assert parse_measure("binG").compute(ranking, qrels).value == pytest.approx(expected)
