"""ir_metrics_lab.core.lessons.conventions_table: each split's two numbers on known cases (golden files, pytrec_eval or
hand arithmetic); ir_metrics_lab.core.lessons.errata's values."""

from __future__ import annotations

import dataclasses
from math import log2

import pytest
from golden import PUBLIC, TIES

from ir_metrics_lab.core.lessons import convention_examples
from ir_metrics_lab.core.lessons import conventions_table as ct
from ir_metrics_lab.core.lessons.errata import errata
from ir_metrics_lab.core.scenario import Scenario
from metrics.core.conventions import Conventions

TOL = 1e-4  # the page shows 4 decimals; golden values are compared at 1e-9 where exact


def golden(case_id: str, measure: str, cases=PUBLIC) -> float:
    case = next(c for c in cases if c["id"] == case_id)
    return case["expected"][measure]["mean"]


def values(split: ct.Split) -> list[float]:
    return [way.value for way in split.ways]


def graded(**conventions) -> Scenario:
    scn = Scenario(("d1", "d2", "d3", "d4", "d5"), (), {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}, k=5)
    return scn.with_settings(conventions=Conventions(**conventions))


def test_idcg_seed001_all_vs_retrieved():
    scn = graded().with_doc("d9", grade=3, on_shelf=True)
    every, retrieved = values(ct.split_idcg(scn))
    assert every == pytest.approx(golden("pub-seed001-idcg-from-all-qrels", "NDCG@5"), abs=1e-9)
    assert every == pytest.approx(0.8047, abs=TOL)
    assert retrieved == pytest.approx(golden("pub-seed001-rel-32301", "NDCG@5"), abs=1e-9)  # 0.9724
    assert ct.split_idcg(scn).differs


def test_gain_linear_vs_exp_for_32301():
    linear, exp = values(ct.split_gain(graded()))
    assert linear == pytest.approx(golden("pub-seed001-rel-32301", "NDCG@5"), abs=1e-9)
    assert exp == pytest.approx(golden("pub-seed001-rel-32301", "NDCG_exp@5"), abs=1e-9)
    assert (round(linear, 4), round(exp, 4)) == (0.9724, 0.9575)


def test_ap_denominator_seed000():
    by_r, by_retrieved = values(ct.split_ap_denominator(convention_examples.example_ap_denominator()))
    assert by_r == pytest.approx(golden("pub-seed000-ap-denominator", "AP"), abs=1e-9)  # 0.3333
    assert by_retrieved == pytest.approx((1 / 2 + 2 / 4) / 2, abs=1e-9)  # 0.5


def test_ap_at_3_with_R_10():
    by_r, by_min = values(ct.split_ap_at_k(convention_examples.example_ap_at_k()))
    assert by_r == pytest.approx((1 + 2 / 3) / 10, abs=1e-9)  # trec map_cut_3 = 0.1667
    assert by_min == pytest.approx((1 + 2 / 3) / 3, abs=1e-9)  # min(R, k) = 3: 0.5556


def test_threshold_and_ndcg():
    base = convention_examples.example_threshold()
    dcg5 = 1 + 2 / log2(3) + 3 / log2(4) + 0 + 1 / log2(6)
    idcg5 = 3 + 2 / log2(3) + 2 / log2(4) + 1 / log2(5) + 1 / log2(6)
    for threshold in (1, 2, 3):
        scn = base.with_settings(conventions=dataclasses.replace(base.conventions, threshold=threshold))
        trec, _ = values(ct.split_threshold(scn))
        assert trec == pytest.approx(dcg5 / idcg5, abs=1e-9)
        assert trec == pytest.approx(0.682423, abs=1e-6)
    _, ranx_l2 = values(ct.split_threshold(base))  # threshold 2: a and e dropped
    assert ranx_l2 == pytest.approx((2 / log2(3) + 3 / log2(4)) / (3 + 2 / log2(3) + 2 / log2(4)), abs=1e-9)
    assert ranx_l2 == pytest.approx(0.524883, abs=1e-6)


def test_ties_golden_pair():
    case = next(c for c in TIES if c["id"] == "tie-relevant-vs-nonrelevant-pair")
    split = ct.split_ties(convention_examples.example_tie_pair())
    trec_way, insertion, ascending = split.ways
    assert trec_way.value == pytest.approx(case["expected"]["RR"]["mean"], abs=1e-9)  # 0.5
    assert trec_way.value == 0.5 and trec_way.order == ("b", "a")
    assert insertion.value == 1.0 and ascending.value == 1.0
    assert split.differs


