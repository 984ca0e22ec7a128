"""Hand-computed cases for every readable metric and convention switch, expected values written as arithmetic.

Where docs/conventions.md records a number observed from trec_eval, the test also checks that number (to 1e-6, the
precision it was printed with).
"""

from __future__ import annotations

import math
from math import log2

import numpy as np
import pytest
from strategies import ZERO_OVER_ZERO

from metrics import (
    FUNCTIONS,
    TREC_EVAL,
    Conventions,
    average_precision,
    capped_recall,
    counted_queries,
    dcg,
    f1,
    gain,
    hit_rate,
    idcg,
    ideal_ranking,
    mean,
    mean_over_queries,
    ndcg,
    parse_measure,
    precision,
    rank_by_score,
    recall,
    reciprocal_rank,
)
from metrics.catalog import registry

EXP = Conventions(gain="exp")
ALL_CONVENTIONS = [
    TREC_EVAL,
    Conventions(threshold=2),
    EXP,
    Conventions(idcg="retrieved"),
    Conventions(ap_denominator="retrieved"),
]
# docs/conventions.md §3.9
NDCG_CASE = (["a", "b", "c", "d", "e", "g"], {"a": 1, "b": 2, "c": 3, "d": 0, "e": 1, "f": 2})
GRADES_32301 = (["d1", "d2", "d3", "d4", "d5"], {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1})
AP_DENOMINATOR = (["z", "r1", "n1", "r2", "n2"], {"z": 0, "r1": 1, "r2": 1, "r3": 1})  # golden seed-000 case


# ---------------------------------------------------------------------------------------------------------
# precision, recall, capped recall, hit rate, F1


def test_precision_divides_by_k_even_beyond_the_list():
    ranking, qrels = ["d1", "d2", "d3"], {"d1": 1, "d3": 2}
    assert precision(ranking, qrels, k=10).value == pytest.approx(2 / 10)
    assert precision(ranking, qrels, k=100).value == pytest.approx(2 / 100)
    assert precision(ranking, qrels, k=2).value == pytest.approx(1 / 2)
    assert precision(ranking, qrels).value == pytest.approx(2 / 3)  # k=None: divide by the list length


def test_precision_with_threshold_2_counts_only_grades_from_2():
    ranking, qrels = ["d1", "d2", "d3"], {"d1": 1, "d3": 2}
    assert precision(ranking, qrels, k=3, conventions=Conventions(threshold=2)).value == pytest.approx(1 / 3)


def test_threshold_2_observed_numbers():
    # docs/conventions.md §4.4 on NDCG_CASE at threshold 2: P_5 0.4, recall_5 0.6667, map 0.388889, recip_rank 0.5
    ranking, qrels = NDCG_CASE
    two = Conventions(threshold=2)
    assert precision(ranking, qrels, 5, conventions=two).value == pytest.approx(2 / 5)
    assert recall(ranking, qrels, 5, conventions=two).value == pytest.approx(2 / 3)
    assert average_precision(ranking, qrels, conventions=two).value == pytest.approx((1 / 2 + 2 / 3) / 3)
    assert average_precision(ranking, qrels, conventions=two).value == pytest.approx(0.388889, abs=1e-6)
    assert reciprocal_rank(ranking, qrels, conventions=two).value == pytest.approx(1 / 2)
    assert hit_rate(ranking, qrels, 1, conventions=two).value == 0.0


