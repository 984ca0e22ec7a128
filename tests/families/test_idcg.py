"""IDCG, the ideal ordering's DCG (metrics.families.idcg); trec_eval has no IDCG measure."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics import Conventions
from metrics.families.idcg import idcg
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable

NAMES = ["IDCG", "IDCG@3", "IDCG_exp@5"]


@SETTINGS
@given(RUNS, THRESHOLDS, st.sampled_from(["all", "retrieved"]))
def test_kernel_equals_readable(data, threshold, ideal):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold, idcg=ideal))


def test_worked_example_by_hand():
    ranking, qrels = ["d2", "d1"], {"d1": 3, "d2": 2, "d3": 1}  # the ideal: d1, d2, d3
    assert idcg(ranking, qrels).value == pytest.approx(3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4))
    # idcg="retrieved": only the retrieved documents, reordered (scikit-learn's ndcg_score)
    retrieved = Conventions(idcg="retrieved")
    assert idcg(ranking, qrels, conventions=retrieved).value == pytest.approx(3 / math.log2(2) + 2 / math.log2(3))
