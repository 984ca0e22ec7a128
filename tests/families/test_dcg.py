"""DCG, IDCG and NDCG, with linear and exponential gain and with a gain map (metrics.families.dcg)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics import Conventions, dcg, idcg, ndcg
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval, kernel_equals_readable

NAMES = ["DCG", "DCG@3", "IDCG@3", "NDCG", "NDCG@3", "NDCG_exp@5", "ndcg.1=3,2=9", "NDCG(gains={0:0.5,1:0.5})@3"]


@SETTINGS
@given(RUNS, THRESHOLDS, st.sampled_from(["all", "retrieved"]))
def test_kernel_equals_readable(data, threshold, ideal):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold, idcg=ideal))


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_trec_eval(data, level):
    equals_trec_eval({"NDCG": "ndcg", "NDCG@3": "ndcg_cut_3"}, *data, level, {"ndcg", "ndcg_cut.3"})


def test_worked_example_by_hand():
    ranking, qrels = ["d2", "d1"], {"d1": 3, "d2": 2}
    actual, ideal = 2 / math.log2(2) + 3 / math.log2(3), 3 / math.log2(2) + 2 / math.log2(3)
    assert dcg(ranking, qrels).value == pytest.approx(actual)
    assert idcg(ranking, qrels).value == pytest.approx(ideal)
    assert ndcg(ranking, qrels).value == pytest.approx(actual / ideal)
    exp = Conventions(gain="exp")  # 2^g - 1: 3 and 7
    assert ndcg(ranking, qrels, conventions=exp).value == pytest.approx((3 + 7 / math.log2(3)) / (7 + 3 / math.log2(3)))
    # trec_eval ndcg.2=9: level 2 gains 9, level 3 its own 3; the ideal puts the 9 first
    assert ndcg(ranking, qrels, gains=((2, 9.0),)).value == pytest.approx(
        (9 + 3 / math.log2(3)) / (9 + 3 / math.log2(3))
    )