def test_recall_divides_by_every_relevant_doc_retrieved_or_not():
    ranking, qrels = ["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}
    assert recall(ranking, qrels, k=10).value == pytest.approx(2 / 3)
    assert recall(ranking, qrels, k=1).value == pytest.approx(1 / 3)
    assert recall(ranking, qrels, k=3, conventions=Conventions(threshold=2)).value == pytest.approx(1 / 1)


def test_capped_recall_divides_by_min_r_k():
    qrels = {f"r{i}": 1 for i in range(1, 8)}  # R = 7
    ranking = ["r1", "r2", "r3", "n1", "n2"]
    assert capped_recall(ranking, qrels, k=5).value == pytest.approx(3 / 5)
    assert recall(ranking, qrels, k=5).value == pytest.approx(3 / 7)
    assert capped_recall(ranking, qrels, k=10).value == pytest.approx(3 / 7)  # min(7, 10)
    assert capped_recall(ranking, qrels).value == pytest.approx(3 / 5)  # k=None caps at the list length
    assert capped_recall(["r1", "n1"], {"r1": 1}, k=5).value == pytest.approx(1 / 1)


def test_capped_recall_seed004_example_with_8_relevant():
    # docs/conventions.md §3.3: relevant at ranks 1,2,3,6,7,8,10 plus an 8th never retrieved
    ranking = ["r1", "r2", "r3", "n1", "n2", "r4", "r5", "r6", "n3", "r7"]
    qrels = {f"r{i}": 1 for i in range(1, 9)}
    assert recall(ranking, qrels, 5).value == pytest.approx(3 / 8)
    assert capped_recall(ranking, qrels, 5).value == pytest.approx(3 / 5)
    assert capped_recall(ranking, qrels, 10).value == pytest.approx(7 / 8)


def test_hit_rate_is_one_once_a_relevant_doc_is_in_the_top_k():
    ranking, qrels = ["x", "y", "a"], {"a": 1}
    assert hit_rate(ranking, qrels, k=2).value == 0.0
    assert hit_rate(ranking, qrels, k=3).value == 1.0
    assert hit_rate(ranking, qrels).value == 1.0
    steps = hit_rate(["a", "b"], {"a": 1, "b": 1}).steps
    assert [s.contribution for s in steps] == [1.0, 0.0]  # only the first hit counts


def test_f1_is_harmonic_mean_of_p_at_k_and_r_at_k():
    ranking, qrels = ["a", "x", "b"], {"a": 1, "b": 1, "c": 1, "d": 1}
    p, r = 2 / 3, 2 / 4
    assert f1(ranking, qrels, k=3).value == pytest.approx(2 * p * r / (p + r))
    assert f1(ranking, qrels, k=3).value == pytest.approx(4 / 7)
    # k beyond the list: P@10 = 2/10
    p10 = 2 / 10
    assert f1(ranking, qrels, k=10).value == pytest.approx(2 * p10 * r / (p10 + r))
    # running F1 with the divisor fixed at k = 3: rank 1 has P = 1/3, R = 1/4
    first = 2 * (1 / 3) * (1 / 4) / (1 / 3 + 1 / 4)
    assert [s.running for s in f1(ranking, qrels, k=3).steps] == pytest.approx([first, first, 4 / 7])
    assert f1(["x"], {"a": 1}, k=1).value == 0.0


# ---------------------------------------------------------------------------------------------------------
# reciprocal rank and average precision


def test_reciprocal_rank_and_its_cutoff():
    assert reciprocal_rank(["x", "a", "b"], {"a": 1, "b": 1}).value == pytest.approx(1 / 2)
    assert reciprocal_rank(["x", "a", "b"], {"a": 1, "b": 1}, k=1).value == 0.0
    assert reciprocal_rank(["x", "y", "a"], {"a": 1}, k=3).value == pytest.approx(1 / 3)
    assert reciprocal_rank(["x", "a", "b"], {"a": 1, "b": 2}, conventions=Conventions(threshold=2)).value == (
        pytest.approx(1 / 3)
    )


def test_average_precision_divides_by_all_relevant_in_qrels():
    ranking, qrels = AP_DENOMINATOR
    assert average_precision(ranking, qrels).value == pytest.approx((1 / 2 + 2 / 4) / 3)
    assert average_precision(ranking, qrels).value == pytest.approx(0.3333, abs=1e-4)
    assert average_precision(ranking, qrels, k=3).value == pytest.approx((1 / 2) / 3)


def test_average_precision_over_retrieved_relevant_divides_by_hits():
    ranking, qrels = AP_DENOMINATOR
    retrieved = Conventions(ap_denominator="retrieved")
    assert average_precision(ranking, qrels, conventions=retrieved).value == pytest.approx((1 / 2 + 2 / 4) / 2)
    assert average_precision(ranking, qrels, conventions=retrieved).value == pytest.approx(0.5)
    assert average_precision(ranking, qrels, k=3, conventions=retrieved).value == pytest.approx((1 / 2) / 1)
    assert average_precision(["n1"], qrels, conventions=retrieved).value == 0.0  # no hit: 0, not NaN


def test_ap_at_k_keeps_dividing_by_r_not_min_k_r():
    ranking, qrels = ["r0", "n1", "r1", "r2", "n2"], {f"r{i}": 1 for i in range(10)}
    assert average_precision(ranking, qrels, k=3).value == pytest.approx((1 + 2 / 3) / 10)
    assert average_precision(ranking, qrels, k=5).value == pytest.approx((1 + 2 / 3 + 3 / 4) / 10)
    assert average_precision(ranking, qrels).value == pytest.approx(0.241667, abs=1e-6)


def test_unjudged_docs_observed_numbers():
    # docs/conventions.md §4.6: P_5 0.4, map 0.325, recip_rank 0.25, ndcg_cut_5 0.501266
    ranking, qrels = ["x", "a", "y", "b", "c"], {"a": 0, "b": 1, "c": 1}
    assert precision(ranking, qrels, 5).value == pytest.approx(2 / 5)
    assert average_precision(ranking, qrels).value == pytest.approx((1 / 4 + 2 / 5) / 2)
    assert reciprocal_rank(ranking, qrels).value == pytest.approx(1 / 4)
    expected = (1 / log2(5) + 1 / log2(6)) / (1 + 1 / log2(3))
    assert ndcg(ranking, qrels, 5).value == pytest.approx(expected)
    assert expected == pytest.approx(0.501266, abs=1e-6)


def test_negative_grades_observed_numbers():
    # docs/conventions.md §4.5: P_5 0.4, recall_5 1, map 0.583333, ndcg_cut_5 0.619906, recip_rank 0.5
    ranking, qrels = ["a", "b", "c", "d", "e"], {"a": -1, "b": 1, "c": 2, "d": -2, "e": 0}
    assert precision(ranking, qrels, 5).value == pytest.approx(2 / 5)
    assert recall(ranking, qrels, 5).value == pytest.approx(2 / 2)
    assert average_precision(ranking, qrels).value == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert reciprocal_rank(ranking, qrels).value == pytest.approx(1 / 2)
    expected = (1 / log2(3) + 2 / log2(4)) / (2 + 1 / log2(3))
    assert ndcg(ranking, qrels, 5).value == pytest.approx(expected)
    assert expected == pytest.approx(0.619906, abs=1e-6)
    assert [s.grade for s in ndcg(ranking, qrels, 5).steps] == [-1, 1, 2, -2, 0]
    assert ndcg(ranking, qrels, 5).steps[0].contribution == 0.0  # no negative gain


# ---------------------------------------------------------------------------------------------------------
# DCG, IDCG, NDCG


def test_gain_linear_and_exponential():
    assert gain(3) == 3.0
    assert gain(3, "exp") == 2**3 - 1
    assert gain(0) == gain(-1) == gain(-1, "exp") == 0.0


def test_dcg_of_32301_linear_and_exponential():
    ranking, qrels = GRADES_32301
    assert dcg(ranking, qrels, k=4).value == pytest.approx(3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5))
    assert dcg(ranking, qrels, k=4).value == pytest.approx(5.7619, abs=1e-4)
    assert dcg(ranking, qrels, k=4, conventions=EXP).value == pytest.approx(7 / log2(2) + 3 / log2(3) + 7 / log2(4))
    assert dcg(ranking, qrels, k=4, conventions=EXP).value == pytest.approx(12.3928, abs=1e-4)
    assert dcg(ranking, qrels).value == pytest.approx(3 + 2 / log2(3) + 3 / 2 + 1 / log2(6))


