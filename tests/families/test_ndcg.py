"""NDCG, with linear and exponential gain and with a gain map (metrics.families.ndcg)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics import Conventions
from metrics.families.ndcg import ndcg
from tests.families.check import (
    RUNS,
    SETTINGS,
    THRESHOLDS,
    equals_trec_eval,
    equals_trec_eval10,
    kernel_equals_readable,
)

NAMES = ["NDCG", "NDCG@3", "NDCG_exp@5", "ndcg.1=3,2=9", "NDCG(gains={0:0.5,1:0.5})@3"]
PYTREC_EVAL = {"NDCG": "ndcg", "NDCG@3": "ndcg_cut_3"}


@SETTINGS
@given(RUNS, THRESHOLDS, st.sampled_from(["all", "retrieved"]))
def test_kernel_equals_readable(data, threshold, ideal):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold, idcg=ideal))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: ndcg, ndcg_cut asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("ndcg") + equals_trec_eval10("ndcg_cut") > 0


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_both_equal_pytrec_eval(data, level):
    """An extra check on generated runs: pytrec_eval (trec_eval 9.0.x)."""
    equals_trec_eval(PYTREC_EVAL, *data, level, {"ndcg_cut.3", "ndcg"})


def test_worked_example_by_hand():
    ranking, qrels = ["d2", "d1"], {"d1": 3, "d2": 2}
    actual, ideal = 2 / math.log2(2) + 3 / math.log2(3), 3 / math.log2(2) + 2 / math.log2(3)
    assert ndcg(ranking, qrels).value == pytest.approx(actual / ideal)
    exp = Conventions(gain="exp")  # 2^g - 1: 3 and 7
    assert ndcg(ranking, qrels, conventions=exp).value == pytest.approx((3 + 7 / math.log2(3)) / (7 + 3 / math.log2(3)))
    # trec_eval ndcg.2=9: level 2 gains 9, level 3 its own 3; the ideal puts the 9 first
    assert ndcg(ranking, qrels, gains=((2, 9.0),)).value == pytest.approx(
        (9 + 3 / math.log2(3)) / (9 + 3 / math.log2(3))
    )
