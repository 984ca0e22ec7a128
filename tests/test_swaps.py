"""metrics.teaching.swaps: every cell is (metric of the swapped list) − (metric of the list), checked against
pytrec_eval and hand arithmetic; the diagonal is 0 and Δ(i, j) == Δ(j, i)."""

from __future__ import annotations

import random
import time
from math import log2

import pytest
import pytrec_eval

from metrics.teaching.swaps import best_swap, swap_deltas, swapped

TOL = 1e-9


def trec(ranking: list[str], qrels: dict[str, int], measure: str) -> float:
    """One trec_eval measure of one ranking: scores fall with rank, so there are no ties."""
    run = {"q": {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}}
    name, _, cut = measure.rpartition("_")
    request = f"{name}.{cut}" if cut.isdigit() else measure  # "ndcg_cut_3" is requested as "ndcg_cut.3"
    return pytrec_eval.RelevanceEvaluator({"q": qrels}, {request}).evaluate(run)["q"][measure]


CASES = [
    # (ranking, qrels, family, k, trec measure)
    (["d1", "d2", "d3", "d4", "d5"], {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}, "NDCG", 3, "ndcg_cut_3"),
    (["d1", "d2", "d3", "d4", "d5"], {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1, "d9": 3}, "NDCG", 5, "ndcg_cut_5"),
    (["z", "r1", "n1", "r2", "n2"], {"z": 0, "r1": 1, "r2": 1, "r3": 1}, "AP", None, "map"),
    (["n1", "n2", "r1", "r2", "n3"], {"r1": 1, "r2": 1}, "RR", None, "recip_rank"),
    (["a", "b", "c", "d", "e", "f", "g"], {"b": 1, "f": 1, "g": 2}, "P", 5, "P_5"),
    (["a", "b", "c", "d", "e", "f"], {"a": 1, "c": 1, "e": 1, "x": 1}, "AP", 3, "map_cut_3"),
]


@pytest.mark.parametrize(("ranking", "qrels", "family", "k", "measure"), CASES)
def test_every_cell_is_the_swapped_metric_minus_the_original(ranking, qrels, family, k, measure):
    deltas = swap_deltas(ranking, qrels, family, k)
    base = trec(ranking, qrels, measure)
    n = len(ranking)
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            expected = 0.0 if i == j else trec(swapped(ranking, i, j), qrels, measure) - base
            assert deltas[i - 1][j - 1] == pytest.approx(expected, abs=TOL), (i, j)


def test_hand_arithmetic_ndcg_swap_of_ranks_2_and_4():
    """[3, 2, 3, 0, 1] → swapping ranks 2 and 4 gives [3, 0, 3, 2, 1]."""
    qrels = {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}
    idcg = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0
    before = 3 + 2 / log2(3) + 3 / log2(4) + 0 + 1 / log2(6)
    after = 3 + 0 + 3 / log2(4) + 2 / log2(5) + 1 / log2(6)
    deltas = swap_deltas(["d1", "d2", "d3", "d4", "d5"], qrels, "NDCG", 5)
    assert deltas[1][3] == pytest.approx(after / idcg - before / idcg, abs=TOL)


def test_hand_arithmetic_rr_and_ap():
    ranking, qrels = ["n1", "n2", "r1", "r2", "n3"], {"r1": 1, "r2": 1}  # relevant at 3 and 4
    rr = swap_deltas(ranking, qrels, "RR")
    assert rr[0][2] == pytest.approx(1 - 1 / 3, abs=TOL)  # r1 to rank 1
    assert rr[0][1] == 0.0  # two non-relevant docs
    ap = swap_deltas(ranking, qrels, "AP")
    before = (1 / 3 + 2 / 4) / 2
    assert ap[1][3] == pytest.approx((1 / 2 + 2 / 3) / 2 - before, abs=TOL)  # r2 to rank 2: hits at 2, 3


def test_diagonal_is_zero_and_the_matrix_is_symmetric():
    rng = random.Random(3)
    ranking = [f"d{i}" for i in range(12)]
    qrels = {d: rng.randint(0, 3) for d in ranking} | {"missed": 2}
    for family, k in (("NDCG", 5), ("AP", None), ("RR", 4), ("P", 5), ("R", 3), ("DCG", 10)):
        deltas = swap_deltas(ranking, qrels, family, k)
        for i in range(len(ranking)):
            assert deltas[i][i] == 0.0
            for j in range(len(ranking)):
                assert deltas[i][j] == deltas[j][i]


def test_twenty_docs_well_under_100_ms():
    rng = random.Random(0)
    ranking = [f"d{i}" for i in range(20)]
    qrels = {d: rng.randint(0, 3) for d in ranking}
    start = time.perf_counter()
    swap_deltas(ranking, qrels, "NDCG", 10)
    assert time.perf_counter() - start < 0.1


def test_best_swap_and_bad_input():
    deltas = swap_deltas(["n", "a", "b"], {"a": 1, "b": 3}, "NDCG", 3)
    i, j, gain = best_swap(deltas)
    assert (i, j) == (1, 3) and gain > 0  # b (grade 3) to the top
    assert best_swap(swap_deltas(["b", "a", "n"], {"a": 1, "b": 3}, "NDCG", 3)) is None  # already ideal
    with pytest.raises(ValueError):
        swap_deltas(["a"], {"a": 1}, "nope")
    with pytest.raises(ValueError):
        swapped(["a", "b"], 0, 2)