def test_ndcg_of_32301_linear_vs_exponential():
    ranking, qrels = GRADES_32301
    linear_ideal = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
    assert ndcg(ranking, qrels, 5).value == pytest.approx((3 + 2 / log2(3) + 3 / 2 + 1 / log2(6)) / linear_ideal)
    assert ndcg(ranking, qrels, 5).value == pytest.approx(0.972364, abs=1e-6)
    exp_ideal = 7 + 7 / log2(3) + 3 / log2(4) + 1 / log2(5)
    assert ndcg(ranking, qrels, 5, conventions=EXP).value == pytest.approx(
        (7 + 3 / log2(3) + 7 / 2 + 1 / log2(6)) / exp_ideal
    )
    assert ndcg(ranking, qrels, 5, conventions=EXP).value == pytest.approx(0.957478, abs=1e-6)


def test_idcg_uses_every_judged_doc_and_ignores_the_threshold():
    ranking, qrels = ["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}
    assert idcg(ranking, qrels, k=10).value == pytest.approx(2 / log2(2) + 1 / log2(3) + 1 / log2(4))
    assert idcg(ranking, qrels, k=1).value == pytest.approx(2.0)
    assert ideal_ranking(ranking, qrels) == ["b", "a", "z"]  # grade descending, equal grades by doc id
    assert ideal_ranking(ranking, qrels, conventions=Conventions(idcg="retrieved")) == ["b", "a"]
    assert idcg(ranking, qrels, k=10, conventions=Conventions(threshold=3)).value == idcg(ranking, qrels, k=10).value


def test_ndcg_ignores_the_threshold_like_trec_eval():
    ranking, qrels = NDCG_CASE
    dcg5 = 1 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)
    idcg5 = 3 / log2(2) + 2 / log2(3) + 2 / log2(4) + 1 / log2(5) + 1 / log2(6)
    for level in (1, 2, 3):
        value = ndcg(ranking, qrels, 5, conventions=Conventions(threshold=level)).value
        assert value == pytest.approx(dcg5 / idcg5)
        assert value == pytest.approx(0.682423, abs=1e-6)