def test_rr_cutoff_and_rcap():
    uncut, cut = values(ct.split_rr_cutoff(convention_examples.example_rr_cutoff()))
    assert (uncut, cut) == (pytest.approx(1 / 3), 0.0)
    r, r_cap = values(ct.split_rcap(convention_examples.example_rcap()))
    assert r == pytest.approx(golden("pub-seed004-rcap-example", "R@5"), abs=1e-9)  # 3/7
    assert r_cap == pytest.approx(golden("pub-seed004-rcap-example", "R_cap@5"), abs=1e-9)  # 0.6


def test_empty_qrels_query_trec_drops_ranx_scores_zero():
    trec, ranx = values(ct.split_no_relevant(graded()))
    assert trec == pytest.approx(4 / 5)  # P@5 of [3, 2, 3, 0, 1]; the empty query is dropped
    assert ranx == pytest.approx((4 / 5 + 0) / 2)


def test_equal_splits_get_a_fix_that_shows_the_difference():
    for split in ct.splits(graded()):
        if not split.differs:
            assert split.fix is not None, split.key
            assert ct.BUILDERS[split.key](split.fix.scenario).differs, split.key


def test_errata_values():
    found = {e.key: e for e in errata()}
    assert "0.9232" in found["004-ndcg"].correct and "0.4202" in found["004-ndcg"].correct
    assert f"{golden('pub-seed004-catdog-binary-t05', 'AP@2'):.4f}" in found["004-map"].correct  # 0.6667
    assert f"{golden('pub-seed004-catdog-binary-t05', 'RR@2'):.4f}" in found["004-mrr"].correct  # 0.6667
    assert "0.7778" in found["004-mrr"].correct
    assert "5.7619" in found["001-dcg4"].correct and "12.3928" in found["001-dcg4"].correct
    assert "0.8175" in found["000-71"].correct and "0.7364" in found["000-71"].correct
    assert "0.4286" in found["004-rcap"].correct
    assert all(e.scenario is not None or e.open_note for e in found.values())


def test_recall_rounding_on_r1_n1_n2_r2():
    """R = 2, relevant at ranks 1 and 4 (precision 1 and 2/4). Levels 0.6 and 0.7 ask for lround(1.2) = lround(1.4) = 1
    relevant doc (trec_eval 10.0) or ⌊2.1⌋ = ⌊2.3⌋ = 2 (trec_eval 9), so they are worth 1 or 0.5; levels 0.1 and 0.2
    ask for 0 or 1, both worth 1 (level 0 is the best precision anywhere)."""
    split = ct.split_recall_rounding(convention_examples.example_recall_rounding())
    nearest, plus = values(split)
    assert nearest == pytest.approx((8 * 1 + 3 * 0.5) / 11, abs=1e-12)  # 0.8636, as trec_eval 10.0 prints
    assert plus == pytest.approx((6 * 1 + 5 * 0.5) / 11, abs=1e-12)  # 0.7727
    assert split.differs and split.ways[0].current


def test_recall_rounding_plus_09_is_what_ir_measures_gives():
    import ir_measures
    from ir_measures import IPrec

    scn = convention_examples.example_recall_rounding()
    qrels = [ir_measures.Qrel("q", doc, grade) for doc, grade in scn.qrels.items()]
    run = [ir_measures.ScoredDoc("q", doc, -rank) for rank, doc in enumerate(scn.full_ranking)]
    levels = [IPrec @ (level / 10) for level in range(11)]
    theirs = ir_measures.calc_aggregate(levels, qrels, run)
    _, plus = values(ct.split_recall_rounding(scn))
    assert plus == pytest.approx(sum(theirs.values()) / 11, abs=1e-12)


def test_recall_rounding_same_both_ways_offers_the_example():
    one_relevant = Scenario(("a", "b"), (), {"a": 1, "b": 0}, k=2, scale=1)
    split = ct.split("recall_rounding", one_relevant)
    assert not split.differs and split.fix is not None
    assert ct.split_recall_rounding(split.fix.scenario).differs
