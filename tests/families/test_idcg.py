"""IDCG, the ideal ordering's DCG (metrics.families.idcg); trec_eval's ``ideal_dcg`` (uncut, with its gain maps)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics import Conventions, parse_measure
from metrics.families.idcg import idcg
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, equals_trec_eval10, kernel_equals_readable

NAMES = ["IDCG", "IDCG@3", "IDCG_exp@5", "ideal_dcg.1=3,2=9", "IDCG(gains={0:1,2:0.5})@4"]


@SETTINGS
@given(RUNS, THRESHOLDS, st.sampled_from(["all", "retrieved"]))
def test_kernel_equals_readable(data, threshold, ideal):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold, idcg=ideal))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: ideal_dcg asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("ideal_dcg") > 0


def test_gain_map_by_hand():
    """ideal_dcg.2=3.5: level 2 gains 3.5, level 1 its own number, so the ideal ranking is b (3.5) then a (1). With
    ideal_dcg.2=0.5 trec_eval orders the levels by gain but compares gains less than 1 apart as equal
    (gain_init.c's comp_rel_gain): the listed level 2 stays first, level 0 (gain 0) comes just below level 1, and
    the ideal ranking stops there, after a alone (trec_eval 10.0 prints 4.1309 and 1.0000)."""
    qrels = {"a": 1, "b": 2, "c": 0}
    assert parse_measure("ideal_dcg.2=3.5").compute([], qrels).value == 3.5 / math.log2(2) + 1 / math.log2(3)
    assert parse_measure("ideal_dcg.2=0.5").compute([], qrels).value == 1 / math.log2(2)


def test_worked_example_by_hand():
    ranking, qrels = ["d2", "d1"], {"d1": 3, "d2": 2, "d3": 1}  # the ideal: d1, d2, d3
    assert idcg(ranking, qrels).value == pytest.approx(3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4))
    # idcg="retrieved": only the retrieved documents, reordered (scikit-learn's ndcg_score)
    retrieved = Conventions(idcg="retrieved")
    assert idcg(ranking, qrels, conventions=retrieved).value == pytest.approx(3 / math.log2(2) + 2 / math.log2(3))