def test_idcg_from_all_qrels_vs_from_the_retrieved_list():
    ranking, qrels = GRADES_32301[0], GRADES_32301[1] | {"d9": 3}
    dcg5 = 3 + 2 / log2(3) + 3 / log2(4) + 1 / log2(6)
    all_ideal = 3 + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 1 / log2(6)
    retrieved_ideal = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
    assert ndcg(ranking, qrels, 5).value == pytest.approx(dcg5 / all_ideal)
    assert ndcg(ranking, qrels, 5).value == pytest.approx(0.804700, abs=1e-6)
    retrieved = Conventions(idcg="retrieved")
    assert ndcg(ranking, qrels, 5, conventions=retrieved).value == pytest.approx(dcg5 / retrieved_ideal)
    assert ndcg(ranking, qrels, 5, conventions=retrieved).value == pytest.approx(0.972364, abs=1e-6)


def test_ndcg_better_auth_linear_and_exponential():
    ranking, qrels = ["A", "B", "C"], {"A": 1, "B": 3, "C": 2}
    linear = (1 + 3 / log2(3) + 2 / log2(4)) / (3 + 2 / log2(3) + 1 / log2(4))
    exponential = (1 + 7 / log2(3) + 3 / log2(4)) / (7 + 3 / log2(3) + 1 / log2(4))
    assert ndcg(ranking, qrels, 3).value == pytest.approx(linear)
    assert ndcg(ranking, qrels, 3, conventions=EXP).value == pytest.approx(exponential)
    assert (round(linear, 4), round(exponential, 4)) == (0.8175, 0.7364)


