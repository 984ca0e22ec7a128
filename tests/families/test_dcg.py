"""DCG, linear and exponential gain (metrics.families.dcg); trec_eval's ``dcg`` (uncut, with its gain maps)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics import Conventions, parse_measure
from metrics.families.dcg import dcg
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval10, kernel_equals_readable

NAMES = ["DCG", "DCG@3", "DCG_exp@5", "dcg.1=3,2=9", "DCG(gains={0:1,2:0.5})@4"]


@SETTINGS
@given(RUNS, THRESHOLDS, st.sampled_from(["all", "retrieved"]))
def test_kernel_equals_readable(data, threshold, ideal):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold, idcg=ideal))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: dcg asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("dcg") > 0


def test_gain_map_by_hand():
    """dcg.1=3: level 1 gains 3, level 2 its own number, an unjudged document 0 (m_ndcg.c, gain_init.c)."""
    ranking, qrels = ["a", "x", "b"], {"a": 1, "b": 2}
    value = parse_measure("dcg.1=3").compute(ranking, qrels).value
    assert value == 3 / math.log2(2) + 2 / math.log2(4)


def test_worked_example_by_hand():
    ranking, qrels = ["d2", "d1"], {"d1": 3, "d2": 2}
    assert dcg(ranking, qrels).value == pytest.approx(2 / math.log2(2) + 3 / math.log2(3))
    exp = Conventions(gain="exp")  # 2^g - 1: 3 and 7
    assert dcg(ranking, qrels, conventions=exp).value == pytest.approx(3 / math.log2(2) + 7 / math.log2(3))
