"""DCG, linear and exponential gain (metrics.families.dcg); trec_eval has no plain DCG measure."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics import Conventions
from metrics.families.dcg import dcg
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable

NAMES = ["DCG", "DCG@3", "DCG_exp@5"]


@SETTINGS
@given(RUNS, THRESHOLDS, st.sampled_from(["all", "retrieved"]))
def test_kernel_equals_readable(data, threshold, ideal):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold, idcg=ideal))


def test_worked_example_by_hand():
    ranking, qrels = ["d2", "d1"], {"d1": 3, "d2": 2}
    assert dcg(ranking, qrels).value == pytest.approx(2 / math.log2(2) + 3 / math.log2(3))
    exp = Conventions(gain="exp")  # 2^g - 1: 3 and 7
    assert dcg(ranking, qrels, conventions=exp).value == pytest.approx(3 / math.log2(2) + 7 / math.log2(3))