def test_k_beyond_the_list():
    ranking, qrels = ["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}
    expected = (1 + 2 / log2(3)) / (2 + 1 / log2(3) + 1 / log2(4))
    for k in (10, 100, None):
        assert ndcg(ranking, qrels, k).value == pytest.approx(expected)
    assert expected == pytest.approx(0.722424, abs=1e-6)
    assert recall(ranking, qrels, 100).value == recall(ranking, qrels, 3).value
    assert average_precision(ranking, qrels, 100).value == average_precision(ranking, qrels).value
    assert hit_rate(ranking, qrels, 100).value == 1.0
    assert len(ndcg(ranking, qrels, 100).steps) == 3


# ---------------------------------------------------------------------------------------------------------
# zeros: R = 0 and empty rankings


# Not about relevance: how much was judged (Judged, unj), what is unjudged (RBP_resid), the cost of non-relevant
# documents retrieved (utility's b).
NOT_ABOUT_RELEVANCE = {"Judged", "unj", "RBP_resid", "utility"}


@pytest.mark.parametrize(
    "family",
    sorted(f.key for f in registry.FAMILIES if f.kind != "count" and f.key not in NOT_ABOUT_RELEVANCE | ZERO_OVER_ZERO),
)
@pytest.mark.parametrize(
    "conventions", ALL_CONVENTIONS, ids=lambda c: f"L{c.threshold}-{c.gain}-{c.idcg}-{c.ap_denominator}"
)
def test_no_relevant_doc_gives_zero_not_nan(family, conventions):
    """Judgments all 0, only negative, or none at all; at every cutoff."""
    for qrels in ({"a": 0, "b": 0}, {"x": -1}, {}):
        for k in (None, 1, 5):
            value = FUNCTIONS[family](["a", "b", "c"], qrels, k, conventions=conventions).value
            assert value == 0.0 and not math.isnan(value), (qrels, k, value)


@pytest.mark.parametrize("family", ["P", "R", "R_cap", "HitRate", "F1", "RR", "AP"])
def test_threshold_above_every_grade_gives_zero_for_binary_metrics(family):
    value = FUNCTIONS[family](["a", "b"], {"a": 1, "b": 2}, 2, conventions=Conventions(threshold=3)).value
    assert value == 0.0


# from the judgments alone: the ideal, R, the query, the preferences stated (possible whatever was retrieved); YAAP's
# empty list scores log(1 / (1 + R)) (tests/families/test_yaap.py)
@pytest.mark.parametrize("family", sorted(set(FUNCTIONS) - {"IDCG", "NumRel", "NumQ", "prefs_num_prefs_poss", "YAAP"}))
@pytest.mark.parametrize("k", [None, 3])
def test_empty_ranking_scores_zero_with_no_steps(family, k):
    result = FUNCTIONS[family]([], {"a": 1, "b": 2}, k)
    assert result.value == 0.0
    assert result.steps == ()


def test_idcg_of_an_empty_ranking_is_still_the_ideal():
    assert idcg([], {"a": 1, "b": 2}, 3).value == pytest.approx(2 + 1 / log2(3))
    assert ndcg([], {"a": 1, "b": 2}, 3).terms == {"DCG": 0.0, "IDCG": pytest.approx(2 + 1 / log2(3))}


# ---------------------------------------------------------------------------------------------------------
# input checks


@pytest.mark.parametrize("family", sorted(FUNCTIONS))
@pytest.mark.parametrize("bad_k", [0, -1, 2.5, "3", True, False, 3.0])
def test_bad_k_raises_a_clear_value_error(family, bad_k):
    with pytest.raises(ValueError, match=r"k must be a positive integer or None"):
        FUNCTIONS[family](["a", "b"], {"a": 1}, bad_k)


@pytest.mark.parametrize("family", sorted(FUNCTIONS))
def test_numpy_integer_k_is_accepted(family):
    metric = FUNCTIONS[family]
    assert metric(["a", "b"], {"a": 1}, np.int64(1)).value == metric(["a", "b"], {"a": 1}, 1).value


@pytest.mark.parametrize("family", sorted(FUNCTIONS))
def test_duplicate_doc_raises_naming_both_ranks(family):
    with pytest.raises(ValueError, match=r"'a' appears twice in the ranking, at ranks 1 and 3"):
        FUNCTIONS[family](["a", "b", "a"], {"a": 1}, 5)


def test_duplicate_beyond_the_cutoff_is_still_rejected():
    # trec_eval aborts on any duplicate in the run, not just within k
    with pytest.raises(ValueError, match=r"ranks 2 and 4"):
        precision(["x", "a", "b", "a"], {"a": 1}, 1)


@pytest.mark.parametrize("family", sorted(FUNCTIONS))
@pytest.mark.parametrize("grade", [0.5, 1.0, True, "1", None])
def test_non_integer_grade_raises_and_says_how_to_map(family, grade):
    with pytest.raises(ValueError, match=r"grades must be integers. Map scores explicitly") as error:
        FUNCTIONS[family](["a"], {"a": grade}, 1)
    assert "1 if score >= 0.5 else 0" in str(error.value)
    assert "'a'" in str(error.value)


def test_numpy_integer_grades_are_accepted():
    assert precision(["a"], {"a": np.int64(1)}, 1).value == 1.0


@pytest.mark.parametrize("family", sorted(FUNCTIONS))
def test_ranking_given_as_a_string_raises(family):
    with pytest.raises(ValueError, match=r"sequence of doc ids, not a single string"):
        FUNCTIONS[family]("abc", {"a": 1}, 2)


def test_non_string_doc_id_raises_with_its_rank():
    with pytest.raises(ValueError, match=r"doc ids must be strings; rank 2 holds 7"):
        recall(["a", 7], {"a": 1})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"threshold": -1}, "threshold must be an integer >= 0"),
        ({"threshold": 1.5}, "threshold must be an integer >= 0"),
        ({"threshold": True}, "threshold must be an integer >= 0"),
        ({"threshold": "2"}, "threshold must be an integer >= 0"),
        ({"gain": "log"}, "gain must be 'linear' or 'exp'"),
        ({"gain": "exponential"}, "gain must be 'linear' or 'exp'"),
        ({"idcg": "ideal"}, "idcg must be 'all' or 'retrieved'"),
        ({"ap_denominator": "R"}, "ap_denominator must be 'all' or 'retrieved'"),
    ],
)
def test_conventions_reject_bad_values(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Conventions(**kwargs)


def test_default_conventions_are_trec_evals():
    assert Conventions() == TREC_EVAL
    t = TREC_EVAL
    assert (t.threshold, t.gain, t.idcg, t.ap_denominator) == (1, "linear", "all", "all")


# ---------------------------------------------------------------------------------------------------------
# measure names


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("P@5", "P@5"),
        ("p@5", "P@5"),
        ("R@100", "R@100"),
        ("R_cap@100", "R_cap@100"),
        ("r_CAP@10", "R_cap@10"),
        ("HitRate@3", "HitRate@3"),
        ("hitrate@3", "HitRate@3"),
        ("F1@10", "F1@10"),
        ("RR", "RR"),
        ("rr", "RR"),
        ("MRR", "RR"),
        ("RR@10", "RR@10"),
        ("AP", "AP"),
        ("AP@10", "AP@10"),
        ("DCG@5", "DCG@5"),
        ("IDCG@5", "IDCG@5"),
        ("NDCG@10", "NDCG@10"),
        ("nDCG@10", "NDCG@10"),
        ("ndcg@10", "NDCG@10"),
        ("DCG_exp@5", "DCG_exp@5"),
        ("NDCG_exp@5", "NDCG_exp@5"),
        ("ndcg_EXP@5", "NDCG_exp@5"),
        ("P_10", "P@10"),
        ("P.5", "P@5"),
        ("recall_100", "R@100"),
        ("map", "AP"),
        ("map_cut_10", "AP@10"),
        ("recip_rank", "RR"),
        ("ndcg_cut_10", "NDCG@10"),
        ("ndcg_cut.10", "NDCG@10"),
        ("ndcg", "NDCG"),
        ("success_10", "HitRate@10"),
        ("  P@5  ", "P@5"),
    ],
)
def test_parse_measure_accepts_every_spelling(text, canonical):
    measure = parse_measure(text)
    assert measure.canonical == canonical
    assert measure.name == text.strip()


