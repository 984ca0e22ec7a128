"""Wrong answers diagnosed by the metrics library's convention variants; expected values by hand arithmetic."""

from __future__ import annotations

from math import log2

import pytest

from metrics.teaching import diagnosis

# NDCG@3 of d1 (grade 0), d2 (2), d3 (1); d4 (grade 3) was judged but not retrieved.
RANKING = ["d1", "d2", "d3"]
QRELS = {"d1": 0, "d2": 2, "d3": 1, "d4": 3}
DCG = 0 / log2(2) + 2 / log2(3) + 1 / log2(4)
NDCG = DCG / (3 / log2(2) + 2 / log2(3) + 1 / log2(4))  # 0.3700: IDCG from all judged (3, 2, 1)
EXP_GAIN = (3 / log2(3) + 1 / log2(4)) / (7 / log2(2) + 3 / log2(3) + 1 / log2(4))  # 0.2547: 2^g - 1
RETRIEVED_IDCG = DCG / (2 / log2(2) + 1 / log2(3) + 0 / log2(4))  # 0.6697: ideal of (2, 1, 0)
BOTH = (3 / log2(3) + 1 / log2(4)) / (3 / log2(2) + 1 / log2(3))  # 0.6590
CUT_AT_2 = (2 / log2(3)) / (3 / log2(2) + 2 / log2(3))  # 0.2961; at 4 and uncut nothing changes (3 retrieved)


def by_mistake(found):
    return {v.mistake: v for v in found}


def test_ndcg_variants_are_the_other_conventions_and_cutoffs():
    found = by_mistake(diagnosis.variants("NDCG", RANKING, QRELS, 3))
    gain = "exponential gain 2^g − 1 instead of the grade"
    idcg = "IDCG from the retrieved list only (relevant documents it missed left out)"
    assert set(found) == {gain, idcg, f"{gain} and {idcg}", "cut at 2 instead of 3 (off by one)"}
    assert found[gain].value == pytest.approx(EXP_GAIN)
    assert found[idcg].value == pytest.approx(RETRIEVED_IDCG)
    assert found[f"{gain} and {idcg}"].value == pytest.approx(BOTH)
    assert found["cut at 2 instead of 3 (off by one)"].value == pytest.approx(CUT_AT_2)
    assert round(NDCG, 4) == 0.3700 and round(EXP_GAIN, 4) == 0.2547 and round(RETRIEVED_IDCG, 4) == 0.6697


@pytest.mark.parametrize(
    ("answer", "mistake"),
    [
        (0.25, "exponential gain 2^g − 1 instead of the grade"),
        (0.67, "IDCG from the retrieved list only (relevant documents it missed left out)"),
        (0.66, "exponential gain 2^g − 1 instead of the grade and IDCG from the retrieved list only "
               "(relevant documents it missed left out)"),
        (0.30, "cut at 2 instead of 3 (off by one)"),
        (0.37, None),  # right (0.3700 to two places)
        (0.50, None),  # wrong, and no convention explains it
    ],
)  # fmt: skip
def test_an_answer_to_two_places_is_labelled_with_the_mistake_it_matches(answer, mistake):
    found = diagnosis.variants("NDCG", RANKING, QRELS, 3)
    label = diagnosis.diagnose(answer, NDCG, found, decimals=2)
    assert (label.mistake if label else None) == mistake


def test_matching_is_within_the_rounding_of_the_answer():
    found = diagnosis.variants("NDCG", RANKING, QRELS, 3)
    assert diagnosis.diagnose(0.2547, NDCG, found, decimals=4).mistake.startswith("exponential gain")
    assert diagnosis.diagnose(0.2553, NDCG, found, decimals=4) is None  # 0.2547 is 6 units of 1e-4 away
    assert diagnosis.diagnose(0.3698, NDCG, found, decimals=4) is None  # not right either (0.3700), unexplained


def test_ap_over_retrieved_relevant():
    # a (0), b (1), c (0), d (1); e (1) missed. AP = (1/2 + 2/4) / 3; over the 2 retrieved relevant: / 2.
    qrels = {"a": 0, "b": 1, "c": 0, "d": 1, "e": 1}
    found = diagnosis.variants("AP", ["a", "b", "c", "d"], qrels, None)
    assert [(v.mistake, v.value) for v in found] == [
        ("AP divided by the relevant documents retrieved, not by all relevant ones (R)", pytest.approx(0.5))
    ]  # gain and IDCG do not change AP; no cutoff was asked, so none is varied; every grade is 1: no threshold
    label = diagnosis.diagnose(0.5, (1 / 2 + 2 / 4) / 3, found, decimals=2)
    assert label.mistake.startswith("AP divided by the relevant documents retrieved")


def test_threshold_variants_merge_with_same_valued_ones_and_the_simplest_is_named():
    # a (1), b (2), c (0): AP = (1/1 + 2/2) / 2 = 1. With grade >= 2 relevant: (1/2) / 1 = 0.5, which is also what
    # grade >= 2 with AP over retrieved relevant gives (the combination is not named). No grade 3: no threshold 3.
    found = diagnosis.variants("AP", ["a", "b", "c"], {"a": 1, "b": 2, "c": 0}, None)
    assert [(v.mistake, v.value) for v in found] == [
        ("only grades ≥ 2 counted as relevant (the threshold is 1)", pytest.approx(0.5))
    ]


def test_two_single_mistakes_with_one_value_are_both_named():
    # P@2 of x (0), y (1), with z (1) missed: 1/2. At k = 1: 0/1 = 0; at k = 3 (one past): 1/3; uncut is k = 2 too.
    found = diagnosis.variants("P", ["x", "y"], {"x": 0, "y": 1, "z": 1}, 2)
    assert [(v.mistake, v.value) for v in found] == [
        ("cut at 1 instead of 2 (off by one)", 0.0),
        ("cut at 3 instead of 2 (off by one)", pytest.approx(1 / 3)),
    ]


def test_which_ranking_wins_under_each_mistake():
    # NDCG@3 of A = d1, d2, d3 is NDCG above. B = d3, d1, d2: DCG = 1 + 0 + 2/2 = 2 > A's 1.76 (same IDCG): B wins.
    # At k = 2, A: 2/log2(3) = 1.26 > B: 1: so "A" is what the off-by-one cut gives.
    explained = diagnosis.choice_variants("NDCG", RANKING, ["d3", "d1", "d2"], QRELS, 3)
    assert explained == {"A": ["cut at 2 instead of 3 (off by one)"]}
    assert diagnosis.better_choice(0.5, 0.5) == "tie" and diagnosis.better_choice(0.1, 0.2) == "B"


def test_which_of_several_lists_is_best_under_each_mistake():
    # k = 2, grades h 3, a 2, b 2, n 0 (every judged document in both lists' IDCG, so it orders them as DCG does).
    # Linear gain: [h, n] 3 + 0 = 3 < [a, b] 2 + 2/log2(3) = 3.26: the second is right.
    # Exponential gain: 7 + 0 = 7 > 3 + 3/log2(3) = 4.89; cut at 1: 3 > 2: both make the first the best.
    # IDCG from the retrieved list: both 1.0, a tie at the top, which explains no answer.
    qrels = {"h": 3, "a": 2, "b": 2, "n": 0}
    assert 2 + 2 / log2(3) > 3 and 3 + 3 / log2(3) < 7
    explained = diagnosis.best_option_variants("NDCG", [["h", "n"], ["a", "b"], ["n", "h"]], qrels, 2)
    assert explained == {0: ["exponential gain 2^g − 1 instead of the grade", "cut at 1 instead of 2 (off by one)"]}