def test_parsed_measure_fields_and_compute():
    measure = parse_measure("NDCG_exp@3")
    assert (measure.family, measure.k, measure.gain) == ("NDCG", 3, "exp")
    ranking, qrels = ["A", "B", "C"], {"A": 1, "B": 3, "C": 2}
    assert measure.compute(ranking, qrels).value == ndcg(ranking, qrels, 3, conventions=EXP).value
    assert measure.compute(ranking, qrels).metric == "NDCG_exp@3"
    # the gain of a name applies only to graded families; P ignores it
    assert parse_measure("P@2").compute(ranking, qrels, EXP).metric == "P@2"
    assert parse_measure("map").compute(ranking, qrels, Conventions(threshold=2)).value == pytest.approx(
        (1 / 2 + 2 / 3) / 2  # relevant at threshold 2: B (rank 2) and C (rank 3)
    )


@pytest.mark.parametrize("text", ["foo", "precision_at_10", "ndcg_cut_x", "P10", "MAP@", "", "P@@5"])
def test_parse_measure_rejects_unknown_names(text):
    with pytest.raises(ValueError, match=r"unknown measure|cutoff after the name must be a positive integer"):
        parse_measure(text)


def test_unknown_measure_message_lists_the_known_names():
    with pytest.raises(ValueError, match=r"unknown measure 'foo'; known: P@k, R@k.*ndcg_cut_10"):
        parse_measure("foo")


@pytest.mark.parametrize("text", ["P@0", "P_0", "ndcg_cut_0", "NDCG@-1", "P_-1", "RR@x", "AP@1.5", "P@"])
def test_parse_measure_rejects_bad_cutoffs(text):
    with pytest.raises(ValueError, match=r"the cutoff after the name must be a positive integer"):
        parse_measure(text)


@pytest.mark.parametrize("text", ["map_cut", "ndcg_cut"])
def test_trec_cut_measures_need_a_cutoff(text):
    with pytest.raises(ValueError, match=rf"needs a cutoff, e.g. {text}_10"):
        parse_measure(text)


# ---------------------------------------------------------------------------------------------------------
# Breakdown: labels, terms, steps


@pytest.mark.parametrize(
    ("call", "label"),
    [
        (lambda r, q: precision(r, q, 5), "P@5"),
        (lambda r, q: recall(r, q, 100), "R@100"),
        (lambda r, q: capped_recall(r, q, 10), "R_cap@10"),
        (lambda r, q: hit_rate(r, q, 1), "HitRate@1"),
        (lambda r, q: f1(r, q, 3), "F1@3"),
        (lambda r, q: reciprocal_rank(r, q), "RR"),
        (lambda r, q: reciprocal_rank(r, q, 10), "RR@10"),
        (lambda r, q: average_precision(r, q), "AP"),
        (lambda r, q: average_precision(r, q, 3), "AP@3"),
        (lambda r, q: dcg(r, q, 4), "DCG@4"),
        (lambda r, q: dcg(r, q, 4, conventions=EXP), "DCG_exp@4"),
        (lambda r, q: idcg(r, q, 4), "IDCG@4"),
        (lambda r, q: ndcg(r, q, 5), "NDCG@5"),
        (lambda r, q: ndcg(r, q), "NDCG"),
        (lambda r, q: ndcg(r, q, 5, conventions=EXP), "NDCG_exp@5"),
        (lambda r, q: precision(r, q, 5, conventions=EXP), "P@5"),
    ],
)
def test_breakdown_metric_label(call, label):
    assert call(*GRADES_32301).metric == label


def test_breakdown_terms():
    ranking, qrels = GRADES_32301
    assert precision(ranking, qrels, 10).terms == {"hits": 4, "k": 10}
    assert recall(ranking, qrels, 3).terms == {"hits": 3, "R": 4}
    assert capped_recall(ranking, qrels, 3).terms == {"hits": 3, "R": 4, "min(R, k)": 3}
    assert hit_rate(ranking, qrels, 3).terms == {"hits": 3}
    assert f1(ranking, qrels, 3).terms == pytest.approx({"hits": 3, "P": 3 / 3, "R@k": 3 / 4, "R": 4})
    assert reciprocal_rank(["x", "d2"], qrels).terms == {"first relevant rank": 2}
    assert reciprocal_rank(["x"], qrels).terms == {}
    assert average_precision(ranking, qrels, 4).terms == pytest.approx(
        {"sum of P@i": 1 + 2 / 2 + 3 / 3, "R": 4, "hits": 3, "denominator": 4}
    )
    assert dcg(ranking, qrels, 1).terms == {"DCG": 3.0}
    assert idcg(ranking, qrels, 2).terms == pytest.approx({"IDCG": 3 + 3 / log2(3)})
    assert ndcg(ranking, qrels, 2).terms == pytest.approx({"DCG": 3 + 2 / log2(3), "IDCG": 3 + 3 / log2(3)})


def test_breakdown_records_family_k_and_conventions():
    two = Conventions(threshold=2)
    result = recall(["a"], {"a": 2}, 3, conventions=two)
    assert (result.family, result.k, result.conventions) == ("R", 3, two)
    assert precision(["a"], {"a": 1}).conventions is TREC_EVAL


@pytest.mark.parametrize("family", sorted(set(FUNCTIONS) - {"IDCG", "NumQ"}))  # num_q counts the query, not ranks
@pytest.mark.parametrize("k", [1, 3, 5, 10, None])
def test_one_step_per_rank_up_to_min_k_n(family, k):
    ranking, qrels = ["d1", "x", "d3", "d4", "d5"], {"d1": 3, "d3": 2, "d4": 0, "d5": 1}
    steps = FUNCTIONS[family](ranking, qrels, k).steps
    n = len(ranking) if k is None else min(k, len(ranking))
    assert [s.rank for s in steps] == list(range(1, n + 1))
    assert [s.doc_id for s in steps] == ranking[:n]
    assert [s.grade for s in steps] == [3, 0, 2, 0, 1][:n]  # unjudged 'x' has grade 0
    assert [s.relevant for s in steps] == [True, False, True, False, True][:n]


def test_idcg_steps_walk_the_ideal_ranking():
    steps = idcg(["x"], {"a": 1, "b": 3, "c": 2, "d": 0}, 2).steps
    assert [(s.doc_id, s.grade) for s in steps] == [("b", 3), ("c", 2)]
    assert [s.contribution for s in steps] == pytest.approx([3 / log2(2), 2 / log2(3)])


def test_ap_steps_hold_precision_at_each_relevant_rank_over_r():
    ranking, qrels = AP_DENOMINATOR
    steps = average_precision(ranking, qrels).steps
    assert [s.contribution for s in steps] == pytest.approx([0, (1 / 2) / 3, 0, (2 / 4) / 3, 0])
    assert [s.running for s in steps] == pytest.approx([0, 1 / 6, 1 / 6, 1 / 3, 1 / 3])


# ---------------------------------------------------------------------------------------------------------
# ranking by score and means over queries


def test_rank_by_score_breaks_ties_by_docno_descending_in_byte_order():
    scores = dict.fromkeys(["b", "a", "d", "c", "doc10", "doc9", "D1"], 0.5)  # docs/conventions.md §1, observed
    assert rank_by_score(scores) == ["doc9", "doc10", "d", "c", "b", "a", "D1"]
    assert rank_by_score({"low": 0.1, "high": 0.9, "mid": 0.5}) == ["high", "mid", "low"]
    assert rank_by_score({}) == []


def test_mean_over_queries_follows_trec_evals_query_rule():
    run = {"q1": ["a", "b"], "q2": ["c", "d"], "q3": ["e"], "q5": []}
    qrels = {"q1": {"b": 1}, "q2": {"c": 1}, "q4": {"z": 1}, "q5": {"y": 1}, "q6": {}}
    result = mean_over_queries(reciprocal_rank, run, qrels)
    assert result.per_query == {"q1": 1 / 2, "q2": 1 / 1, "q5": 0.0}  # q5: empty ranking, scored 0
    assert result.mean == pytest.approx((1 / 2 + 1 + 0) / 3)
    assert result.run_only == ("q3",)
    assert result.qrels_only == ("q4",)  # q6 has no qrels lines: it does not exist
    complete = mean_over_queries(reciprocal_rank, run, qrels, complete=True)
    assert complete.per_query == {"q1": 1 / 2, "q2": 1.0, "q4": 0.0, "q5": 0.0}
    assert complete.mean == pytest.approx((1 / 2 + 1 + 0 + 0) / 4)


def test_all_zero_qrels_query_counts_in_the_mean():
    # docs/conventions.md §4.1: q1 {a:0,b:0} scores 0 and counts; q2 {x:1} ranked [y, x] has map 0.5
    run, qrels = {"q1": ["a", "b"], "q2": ["y", "x"]}, {"q1": {"a": 0, "b": 0}, "q2": {"x": 1}}
    assert mean_over_queries(average_precision, run, qrels).mean == pytest.approx((0 + 1 / 2) / 2)
    assert counted_queries(list(run), qrels) == (["q1", "q2"], (), ())


def test_mean_adds_in_order_as_trec_eval_and_is_zero_when_empty():
    assert mean([]) == 0.0
    # trec_eval adds in double, one value after the other: 0.1 ten times is 0.9999999999999999, / 10
    assert mean([0.1] * 10) == 0.09999999999999999
    assert mean([1e16, 1.0, -1e16]) == 0.0  # 1e16 + 1.0 rounds back to 1e16 in double
